"""``thermomilp generate`` and ``thermomilp check`` as an author uses them."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from thermomilp.cli.main import main
from thermomilp.formats import load
from thermomilp.logic.brute import brute_force_count

INSTANCES = Path(__file__).resolve().parent.parent / "instances" / "thermometers"


def test_generate_writes_graded_unique_boards(tmp_path, capsys):
    out = tmp_path / "boards"
    code = main(["generate", "--size", "5x6", "--count", "3", "--seed", "7", "--straight",
                 "--out", str(out)])
    assert code == 0
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"therm_5x6_s7_00{i}.txt" for i in range(3)]
    for f in files:
        p = load(str(f))
        assert p.shape == (5, 6) and p.grade in ("intervals", "probing", "search")
        assert brute_force_count(p, 2) == 1
    assert "3/3" in capsys.readouterr().err  # the progress bar


def test_generate_is_reproducible_from_the_seed(tmp_path):
    for name in ("a", "b"):
        assert main(["generate", "--size", "6x6", "--count", "2", "--seed", "11",
                     "--missing-clues", "2", "--quiet", "--out", str(tmp_path / name)]) == 0
    for fa, fb in zip(sorted((tmp_path / "a").iterdir()), sorted((tmp_path / "b").iterdir())):
        assert fa.read_text() == fb.read_text()
        assert (load(str(fa)).rows + load(str(fa)).cols).count(None) == 2


def test_generate_bad_size_is_a_usage_error(tmp_path, capsys):
    assert main(["generate", "--size", "15", "--out", str(tmp_path)]) == 2
    assert "15x15" in capsys.readouterr().err


def test_generate_aquarium_is_clear_when_unavailable(tmp_path, capsys):
    code = main(["generate", "--puzzle", "aquarium", "--size", "5x5", "--quiet",
                 "--out", str(tmp_path)])
    if importlib.util.find_spec("thermomilp.generate.aquarium_gen") is None:
        assert code == 2
        assert "not available" in capsys.readouterr().err
    else:
        assert code == 0
        (board,) = tmp_path.iterdir()
        assert load(str(board)).kind == "aquarium"


def test_check_reports_json_lines_and_exit_codes(capsys):
    unique = str(INSTANCES / "t01_4x4.txt")
    twice = str(INSTANCES / "t07_5x5_two_solutions.txt")
    assert main(["check", "--format", "json", unique]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unique" and record["solutions"] == 1
    assert record["grade"] in ("intervals", "probing", "search") and record["second"] is None
    assert main(["check", "--format", "json", "--limit", "5", unique, twice]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in lines] == ["unique", "multiple"]
    second = lines[1]
    assert second["solutions"] == 2 and not second["capped"]
    puzzle = load(twice)
    from thermomilp.verify import solution_problems

    assert solution_problems(puzzle, second["second"]) == []


def test_check_text_shows_the_second_solution(capsys):
    assert main(["check", str(INSTANCES / "t07_5x5_two_solutions.txt")]) == 1
    out = capsys.readouterr().out
    assert "multiple" in out and "second solution" in out


def test_check_bad_file_is_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("thermometers 2x2\n 1 1\n1 > o\n")
    assert main(["check", str(bad)]) == 2


def test_generated_instances_have_their_recorded_grade():
    from thermomilp.logic.grade import grade

    generated = [p for p in sorted(INSTANCES.glob("*.txt")) if load(str(p)).grade]
    assert len(generated) >= 6
    for path in generated:
        p = load(str(path))
        assert grade(p) == p.grade, path.name
