"""Pair probing (thermomilp.logic.pairs): sound, and it finishes boards probing cannot.

Soundness is checked against the brute force (which shares no code with the
propagators): on random boards, whatever pair probing keeps still contains
every solution's levels, and it never calls a board with a solution
contradictory. The shipped 15x15 board that single probing cannot finish is
explained to its recorded solution with the ``pair_probe`` rule.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import thermomilp
from thermomilp.core.puzzle import levels_from_grid
from thermomilp.core.verify import solution_problems
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.logic.domains import full_domains, is_decided, line_tables
from thermomilp.logic.grade import grade
from thermomilp.logic.hints import explain
from thermomilp.logic.pairs import pair_fixpoint, pair_refutation
from thermomilp.logic.propagation import probe_fixpoint
from thermomilp.logic.search import search_solutions

ROOT = Path(__file__).resolve().parent.parent
HARD = ROOT / "instances" / "thermometers" / "generated" / "g14_15x15_hard.txt"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 6), st.floats(0.0, 0.4))
def test_pair_probing_keeps_every_solution(seed, n, missing):
    puzzle = planted_board(n, n, random.Random(seed), missing=missing)
    tables = line_tables(puzzle)
    dom = full_domains(tables)
    ok = pair_fixpoint(tables, dom)
    solutions = list(brute_force_solutions(puzzle, 30))
    assert ok or not solutions
    for grid in solutions:
        for v, level in enumerate(levels_from_grid(puzzle, grid)):
            assert dom[v] >> level & 1, (v, level)


def test_pair_probing_is_stronger_than_probing_on_the_hard_instance():
    puzzle = thermomilp.load(HARD)
    tables = line_tables(puzzle)
    dom = full_domains(tables)
    assert probe_fixpoint(tables, dom) and not is_decided(dom)  # single probing is stuck
    stuck = dom.copy()
    refutations = [pair_refutation(tables, stuck, v, level)
                   for v, m in enumerate(stuck) for level in range(m.bit_length())
                   if m >> level & 1 and m & (m - 1)]
    found = [r for r in refutations if r is not None]
    assert found and all(r.partner >= 0 and r.breaks for r in found)
    assert pair_fixpoint(tables, dom) and is_decided(dom)
    assert grade(puzzle) == "pairs"


def test_explain_finishes_the_hard_instance_with_pair_probes():
    puzzle = thermomilp.load(HARD)
    assert solution_problems(puzzle, puzzle.solution) == []
    assert len(list(search_solutions(puzzle, "probing", 2))) == 1
    e = explain(puzzle)
    assert e.status == "solved"
    assert e.grid == tuple(puzzle.solution)
    pairs = [s for s in e.steps if s.rule == "pair_probe"]
    assert pairs and all("could stand at no level" in s.text for s in pairs)
    for step in e.steps:
        for (r, c), value in step.cells:
            assert (puzzle.solution[r][c] == "#") == bool(value), step


@pytest.mark.parametrize("seed", range(5))
def test_grade_agrees_with_the_logic_finishing(seed):
    # grade "search" exactly when pair probing does not decide the board
    puzzle = planted_board(5, 5, random.Random(seed))
    tables = line_tables(puzzle)
    dom = full_domains(tables)
    finished = not pair_fixpoint(tables, dom) or is_decided(dom)
    assert (grade(puzzle) == "search") == (not finished)


# made by thermomilp generate --size 15x15 --seed 2026 --difficulty hard (board 1)
WIDE = ROOT / "tests" / "data" / "pairs_wide_15x15.json"


def test_the_wide_tier_finishes_a_board_the_narrow_one_leaves_to_search():
    from thermomilp.logic.pairs import _pair_sweep

    puzzle = thermomilp.load(WIDE)
    assert solution_problems(puzzle, puzzle.solution) == []
    assert list(search_solutions(puzzle, "probing", 2)) == [puzzle.solution]
    tables = line_tables(puzzle)
    dom = full_domains(tables)
    assert probe_fixpoint(tables, dom) and _pair_sweep(tables, dom, False)
    assert not is_decided(dom)  # partners changed by the assumption only: stuck
    assert pair_fixpoint(tables, full_domains(tables))
    assert grade(puzzle) == "pairs" == puzzle.grade


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 7), st.floats(0.0, 0.4))
def test_the_cheap_difficulty_agrees_with_the_grade(seed, n, missing):
    from thermomilp.logic.grade import GRADE_TO_DIFFICULTY, difficulty

    puzzle = planted_board(n, n, random.Random(seed), missing=missing)
    assert difficulty(puzzle) == GRADE_TO_DIFFICULTY[grade(puzzle)]


def test_the_cheap_difficulty_on_the_pairs_boards():
    from thermomilp.logic.grade import difficulty

    for path in (HARD, WIDE):
        assert difficulty(thermomilp.load(path)) == "hard"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 7), st.floats(0.0, 0.4))
def test_grade_with_a_known_solution_is_the_same_grade(seed, n, missing):
    # the sweeps skip the known solution's levels: the fixpoint, so the grade, must not move
    puzzle = planted_board(n, n, random.Random(seed), missing=missing)
    assert solution_problems(puzzle, puzzle.solution) == []
    assert grade(puzzle, known=puzzle.solution) == grade(puzzle)
    tables = line_tables(puzzle)
    plain, skipping = full_domains(tables), full_domains(tables)
    known = [1 << level for level in levels_from_grid(puzzle, puzzle.solution)]
    assert pair_fixpoint(tables, plain) == pair_fixpoint(tables, skipping, known=known)
    assert plain == skipping


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 7), st.floats(0.0, 0.4))
def test_probing_sweep_reaches_the_fixpoint_of_whole_passes(seed, n, missing):
    # the sweep stops once every vessel was tested since the last erasure; whole passes
    # until one erases nothing (the textbook loop, written here) must agree with it
    from thermomilp.logic.domains import levels_in
    from thermomilp.logic.propagation import propagate, refuted

    puzzle = planted_board(n, n, random.Random(seed), missing=missing)
    tables = line_tables(puzzle)
    swept, passes = full_domains(tables), full_domains(tables)
    ok = probe_fixpoint(tables, swept)
    ok_passes = propagate(tables, passes)
    progress = ok_passes
    while progress and ok_passes:
        progress = False
        for v in range(len(passes)):
            for level in levels_in(passes[v]):
                if refuted(tables, passes, v, level):
                    passes[v] &= ~(1 << level)
                    progress = True
            if not passes[v] or not propagate(tables, passes):
                ok_passes = False
                break
    assert ok == ok_passes
    if ok:
        assert swept == passes
