"""What the CLI writes never crashes it: unencodable names and labels, file modes."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from thermomilp.cli.main import main

from helpers import ROOT

THERMO = {"puzzle": "thermometers", "name": "x\ud800y", "rows": [1], "cols": [1],
          "thermometers": [[[0, 0]]]}
AQUA = {"puzzle": "aquarium", "rows": [1, None], "cols": [None, None],
        "regions": [[0, 0, "\ud800"], [0, 1, "\udfff"], [1, 0, "b"], [1, 1, "b"]]}


@pytest.mark.parametrize("board", [THERMO, AQUA], ids=["name", "label"])
@pytest.mark.parametrize("command", [["show"], ["solve"], ["convert", "--to", "text"],
                                     ["explain"], ["analyze"], ["hint"], ["check"]])
def test_a_lone_surrogate_is_printed_escaped_not_a_crash(tmp_path, board, command):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(board))  # ensure_ascii: the file holds the escape \ud800
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    proc = subprocess.run([sys.executable, "-m", "thermomilp", *command, str(path)],
                          capture_output=True, env=env, timeout=120, check=False)
    assert proc.returncode in (0, 1, 2), proc.stderr.decode()
    assert b"internal error" not in proc.stderr and b"Traceback" not in proc.stderr
    if command[0] == "convert" and board is AQUA:
        # tank labels the text reader refuses are renumbered (issue 18: a writer never
        # writes what its own reader rejects); the board reads back the same
        from thermomilp.formats import loads

        assert proc.returncode == 0
        back = loads(proc.stdout.decode("utf-8"))
        assert len({label for row in back.region_grid() for label in row}) == 3
    elif command[0] == "convert" or (command[0] == "show" and board is THERMO):
        assert proc.returncode == 0 and b"\\ud800" in proc.stdout


def test_convert_to_a_file_escapes_a_lone_surrogate(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(THERMO))
    target = tmp_path / "s.txt"
    assert main(["convert", str(path), "--to", "text", "-o", str(target)]) == 0
    assert "x\\ud800y" in target.read_text(encoding="utf-8")


def test_generated_files_honour_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        assert main(["generate", "--size", "4x4", "--out", str(tmp_path), "--quiet"]) == 0
    finally:
        os.umask(old)
    (made,) = [p for p in tmp_path.iterdir() if not p.name.startswith(".")]
    assert stat.S_IMODE(made.stat().st_mode) == 0o644


# --------------------------------------------------------------------------
# File names and labels are shown, never obeyed, by the terminal (core/untrusted.shown)
# --------------------------------------------------------------------------

HOSTILE_FILE_NAMES = ["esc\x1b[2J\x1b]0;owned\x07.txt", "cr\rstatus: unique.txt",
                      "nl\nstatus: unique.txt", "bidi\u202eevil.txt"]


def _cli(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    return subprocess.run([sys.executable, "-m", "thermomilp", *argv], capture_output=True,
                          env=env, timeout=120, text=True, encoding="utf-8", cwd=cwd)


@pytest.mark.parametrize("name", HOSTILE_FILE_NAMES, ids=["esc", "cr", "newline", "bidi"])
@pytest.mark.parametrize("command", [["solve"], ["show"], ["check"], ["solve", "--svg", "p.svg"],
                                     ["explain"], ["analyze"]])
def test_a_hostile_file_name_is_printed_escaped(tmp_path, name, command):
    from helpers import INSTANCES

    board = tmp_path / name
    # the infeasible board: a forged "status: unique" line would be a lie
    board.write_bytes((INSTANCES / "thermometers" / "t08_4x4_no_solution.txt").read_bytes())
    missing = tmp_path / ("missing-" + name)
    proc = _cli(*command, str(board), str(missing), cwd=tmp_path)  # p-*.svg land there
    for stream in (proc.stdout, proc.stderr):
        assert "\x1b" not in stream and "\r" not in stream and "\u202e" not in stream
        assert "status: unique" not in stream.splitlines()
    shown_name = name.replace("\x1b", "\\x1b").replace("\x07", "\\x07").replace(
        "\r", "\\r").replace("\n", "\\n").replace("\u202e", "\\u202e")
    assert shown_name in proc.stdout + proc.stderr


def test_a_hostile_tank_label_cannot_forge_a_line(tmp_path):
    board = {"puzzle": "aquarium", "rows": [1, None], "cols": [None, None],
             "regions": [[0, 0, "a\nstatus: unique\x1b[2J"], [0, 1, "a\nstatus: unique\x1b[2J"],
                         [1, 0, "b"], [1, 1, "b"]]}
    path = tmp_path / "label.json"
    path.write_text(json.dumps(board))
    for command in (["show"], ["solve"]):
        proc = _cli(*command, str(path))
        assert "\x1b" not in proc.stdout and "status: unique" not in proc.stdout.splitlines()


def test_shown_escapes_every_control_and_leaves_clean_text_alone():
    from thermomilp.core.untrusted import shown

    assert shown("t01_4x4.txt") == "t01_4x4.txt"
    assert shown("Ärger ≈ ● .txt") == "Ärger ≈ ● .txt"
    assert shown("a\x00b\x7f\x9b\ud800") == "a\\x00b\\x7f\\x9b\\ud800"
    assert all(ch.isprintable() for ch in shown("".join(map(chr, range(0x00, 0xA0)))))
