"""thermomilp batch: records = solve's JSON contract, resume, interrupt, pool = serial."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from thermomilp.batch import BatchJob, done_files, expand_inputs, run_batch, solve_file
from thermomilp.cli.main import main
from thermomilp.formats import dumps, load
from thermomilp.generate.random_board import planted_board
from thermomilp.solve import solve
from thermomilp.verify import solution_problems

REPO = Path(__file__).resolve().parents[1]


def write_corpus(folder: Path, count: int, size: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(count):
        path = folder / f"b{k:03d}.json"
        path.write_text(dumps(planted_board(size, size, rng), "json"))
        paths.append(os.path.normpath(str(path)))
    return paths


def read_jsonl(path: Path) -> list[dict]:
    text = path.read_text()
    assert text == "" or text.endswith("\n"), "the output ends in a torn line"
    return [json.loads(line) for line in text.splitlines()]


def without_time(records):
    """Records keyed for comparison between runs: everything but the time, and for
    ``multiple`` boards only the status -- which two of the solutions an engine
    meets first may differ between runs (threads); both grids are verified instead."""
    from thermomilp.formats import load
    from thermomilp.verify import solution_problems

    out = []
    for r in records:
        r = {k: v for k, v in r.items() if k != "time_s"}
        if r["status"] == "multiple":
            puzzle = load(r["file"])
            assert solution_problems(puzzle, tuple(r["grid"])) == []
            assert solution_problems(puzzle, tuple(r["second"])) == []
            assert r["grid"] != r["second"]
            r = {"file": r["file"], "status": "multiple"}
        out.append(r)
    return sorted(out, key=lambda r: r["file"])


def test_record_is_the_solve_contract(tmp_path):
    (path,) = write_corpus(tmp_path, 1, 6)
    job = BatchJob()
    record = solve_file(path, job)
    expected = solve(load(path), settings=job.settings).to_json(path)
    assert without_time([record]) == without_time([expected])
    assert solution_problems(load(path), tuple(record["grid"])) == []


def test_bad_file_is_an_error_record_not_a_crash(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("this is not a puzzle\n")
    record = solve_file(str(bad), BatchJob())
    assert record["status"] == "error" and str(bad) in record["error"]


def test_expand_inputs_directory_and_glob(tmp_path):
    paths = write_corpus(tmp_path / "c", 3, 5)
    (tmp_path / "c" / "notes.md").write_text("not a puzzle")
    assert expand_inputs([str(tmp_path / "c")]) == sorted(paths)
    assert expand_inputs([str(tmp_path / "c" / "*.json"), paths[0]]) == sorted(paths)


def test_pool_gives_the_same_records_as_serial(tmp_path):
    paths = write_corpus(tmp_path, 6, 7)
    serial, pooled = io.StringIO(), io.StringIO()
    run_batch(paths, BatchJob(), serial, jobs=1)
    summary = run_batch(paths, BatchJob(), pooled, jobs=2)
    assert not summary.interrupted and len(summary.records) == 6
    parse = lambda s: [json.loads(x) for x in s.getvalue().splitlines()]  # noqa: E731
    assert without_time(parse(serial)) == without_time(parse(pooled))


def test_resume_skips_done_files_and_repairs_a_torn_line(tmp_path, capsys):
    paths = write_corpus(tmp_path / "c", 5, 6)
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(tmp_path / "c"), "--out", str(out), "--jobs", "1"]) in (0, 1)
    first = read_jsonl(out)
    assert sorted(r["file"] for r in first) == sorted(paths)
    # keep two records, tear a third in half, as a crash on another machine would
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:2]) + lines[2][: len(lines[2]) // 2])
    assert done_files(str(out)) == {first[0]["file"], first[1]["file"]}
    assert main(["batch", str(tmp_path / "c"), "--out", str(out), "--jobs", "2"]) in (0, 1)
    second = read_jsonl(out)
    assert sorted(r["file"] for r in second) == sorted(paths)  # each file exactly once
    assert without_time(second) == without_time(first)
    # a third run finds nothing to do and appends nothing
    before = out.read_text()
    main(["batch", str(tmp_path / "c"), "--out", str(out)])
    assert out.read_text() == before
    assert "already in the output" in capsys.readouterr().err


@pytest.mark.parametrize("jobs", [1, 2])
def test_sigint_keeps_finished_records_and_a_rerun_completes(tmp_path, jobs):
    paths = write_corpus(tmp_path / "c", 40, 22, seed=jobs)
    out = tmp_path / "out.jsonl"
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "thermomilp", "batch", str(tmp_path / "c"), "--out", str(out),
           "--jobs", str(jobs), "--no-progress"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_text().count("\n") >= 3:
            break
        time.sleep(0.01)
    assert proc.poll() is None, "the batch ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    assert b"Traceback" not in err
    partial = read_jsonl(out)  # every line parses, the file ends with a newline
    assert 3 <= len(partial) < len(paths)
    rerun = subprocess.run(cmd, env=env, capture_output=True, timeout=120)
    assert rerun.returncode in (0, 1), rerun.stderr.decode()
    records = read_jsonl(out)
    assert sorted(r["file"] for r in records) == sorted(paths)
    for record in records:
        assert record["status"] in ("unique", "multiple")
        assert solution_problems(load(record["file"]), tuple(record["grid"])) == []


# --------------------------------------------------------------------------
# The output file is sacred: batch appends only to its own output
# --------------------------------------------------------------------------


@pytest.mark.parametrize("content", [b"my notes\n", b"my notes", b"", b"\n\n",
                                     b'{"file": "a.txt", "status": "unique"}\nmy notes\n'
                                     b'{"file": "b.txt", "status": "unique"}\n',
                                     b'{"not": "a record"}\n', b"[1, 2]\n"])
def test_batch_never_destroys_a_file_that_is_not_its_output(tmp_path, content, capsys):
    out = tmp_path / "n.txt"
    out.write_bytes(content)
    board = str(REPO / "instances" / "thermometers" / "t01_4x4.txt")
    code = main(["batch", board, "--out", str(out), "--jobs", "1", "--no-progress"])
    if content.strip():  # anything but blank lines: refused, untouched
        assert code == 2
        assert out.read_bytes() == content
        assert "not a thermomilp batch record" in capsys.readouterr().err
    else:
        assert code == 0
        text = out.read_text()
        assert text.startswith(content.decode()) and text.endswith("\n")
        assert json.loads(text.splitlines()[-1])["file"] == os.path.normpath(board)


def test_a_whole_last_record_without_newline_is_kept(tmp_path):
    paths = write_corpus(tmp_path / "c", 2, 5)
    out = tmp_path / "out.jsonl"
    assert main(["batch", paths[0], "--out", str(out), "--no-progress"]) in (0, 1)
    out.write_bytes(out.read_bytes().rstrip(b"\n"))
    assert main(["batch", *paths, "--out", str(out), "--no-progress"]) in (0, 1)
    assert sorted(r["file"] for r in read_jsonl(out)) == sorted(paths)
