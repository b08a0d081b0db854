"""thermomilp analyze: sizes match the built models; LP-decided cells agree with every solution."""

from __future__ import annotations

import json
import random

import pytest

from thermomilp.cli.main import main
from thermomilp.formats import load
from thermomilp.generate.random_board import planted_board
from thermomilp.model.formulation import formulate
from thermomilp.solving import enumerate_solutions
from thermomilp.teach.analyze import analyze, cell_model_size, level_model_size, lp_relaxation

from helpers import INSTANCES, random_aquarium

FILES = sorted((INSTANCES / "thermometers").glob("*.txt"))


def pulp_size(prob):
    cons = prob.constraints()
    return len(prob.variables()), len(cons), sum(len(c) for c in cons)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_sizes_match_the_built_models(path):
    from thermomilp.model.level_pulp import build_level_pulp
    from thermomilp.model.pulp_model import build_pulp

    puzzle = load(path)
    cell = cell_model_size(puzzle)
    assert ((cell.variables, cell.constraints, cell.nonzeros)
            == pulp_size(build_pulp(formulate(puzzle))[0]))
    level = level_model_size(puzzle)
    assert ((level.variables, level.constraints, level.nonzeros)
            == pulp_size(build_level_pulp(puzzle)[0]))


def lp_decided_cells(puzzle):
    """Cells the LP decides, recomputed here with PuLP (min and max of each x)."""
    import pulp

    from thermomilp.model.pulp_model import build_pulp

    prob, x = build_pulp(formulate(puzzle))
    for var in prob.variables():
        var.cat = pulp.LpContinuous
    decided = {}
    for cell, var in x.items():
        values = []
        for sense in (pulp.LpMinimize, pulp.LpMaximize):
            prob.sense = sense
            prob.setObjective(var)
            prob.solve(pulp.HiGHS(msg=False))
            values.append(var.value())
        if abs(values[0] - values[1]) < 1e-6:
            decided[cell] = round(values[0])
    return decided


@pytest.mark.parametrize("seed", range(4))
def test_lp_decided_cells_agree_with_every_solution(seed):
    rng = random.Random(seed)
    puzzle = (planted_board(5, 5, rng, max_length=4, missing=0.2) if seed % 2 == 0
              else random_aquarium(4, 5, rng))
    lp = lp_relaxation(puzzle)
    decided = lp_decided_cells(puzzle)
    assert lp.feasible and lp.decided_cells == len(decided)
    assert lp.decided_filled == sum(decided.values())
    for grid in enumerate_solutions(puzzle, limit=20):
        for (r, c), value in decided.items():
            assert (grid[r][c] == "#") == bool(value)


def test_analysis_of_instances():
    unique = analyze(load(INSTANCES / "thermometers" / "t03_6x6.txt"))
    assert unique.solutions == 1 and unique.lp.feasible
    two = analyze(load(INSTANCES / "thermometers" / "t07_5x5_two_solutions.txt"), solution_cap=5)
    assert two.solutions == 2
    none = analyze(load(INSTANCES / "thermometers" / "t08_4x4_no_solution.txt"))
    assert none.solutions == 0 and not none.lp.feasible


def test_cli_analyze_text_and_json(capsys):
    path = str(INSTANCES / "thermometers" / "t01_4x4.txt")
    assert main(["analyze", path]) == 0
    text = capsys.readouterr().out
    assert "cell (0)-(4)" in text and "level (L0)-(L4)" in text and "solutions: 1" in text
    assert main(["analyze", path, "--format", "json", "--max-solutions", "3"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["solutions"] == 1 and record["solution_cap"] == 3
    assert record["sizes"][0]["variables"] == 16
    assert main(["analyze", path, "--max-solutions", "0"]) == 2


def test_logic_lines_count_cells_the_presolve_fixes_and_they_agree_with_the_solution():
    from thermomilp.logic.presolve import presolve_cells
    from thermomilp.teach.analyze import logic_fixed

    puzzle = load(INSTANCES / "thermometers" / "t04_6x6_missing.txt")
    counts = logic_fixed(puzzle)
    assert set(counts) == {"intervals", "probing"}
    grid = puzzle.solution or next(enumerate_solutions(puzzle, limit=1))
    for mode, count in counts.items():
        fixed, _, status = presolve_cells(puzzle, mode)
        assert status != "infeasible" and count == len(fixed)
        assert all((grid[r][c] == "#") == bool(v) for (r, c), v in fixed.items())
    assert counts["probing"] >= counts["intervals"]
    none = analyze(load(INSTANCES / "thermometers" / "t08_4x4_no_solution.txt"))
    assert none.logic["intervals"] == "proves the board infeasible"


def test_cli_analyze_gives_every_file_a_record_and_goes_on(capsys, tmp_path, monkeypatch):
    """An unreadable file gets the record solve and check give it (exit 2), a board the
    clock stops a record with its status (exit 1), and the next file is analysed."""
    from thermomilp.core.errors import SolveError
    from thermomilp.teach import analyze as module

    good = str(INSTANCES / "thermometers" / "t01_4x4.txt")
    bad = tmp_path / "bad.txt"
    bad.write_text("not a puzzle\n")
    assert main(["analyze", str(bad), good, "--format", "json"]) == 2
    out = capsys.readouterr()
    first, second = (json.loads(line) for line in out.out.splitlines())
    assert first["file"] == str(bad) and first["status"] == "error" and first["error"]
    assert second["file"] == good and second["solutions"] == 1
    assert "bad.txt" in out.err

    real = module.analyze

    def stopped(puzzle, *args, **kwargs):
        if puzzle.height == 4:
            raise SolveError("the time limit was reached in the LP relaxation", "timeout")
        return real(puzzle, *args, **kwargs)

    monkeypatch.setattr(module, "analyze", stopped)
    other = str(INSTANCES / "thermometers" / "t02_5x5.txt")
    assert main(["analyze", good, other, "--format", "json"]) == 1
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first == {"file": good, "status": "timeout",
                     "error": "the time limit was reached in the LP relaxation"}
    assert second["file"] == other and second["solutions"] == 1
