"""Infeasibility explained: the conflict is infeasible and irreducible, checked independently."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from thermomilp.cli.main import main
from thermomilp.formats import load
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.brute import brute_force_count
from thermomilp.solving import solve
from thermomilp.solving.conflict import describe, find_conflict, parts_of, restrict

from helpers import INSTANCES, random_aquarium

NO_SOLUTION = INSTANCES / "thermometers" / "t08_4x4_no_solution.txt"


def assert_irreducible_conflict(puzzle, conflict):
    """Checked with the brute-force counter, which shares no code with the MILP."""
    assert conflict, "an infeasible board must name at least one part"
    assert set(conflict) <= set(parts_of(puzzle))
    assert brute_force_count(restrict(puzzle, conflict), 1) == 0
    for part in conflict:
        rest = [p for p in conflict if p != part]
        assert brute_force_count(restrict(puzzle, rest), 1) == 1, f"{part} is not needed"


def broken(puzzle, rng):
    """Change one clue of a planted board by one; keep it if that breaks the board."""
    rows, cols = list(puzzle.rows), list(puzzle.cols)
    line = rows if rng.random() < 0.5 else cols
    k = rng.randrange(len(line))
    size = len(cols) if line is rows else len(rows)
    line[k] = line[k] + 1 if line[k] < size else line[k] - 1
    return puzzle.with_clues(rows, cols)


def test_instance_without_solution_is_explained():
    puzzle = load(NO_SOLUTION)
    conflict = find_conflict(puzzle)
    assert_irreducible_conflict(puzzle, conflict)
    # rows add to 8 and columns to 7: the counting argument needs every line and no thermometer
    assert {p.kind for p in conflict} == {"row", "column"}


def test_feasible_board_has_no_conflict():
    assert find_conflict(load(INSTANCES / "thermometers" / "t01_4x4.txt")) is None


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_random_broken_thermometers_boards(seed):
    rng = random.Random(seed)
    puzzle = broken(planted_board(4, 5, rng, max_length=4), rng)
    assume(solve(puzzle, unique=False).status == "infeasible")  # else nothing to explain
    assert_irreducible_conflict(puzzle, find_conflict(puzzle))


def test_random_broken_aquarium_boards():
    rng = random.Random(5)
    explained = 0
    while explained < 4:
        puzzle = broken(random_aquarium(4, 4, rng), rng)
        if solve(puzzle, unique=False).status == "infeasible":
            assert_irreducible_conflict(puzzle, find_conflict(puzzle))
            explained += 1


def test_some_conflict_needs_a_thermometer():
    """A board whose clues add up but whose thermometers forbid them: the IIS names one."""
    rng = random.Random(7)
    found = False
    for _ in range(60):
        puzzle = planted_board(4, 4, rng, max_length=4)
        rows, cols = list(puzzle.rows), list(puzzle.cols)
        i, j = rng.randrange(4), rng.randrange(4)
        a, b = rng.randrange(4), rng.randrange(4)
        if rows[i] < 4 and rows[a] > 0 and cols[j] < 4 and cols[b] > 0 and i != a and j != b:
            rows[i], rows[a], cols[j], cols[b] = rows[i] + 1, rows[a] - 1, cols[j] + 1, cols[b] - 1
            candidate = puzzle.with_clues(rows, cols)
            if solve(candidate, unique=False).status == "infeasible":
                conflict = find_conflict(candidate)
                assert_irreducible_conflict(candidate, conflict)
                if any(p.kind == "thermometer" for p in conflict):
                    found = True
                    break
    assert found


def test_cli_text_and_json_name_the_conflict(capsys):
    assert main(["solve", str(NO_SOLUTION)]) == 1
    text = capsys.readouterr().out
    # the text counts from 1, the JSON index from 0
    assert "conflict: row 1 (clue 3)" in text and "cannot all hold" in text
    assert main(["solve", str(NO_SOLUTION), "--format", "json"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "infeasible"
    assert record["conflict"]["text"] == describe(find_conflict(load(NO_SOLUTION)))
    assert {"kind": "row", "index": 0, "clue": 3} in record["conflict"]["parts"]


def test_conflict_field_only_when_infeasible(capsys):
    assert main(["solve", str(INSTANCES / "thermometers" / "t01_4x4.txt"), "--format", "json"]) == 0
    assert "conflict" not in json.loads(capsys.readouterr().out)
