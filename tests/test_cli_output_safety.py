"""What the CLI writes never crashes it: unencodable names and labels, file modes."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

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
