"""One per-file pipeline (thermomilp.solving.pipeline): ``solve`` and ``batch`` give the
same record for every shipped board in every format the package writes, ``batch``
takes every suffix ``solve`` reads, and an upload (bytes and a name) gives the same
record as the file."""

from __future__ import annotations

import json
import os

from thermomilp.cli.main import main
from thermomilp.formats import load
from thermomilp.solving.pipeline import solve_input

from helpers import INSTANCES, every_format


def _records(text: str) -> dict[str, dict]:
    """By file, without what differs between two runs of one pipeline: the time and the
    batch's content hash (which method decided or confirmed is compared: the logic's
    budgets are work, not seconds)."""
    out = {}
    for line in text.splitlines():
        record = json.loads(line)
        record.pop("time_s")
        record.pop("sha256", None)
        out[record["file"]] = record
    return out


def test_solve_and_batch_give_the_same_record_for_every_board_in_every_format(tmp_path,
                                                                               capsys):
    files = every_format(tmp_path / "corpus")
    suffixes = {os.path.splitext(f)[1] for f in files}
    assert {".url", ".pzpr", ".json", ".txt"} <= suffixes
    kinds = {json.loads(json.dumps(load(f).kind)) for f in files}
    assert kinds == {"thermometers", "aquarium"}

    main(["solve", *files, "--format", "json"])
    solved = _records(capsys.readouterr().out)
    out = tmp_path / "out.jsonl"
    main(["batch", str(tmp_path / "corpus"), "--out", str(out), "--jobs", "1",
          "--no-progress"])
    capsys.readouterr()
    batched = _records(out.read_text())

    assert sorted(batched) == sorted(solved) == files  # batch takes every suffix solve reads
    differences = {(f, k, str(solved[f].get(k))[:60], str(batched[f].get(k))[:60])
                   for f in files for k in set(solved[f]) | set(batched[f])
                   if solved[f].get(k) != batched[f].get(k)}
    assert differences == set()
    infeasible = [r for r in solved.values() if r["status"] == "infeasible"]
    assert infeasible and all(r.get("conflict") for r in infeasible)  # explained by both


def test_an_upload_gives_the_record_of_the_file(tmp_path):
    from thermomilp.core.config import resolve

    settings = resolve({})
    for board in (INSTANCES / "thermometers" / "t08_4x4_no_solution.txt",
                  INSTANCES / "aquarium" / "a01_6x6.txt"):
        by_path = solve_input(str(board), settings).record()
        by_bytes = solve_input(board.read_bytes(), settings, name=str(board)).record()
        by_path.pop("time_s")
        by_bytes.pop("time_s")
        assert by_path == by_bytes
    bad = solve_input(b"\xff\xfe not text", settings, name="up.txt")
    assert bad.result is None and bad.record()["status"] == "error"
    assert "up.txt" in bad.record()["error"]


def test_the_printout_never_names_a_method_that_did_not_run(monkeypatch, capsys):
    """A time limit reached in the logic presolve: no engine ran, nothing was
    'determined by the logic'."""
    import thermomilp.logic.presolve as presolve
    from thermomilp.core.deadline import TimeUp

    def out_of_time(*args, **kwargs):
        raise TimeUp()

    monkeypatch.setattr(presolve, "presolve", out_of_time)
    board = INSTANCES / "thermometers" / "t03_6x6.txt"
    assert main(["solve", str(board)]) == 1
    text = capsys.readouterr().out
    assert "status: timeout" in text
    assert "determined by the logic" not in text
    assert "only the logic ran" not in text and "not called" in text
    assert "error: the time limit was reached in the logic presolve" in text


def test_a_clock_that_ends_before_the_engine_names_no_logic_under_logic_none(capsys):
    """--logic none and a clock already spent: neither the logic nor an engine ran, and
    the printout says so (it once said "only the logic ran ... in the logic presolve")."""
    board = INSTANCES / "thermometers" / "t03_6x6.txt"
    assert main(["solve", str(board), "--logic", "none", "--time-limit", "1e-9"]) == 1
    text = capsys.readouterr().out
    assert "status: timeout   [highs/highs not called" in text
    assert "logic" not in text.split("status:")[1]
    assert "error: the time limit was reached before the engine was asked" in text


SLOW_START = 2.0
"""Seconds added to each start-up step of the batch process below."""

SLOWED_BATCH = f"""
import sys
import time

import thermomilp.solving.engine as engine


def slowed(real):  # the first call only: what a fresh process pays once
    calls = []

    def run(*args, **kwargs):
        if not calls:
            calls.append(1)
            time.sleep({SLOW_START})
        return real(*args, **kwargs)
    return run


engine.require_available = slowed(engine.require_available)  # the pair probe
engine.import_backend = slowed(engine.import_backend)  # importing the engine
from thermomilp.cli.main import main

raise SystemExit(main(sys.argv[1:]))
"""


def test_the_first_board_is_timed_like_the_others(tmp_path):
    """``time_s`` is the board's own time: the first board of a fresh process does not
    carry the start-up (the pair probe, importing the engine), which used to make it
    20-300 times slower than the same board solved next. Each start-up step is made
    SLOW_START seconds slower here: on the first board's clock it would show as at least
    that, while the board itself takes milliseconds (a tenth of a second on a loaded
    machine) -- no ratio of two timings, which load can skew."""
    import shutil
    import subprocess
    import sys
    import time

    from helpers import ROOT

    boards = tmp_path / "boards"
    boards.mkdir()
    for k in range(3):
        shutil.copy(INSTANCES / "thermometers" / "t03_6x6.txt", boards / f"b{k}.txt")
    script = tmp_path / "slowed_batch.py"
    script.write_text(SLOWED_BATCH)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for logic in ("probing", "none"):  # decided by the logic; by the engine
        started = time.monotonic()
        done = subprocess.run([sys.executable, str(script), "batch", str(boards),
                               "--jobs", "1", "--no-progress", "--logic", logic],
                              capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stderr
        assert time.monotonic() - started >= SLOW_START  # the slowed start-up ran
        times = [json.loads(line)["time_s"] for line in done.stdout.splitlines()]
        assert len(times) == 3
        assert max(times) < SLOW_START, (logic, times)  # and no board's clock shows it
