"""``thermomilp grade`` grades a file on the boards of the puzzle it models: a file that
declares ``PUZZLE = "aquarium"`` is never graded on Thermometers boards (it used to be:
2/12 and no mistake named), and one that only speaks of Aquarium is asked for --puzzle."""

from __future__ import annotations

import json

from thermomilp.cli.grade_cmd import declared_puzzle
from thermomilp.cli.main import main

from helpers import ROOT

MISSING_TIE = ROOT / "models" / "students" / "aquarium_missing_tie.py"


def test_a_declared_aquarium_file_is_graded_on_aquarium_boards(capsys):
    assert declared_puzzle(str(MISSING_TIE)) == ("aquarium", None)
    assert main(["grade", str(MISSING_TIE), "--format", "json"]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert records and {r["puzzle"] for r in records} == {"aquarium"}
    shipped = [r["file"] for r in records if not r["file"].startswith("probe board")]
    assert shipped and all(name.startswith("aquarium/") for name in shipped)


def test_a_file_that_only_speaks_of_aquarium_is_asked_for_the_puzzle(tmp_path, capsys):
    undeclared = tmp_path / "mine.py"
    undeclared.write_text(MISSING_TIE.read_text().replace('PUZZLE = "aquarium"', ""))
    assert declared_puzzle(str(undeclared)) == (None, "aquarium")
    assert main(["grade", str(undeclared)]) == 2
    err = capsys.readouterr().err
    assert "give --puzzle aquarium" in err and "does not say which puzzle" in err
    # contradicting --puzzle, or files of two puzzles in one run: refused, never guessed
    assert main(["grade", str(MISSING_TIE), "--puzzle", "thermometers"]) == 2
    assert "declares PUZZLE = 'aquarium'" in capsys.readouterr().err
    thermo = tmp_path / "thermo.py"
    thermo.write_text('PUZZLE = "thermometers"\n\ndef build(puzzle):\n    return None\n')
    assert main(["grade", str(MISSING_TIE), str(thermo)]) == 2
    assert "model different puzzles" in capsys.readouterr().err


def test_what_a_file_declares_is_read_not_run(tmp_path):
    bomb = tmp_path / "bomb.py"
    bomb.write_text('raise SystemExit("ran")\nPUZZLE = "Aquarium"\n')
    assert declared_puzzle(str(bomb)) == ("aquarium", None)
    plain = tmp_path / "plain.py"
    plain.write_text('"""Thermometers, unlike an aquarium, fill from the bulb."""\n')
    assert declared_puzzle(str(plain)) == (None, None)  # both named: no guess
    (tmp_path / "broken.py").write_text("def (:\n")
    assert declared_puzzle(str(tmp_path / "broken.py")) == (None, None)
