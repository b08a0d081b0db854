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

from thermomilp.batch import (
    BatchJob,
    BatchOutput,
    expand_inputs,
    read_output,
    run_batch,
    run_pool,
    solve_file,
)
from thermomilp.cli.main import main
from thermomilp.core.verify import solution_problems
from thermomilp.formats import dumps, load
from thermomilp.generate.random_board import planted_board
from thermomilp.solving import solve

from helpers import ROOT


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
    from thermomilp.core.verify import solution_problems
    from thermomilp.formats import load

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
    assert [r["file"] for r in read_output(str(out))] == [first[0]["file"], first[1]["file"]]
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
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
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
    board = str(ROOT / "instances" / "thermometers" / "t01_4x4.txt")
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


# --------------------------------------------------------------------------
# One run per output; resume by content; errors retried; isolation; exit codes
# --------------------------------------------------------------------------


def test_a_second_run_on_the_same_output_is_refused_while_the_first_holds_it(tmp_path, capsys):
    paths = write_corpus(tmp_path / "c", 2, 5)
    out = tmp_path / "out.jsonl"
    assert main(["batch", paths[0], "--out", str(out), "--no-progress"]) in (0, 1)
    before = out.read_bytes()
    with BatchOutput(str(out)) as held:  # what a first, still running batch holds
        assert len(held.records) == 1
        code = main(["batch", *paths, "--out", str(out), "--no-progress"])
    assert code == 2 and "another thermomilp batch is writing" in capsys.readouterr().err
    assert out.read_bytes() == before
    assert main(["batch", *paths, "--out", str(out), "--no-progress"]) in (0, 1)  # released
    assert sorted(r["file"] for r in read_jsonl(out)) == sorted(paths)


