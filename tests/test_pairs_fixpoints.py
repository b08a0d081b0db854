"""Pair probing from remembered fixpoints (thermomilp.logic.pairs._Fixpoints, the grade's
pair sweep): the same answers as the textbook test :func:`pair_refutation`, so the same
fixpoint and the same grade, for far fewer line revisions on a large board.

The reference below is the sweep as it was written before (every pair test propagated
from scratch with ``pair_refutation``); it shares only interval propagation and probing
with the code under test.
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import thermomilp
import thermomilp.logic.propagation as propagation
from thermomilp.core.puzzle import levels_from_grid
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.domains import full_domains, is_decided, levels_in, line_tables
from thermomilp.logic.pairs import _Fixpoints, pair_fixpoint, pair_refutation
from thermomilp.logic.propagation import probe_fixpoint, propagate, sweep

ROOT = Path(__file__).resolve().parent.parent
HARD = ROOT / "instances" / "thermometers" / "generated" / "g14_15x15_hard.txt"
WIDE = ROOT / "tests" / "data" / "pairs_wide_15x15.json"


def reference_pair_fixpoint(tables, dom, known=None) -> bool:
    def tier(wide: bool) -> bool:
        return sweep(dom, lambda v, level: pair_refutation(tables, dom, v, level, wide)
                     is not None,
                     lambda v: (propagate(tables, dom, tables.vessel_lines[v])
                                and probe_fixpoint(tables, dom, None, known)
                                and (not wide or tier(False))),
                     None, known)

    if not probe_fixpoint(tables, dom, None, known) or not tier(False):
        return False
    return is_decided(dom) or tier(True)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 8), st.floats(0.0, 0.5), st.booleans())
def test_the_same_fixpoint_as_the_reference(seed, n, missing, with_known):
    puzzle = planted_board(n, n, random.Random(seed), missing=missing)
    tables = line_tables(puzzle)
    known = ([1 << level for level in levels_from_grid(puzzle, puzzle.solution)]
             if with_known else None)
    fast, slow = full_domains(tables), full_domains(tables)
    assert pair_fixpoint(tables, fast, known=known) == reference_pair_fixpoint(tables, slow,
                                                                               known)
    assert fast == slow


def test_the_same_fixpoint_on_the_shipped_hard_boards():
    for path in (HARD, WIDE):
        tables = line_tables(thermomilp.load(path))
        fast, slow = full_domains(tables), full_domains(tables)
        assert pair_fixpoint(tables, fast) and reference_pair_fixpoint(tables, slow)
        assert fast == slow and is_decided(fast)


def test_every_pair_test_agrees_with_pair_refutation_while_the_domain_shrinks():
    # the remembered fixpoints are brought up to date as the domain loses levels: after
    # each step (a vessel fixed at its solution level, propagated) every test of every
    # open level, both tiers, must give pair_refutation's answer
    puzzle = thermomilp.load(WIDE)
    tables = line_tables(puzzle)
    dom = full_domains(tables)
    assert probe_fixpoint(tables, dom) and not is_decided(dom)
    levels = levels_from_grid(puzzle, puzzle.solution)
    fx = _Fixpoints(tables, dom)
    fx.settle()
    open_vessels = [v for v, m in enumerate(dom) if m & (m - 1)]
    random.Random(3).shuffle(open_vessels)
    refuted = 0
    for step in range(4):
        for v, m in enumerate(dom):
            if not m & (m - 1):
                continue
            for level in levels_in(m):
                for wide in (False, True):
                    expected = pair_refutation(tables, dom, v, level, wide) is not None
                    assert fx.pair_refuted(v, level, wide) == expected, (step, v, level, wide)
                    refuted += expected
        v = open_vessels[step]
        dom[v] = 1 << levels[v]
        assert propagate(tables, dom)
        fx.settle()
    assert refuted  # the board has pair refutations: both answers were exercised


def test_fewer_line_revisions_than_the_reference(monkeypatch):
    # a 24x24 board that needs search (the old sweep propagated every pair from scratch:
    # the reference's count); on generated 50x50 boards the gain is 3-5x, too slow for here
    puzzle = planted_board(24, 24, random.Random(5), missing=0.45)
    tables = line_tables(puzzle)
    counted = [0]
    revise = propagation.revise_line

    def counting(*args):
        counted[0] += 1
        return revise(*args)

    def revisions():  # the Python kernel's, counted here, and the compiled kernel's
        return counted[0] + propagation.revisions()

    monkeypatch.setattr(propagation, "revise_line", counting)
    fast, slow = full_domains(tables), full_domains(tables)
    before = revisions()
    pair_fixpoint(tables, fast)
    mine, before = revisions() - before, revisions()
    reference_pair_fixpoint(tables, slow)
    assert fast == slow
    assert not is_decided(fast)
    theirs = revisions() - before
    assert mine * 4 < theirs * 3, (mine, theirs)


def test_generated_hard_boards_keep_their_grade_and_are_unique():
    # the generator grades with the fast sweep and the known solution; from scratch, the
    # reference sweep gives the same grade, and two counters independent of each other (the
    # logic search and the MILP) find one solution
    from thermomilp.generate.thermometers_gen import generate_thermometers
    from thermomilp.logic.grade import GRADE_TO_DIFFICULTY
    from thermomilp.logic.search import search_count
    from thermomilp.solving import count_solutions

    for index in (1,):  # a board of grade pairs in a few seconds (board 0: search, 30 s)
        g = generate_thermometers(15, 15, "pairs-fast", index=index, difficulty="hard")
        puzzle = g.puzzle
        assert g.grade == puzzle.grade and GRADE_TO_DIFFICULTY[g.grade] == "hard"
        tables = line_tables(puzzle)
        dom = full_domains(tables)
        assert probe_fixpoint(tables, dom) and not is_decided(dom)  # not probing
        assert reference_pair_fixpoint(tables, dom)
        assert ("pairs" if is_decided(dom) else "search") == g.grade
        assert search_count(puzzle, "probing", 2) == 1
        assert count_solutions(puzzle, 2) == 1
