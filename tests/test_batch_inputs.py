"""What ``batch`` (and every command) will read: regular files only, never a blocking
open, and corpus listings that never follow a link to a folder.

Every case that used to hang (a FIFO opened for reading, a glob walking ``x -> .``
or ``root -> /``) runs in a child process with a timeout, so a regression fails
instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from helpers import INSTANCES, ROOT

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symlinks")

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
BOARDS = [INSTANCES / "thermometers" / "t01_4x4.txt", INSTANCES / "thermometers" / "t02_5x5.txt"]


def run(args: list[str], cwd, timeout: float = 120) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([sys.executable, *args], cwd=cwd, env=ENV, capture_output=True,
                              text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{args} did not end within {timeout} s")


def thermomilp(args: list[str], cwd, timeout: float = 120) -> subprocess.CompletedProcess:
    return run(["-m", "thermomilp", *args], cwd, timeout)


def expand(patterns: list[str], cwd) -> list[str]:
    done = run(["-c", "import json, sys; from thermomilp.batch import expand_inputs; "
                      "print(json.dumps(expand_inputs(sys.argv[1:])))", *patterns], cwd, 60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def corpus_with_a_fifo(tmp_path):
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    shutil.copy(BOARDS[0], corpus / "a.txt")
    shutil.copy(BOARDS[1], corpus / "sub" / "b.txt")
    os.mkfifo(corpus / "x.txt")  # nobody ever writes to it: a blocking open waits forever
    return corpus


@pytest.mark.parametrize("inputs", [["corpus"], ["corpus/**/*.txt"]])
def test_a_fifo_in_the_corpus_is_an_error_record_and_the_batch_ends(tmp_path, inputs):
    corpus_with_a_fifo(tmp_path)
    done = thermomilp(["batch", *inputs, "--out", "out.jsonl", "--no-progress", "-j", "1"],
                      tmp_path)
    records = {r["file"]: r for r in map(json.loads, (tmp_path / "out.jsonl").open())}
    assert sorted(records) == [os.path.join("corpus", "a.txt"),
                               os.path.join("corpus", "sub", "b.txt"),
                               os.path.join("corpus", "x.txt")], done.stderr
    fifo = records[os.path.join("corpus", "x.txt")]
    assert fifo["status"] == "error" and fifo["sha256"] is None
    assert "corpus/x.txt" in fifo["error"] and "FIFO" in fifo["error"], fifo
    assert "not a regular file" in fifo["error"]
    assert records[os.path.join("corpus", "a.txt")]["status"] == "unique"
    assert done.returncode == 2  # a file that cannot be read: as for any unreadable input


@pytest.mark.parametrize("command", [["solve"], ["check"], ["show"], ["convert", "--to", "json"]])
def test_every_command_refuses_a_fifo_at_once(tmp_path, command):
    os.mkfifo(tmp_path / "board.txt")
    done = thermomilp([*command, "board.txt"], tmp_path, timeout=60)
    assert done.returncode == 2, (done.stdout, done.stderr)
    said = done.stdout + done.stderr
    assert "board.txt" in said and "FIFO" in said and "Traceback" not in said, said


def test_read_regular_refuses_what_is_not_a_regular_file_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    os.symlink(tmp_path / "fifo", tmp_path / "link-to-fifo")
    (tmp_path / "folder").mkdir()
    (tmp_path / "board.txt").write_bytes(b"0123456789")
    os.symlink(tmp_path / "board.txt", tmp_path / "link.txt")
    probe = """
import json, sys
from thermomilp.core.files import NotRegularFile, read_regular
out = {}
for name in sys.argv[1:]:
    try:
        out[name] = read_regular(name, 4).decode()
    except NotRegularFile as exc:
        out[name] = "refused: " + exc.strerror