def test_two_concurrent_processes_write_each_record_once(tmp_path):
    write_corpus(tmp_path / "c", 6, 12)
    out = tmp_path / "out.jsonl"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "thermomilp", "batch", str(tmp_path / "c"), "--out", str(out),
           "--jobs", "1", "--no-progress"]
    procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(2)]
    results = [(p.wait(timeout=120), p.stderr.read().decode()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    files = [r["file"] for r in read_jsonl(out)]
    assert sorted(files) == sorted(set(files)) and len(files) == 6
    refused = [err for code, err in results if code == 2]
    # the second either found the lock or started after the first had finished
    assert all("another thermomilp batch is writing" in err for err in refused)
    assert all("Traceback" not in err for _, err in results)


def test_resume_from_another_directory_or_an_absolute_path_solves_nothing_again(
        tmp_path, monkeypatch, capsys):
    paths = write_corpus(tmp_path / "work" / "c", 3, 6)
    out = tmp_path / "out.jsonl"
    monkeypatch.chdir(tmp_path / "work")
    first = main(["batch", "c", "--out", str(out), "--no-progress"])
    assert first in (0, 1)
    before = out.read_bytes()
    assert all(r["sha256"] and len(r["sha256"]) == 64 for r in read_jsonl(out))
    for cwd, spelled in [(tmp_path, "work/c"), (tmp_path / "work" / "c", "."),
                         (tmp_path, str(tmp_path / "work" / "c")),
                         (tmp_path, os.path.join(str(tmp_path), "work", "..", "work", "c"))]:
        monkeypatch.chdir(cwd)
        assert main(["batch", spelled, "--out", str(out), "--no-progress"]) == first
        assert out.read_bytes() == before, spelled
    assert "3 already in the output" in capsys.readouterr().err
    # a changed file is a new input: solved again, the others still skipped
    Path(paths[0]).write_text(dumps(planted_board(5, 5, random.Random(99)), "json"))
    assert main(["batch", str(tmp_path / "work" / "c"), "--out", str(out),
                 "--no-progress"]) in (0, 1)
    assert len(read_jsonl(out)) == 4


def test_equal_contents_under_two_names_need_two_records(tmp_path):
    (path,) = write_corpus(tmp_path / "c", 1, 5)
    twin = tmp_path / "c" / "twin.json"
    twin.write_bytes(Path(path).read_bytes())
    out = tmp_path / "out.jsonl"
    assert main(["batch", path, "--out", str(out), "--no-progress"]) in (0, 1)
    assert main(["batch", str(tmp_path / "c"), "--out", str(out), "--no-progress"]) in (0, 1)
    assert sorted(r["file"] for r in read_jsonl(out)) == sorted([path, str(twin)])


def test_error_records_are_retried_unless_kept(tmp_path, capsys):
    (good,) = write_corpus(tmp_path / "c", 1, 5)
    bad = tmp_path / "c" / "bad.txt"
    bad.write_text("not a puzzle\n")
    out = tmp_path / "out.jsonl"
    args = ["batch", str(tmp_path / "c"), "--out", str(out), "--no-progress"]
    assert main(args) == 2
    assert main(args) == 2  # the error is not "done": tried again, still bad input
    assert [r["file"] for r in read_jsonl(out)].count(str(bad)) == 2
    assert main(args + ["--keep-errors"]) == 2  # kept: nothing new, same exit code
    assert len(read_jsonl(out)) == 3
    bad.write_text(Path(good).read_text())  # fixed: a good board now
    capsys.readouterr()
    assert main(args) in (0, 1)
    last = read_jsonl(out)[-1]
    assert last["file"] == str(bad) and last["status"] != "error"
    before = out.read_bytes()
    assert main(args) in (0, 1) and out.read_bytes() == before  # the good record covers it


def test_the_exit_code_is_that_of_every_input_resumed_or_not(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    for name in ("t01_4x4.txt", "t08_4x4_no_solution.txt", "t03_6x6.txt"):
        (folder / name).write_bytes((ROOT / "instances" / "thermometers" / name).read_bytes())
    whole = tmp_path / "whole.jsonl"
    assert main(["batch", str(folder), "--out", str(whole), "--no-progress"]) == 1
    # interrupted after the infeasible board: keep its record only, then resume
    part = tmp_path / "part.jsonl"
    part.write_text("".join(line + "\n" for line in whole.read_text().splitlines()
                            if "no_solution" in line))
    assert main(["batch", str(folder), "--out", str(part), "--no-progress"]) == 1
    assert main(["batch", str(folder), "--out", str(part), "--no-progress"]) == 1


def test_an_unexpected_exception_on_one_file_is_its_record_and_the_run_goes_on(
        tmp_path, monkeypatch, capsys):
    import thermomilp.formats as formats

    paths = write_corpus(tmp_path / "c", 3, 5)
    real_load = formats.load

    def load(path, fmt=None, **options):
        if str(path) == paths[1]:
            raise TypeError("a bug in a reader")
        return real_load(path, fmt, **options)

    monkeypatch.setattr(formats, "load", load)
    out = tmp_path / "out.jsonl"
    code = main(["batch", *paths, "--out", str(out), "--jobs", "1", "--no-progress"])
    records = {r["file"]: r for r in read_jsonl(out)}
    assert sorted(records) == sorted(paths)
    assert records[paths[1]]["status"] == "error"
    assert records[paths[1]]["error"].startswith("internal error: TypeError: a bug in a reader")
    assert all(records[p]["status"] in ("unique", "multiple") for p in (paths[0], paths[2]))
    assert code == 3 and "Traceback" not in capsys.readouterr().err
    monkeypatch.setattr(formats, "load", real_load)  # the bug fixed: the rerun retries it
    assert main(["batch", *paths, "--out", str(out), "--no-progress"]) in (0, 1)
    assert len(read_jsonl(out)) == 4


def die_on_crash_files(path: str, job: BatchJob) -> dict:
    """A pool worker that dies (as a segfault would) on files named crash*."""
    if os.path.basename(path).startswith("crash"):
        os._exit(11)
    return solve_file(path, job)


def test_a_worker_that_dies_costs_only_its_own_file(tmp_path):
    paths = write_corpus(tmp_path / "c", 4, 5)
    crash = tmp_path / "c" / "crash.json"
    crash.write_bytes(Path(paths[0]).read_bytes())
    files = paths[:2] + [str(crash)] + paths[2:]
    records = {r["file"]: r for r in run_pool(files, BatchJob(), 2, work=die_on_crash_files)}
    assert sorted(records) == sorted(files)
    assert records[str(crash)]["status"] == "error"
    assert "worker process died" in records[str(crash)]["error"]
    for path in paths:
        assert records[path]["status"] in ("unique", "multiple")
        assert solution_problems(load(path), tuple(records[path]["grid"])) == []


def test_an_output_inside_an_input_folder_is_not_read_as_a_puzzle(tmp_path, monkeypatch):
    write_corpus(tmp_path / "c", 2, 5)
    monkeypatch.chdir(tmp_path / "c")
    for _ in range(2):
        assert main(["batch", ".", "--out", "results.json", "--no-progress"]) in (0, 1)
    records = read_jsonl(tmp_path / "c" / "results.json")
    assert sorted(os.path.basename(r["file"]) for r in records) == ["b000.json", "b001.json"]