print(json.dumps(out))
"""
    done = run(["-c", probe, "fifo", "link-to-fifo", "folder", "/dev/null", "board.txt",
                "link.txt"], tmp_path, 60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "fifo": "refused: it is a FIFO (named pipe), not a regular file",
        "link-to-fifo": "refused: it is a FIFO (named pipe), not a regular file",
        "folder": "refused: it is a folder, not a regular file",
        "/dev/null": "refused: it is a device, not a regular file",
        "board.txt": "0123",  # at most `limit` bytes
        "link.txt": "0123",  # a link to a regular file is followed
    }


def looping_tree(tmp_path):
    """corpus/ with a board, a sub-folder, ``x -> .``, ``root -> /``, ``up -> ..`` and
    ``out -> ../outside`` (which holds a board of its own)."""
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    shutil.copy(BOARDS[0], corpus / "a.txt")
    shutil.copy(BOARDS[1], corpus / "sub" / "b.txt")
    shutil.copy(BOARDS[1], tmp_path / "outside" / "c.txt")
    os.symlink(".", corpus / "x")
    os.symlink("/", corpus / "root")
    os.symlink("..", corpus / "sub" / "up")
    os.symlink("../outside", corpus / "out")
    os.symlink("sub", corpus / "link.txt")  # a link to a folder, named like a board
    return corpus


INSIDE = [os.path.join("corpus", "a.txt"), os.path.join("corpus", "sub", "b.txt")]


@pytest.mark.parametrize("pattern", ["corpus/**/*.txt", "corpus/**", "corpus/*/*.txt",
                                     "corpus/**/sub/*.txt", "corpus"])
def test_a_corpus_walk_never_follows_a_link_to_a_folder(tmp_path, pattern):
    looping_tree(tmp_path)
    found = expand([pattern], tmp_path)
    wanted = {"corpus/**/*.txt": INSIDE, "corpus/**": INSIDE, "corpus": INSIDE,
              "corpus/*/*.txt": INSIDE[1:], "corpus/**/sub/*.txt": INSIDE[1:]}[pattern]
    assert found == wanted


def test_a_batch_over_a_looping_glob_ends_and_solves_only_the_corpus(tmp_path):
    looping_tree(tmp_path)
    done = thermomilp(["batch", "corpus/**/*.txt", "--no-progress", "-j", "1"], tmp_path)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert sorted(r["file"] for r in records) == INSIDE
    assert {r["status"] for r in records} == {"unique"}


def test_a_link_named_in_the_glob_itself_is_followed(tmp_path):
    """The folder a glob starts from is the user's choice, link or not; only the links
    met below it are not followed."""
    looping_tree(tmp_path)
    os.symlink("corpus", tmp_path / "alias")
    assert expand(["alias/**/*.txt"], tmp_path) == [os.path.join("alias", "a.txt"),
                                                   os.path.join("alias", "sub", "b.txt")]


def test_globs_match_as_glob_does_on_a_tree_without_links(tmp_path, monkeypatch):
    import glob

    corpus = tmp_path / "c"
    for name in ("x.txt", "a/y.txt", "a/.h/z.txt", ".hid.txt", "b/c/w.json", "b/v.txt",
                 "b/c/deep/t.txt"):
        (corpus / name).parent.mkdir(parents=True, exist_ok=True)
        (corpus / name).write_text("not a board")
    patterns = ["c/**/*.txt", "c/*.txt", "c/*/*", "c/**", "c/.*.txt", "c/**/.h/*",
                "c/*/c/*.json", "c/b/**/*.txt", "c/?/*.txt", "c/[ab]/**/*.t*t"]
    found = {p: expand([p], tmp_path) for p in patterns}
    monkeypatch.chdir(tmp_path)
    for pattern in patterns:
        theirs = sorted(os.path.normpath(p) for p in glob.glob(pattern, recursive=True)
                        if os.path.isfile(p))
        assert found[pattern] == theirs, pattern


def test_the_shipped_folder_is_solved_without_its_answer_file(tmp_path, capsys):
    """instances/ holds expected.json beside the boards: not a board (a JSON object
    without a "puzzle" key), so no error record and a rerun that resumes cleanly."""
    import json

    from thermomilp.batch import expand_inputs
    from thermomilp.cli.main import main

    instances = ROOT / "instances"
    skipped: list = []
    files = expand_inputs([str(instances)], skipped)
    assert skipped == [(str(instances / "expected.json"),
                        'a JSON object without a "puzzle" key')]
    assert all(f.endswith(".txt") for f in files) and len(files) >= 20
    out = tmp_path / "runs.jsonl"
    for _ in range(2):  # the second run resumes
        code = main(["batch", str(instances), "--no-progress", "--out", str(out)])
        err = capsys.readouterr().err
        assert code == 1  # t08 has no solution: exit 1, never 2
        assert "batch: skipped" in err and "expected.json: not a board" in err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert "error" not in {r["status"] for r in records}
    assert not any(r["file"].endswith("expected.json") for r in records)
    # a JSON board is still a board, and a broken one still an error record
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "answers.json").write_text('{"t01.txt": {"status": "unique"}}')
    (tmp_path / "corpus" / "list.json").write_text("[1, 2]")
    (tmp_path / "corpus" / "broken.json").write_text('{"puzzle": "thermometers"')
    (tmp_path / "corpus" / "t01.txt").write_text(
        (instances / "thermometers" / "t01_4x4.txt").read_text())
    skipped = []
    files = expand_inputs([str(tmp_path / "corpus")], skipped)
    assert [os.path.basename(f) for f in files] == ["broken.json", "t01.txt"]
    assert sorted(os.path.basename(p) for p, _ in skipped) == ["answers.json", "list.json"]
    # named on its own, the answer file is read (and is an error record)
    assert expand_inputs([str(instances / "expected.json")]) == [
        str(instances / "expected.json")]
