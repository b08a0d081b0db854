"""DP, MILP (every backend, both formulations) and brute force agree on random boards."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp import load
from thermomilp.core.errors import ConfigError
from thermomilp.logic.aquarium_dp import Line, WaterlineDP, dp_count, dp_solutions, filter_line
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.model import build_model
from thermomilp.model.compact import compact_from
from thermomilp.model.formulation import formulate
from thermomilp.solving import enumerate_solutions, solve

from aquarium_boards import public_6x6, random_board
from helpers import ROOT

LIMIT = 30


def boards(n: int, seed: int) -> list:
    rng = random.Random(seed)
    return [random_board(rng, max_side=6, missing=(0.0 if k % 2 == 0 else 0.35))
            for k in range(n)]


BOARDS = boards(200, 2026)


def test_the_random_boards_cover_the_cases():
    counts = [len(set(brute_force_solutions(p, LIMIT))) for p in BOARDS]
    assert any(c == 1 for c in counts) and any(c > 1 for c in counts)
    assert any(None in p.rows + p.cols for p in BOARDS)
    assert max(p.height for p in BOARDS) == 6 and max(p.width for p in BOARDS) == 6


def test_dp_agrees_with_brute_force_on_200_boards():
    for puzzle in BOARDS:
        brute = set(brute_force_solutions(puzzle, LIMIT))
        dp = set(dp_solutions(puzzle, LIMIT))
        if len(brute) < LIMIT:
            assert dp == brute, puzzle
        else:
            assert len(dp) == LIMIT


@pytest.mark.parametrize("formulation", ["cell", "compact"])
def test_highs_milp_agrees_on_200_boards(formulation):
    for puzzle in BOARDS:
        brute = set(brute_force_solutions(puzzle, LIMIT))
        milp = set(enumerate_solutions(puzzle, LIMIT, backend="highs", formulation=formulation))
        if len(brute) < LIMIT:
            assert milp == brute, puzzle
        else:
            assert len(milp) == LIMIT


@pytest.mark.parametrize("backend", ["pulp", "pyomo"])
@pytest.mark.parametrize("formulation", ["cell", "compact"])
def test_other_backends_agree(backend, formulation):
    for puzzle in BOARDS[:12] + [public_6x6()]:
        expected = set(dp_solutions(puzzle, 6))
        got = set(enumerate_solutions(puzzle, 6, backend=backend, formulation=formulation))
        assert got == expected


@pytest.mark.parametrize("backend", ["highs", "pulp", "pyomo"])
def test_compact_and_cell_agree_on_thermometers(backend):
    for name in ("t03_6x6", "t07_5x5_two_solutions", "t08_4x4_no_solution"):
        puzzle = load(ROOT / "instances" / "thermometers" / f"{name}.txt")
        cell = solve(puzzle, backend=backend, formulation="cell")
        compact = solve(puzzle, backend=backend, formulation="compact")
        assert (cell.status, cell.grid) == (compact.status, compact.grid) or (
            cell.status == compact.status == "multiple")
        assert set(enumerate_solutions(puzzle, 5, backend=backend, formulation="compact")) == set(
            brute_force_solutions(puzzle, 5))


def test_compact_model_has_one_variable_per_tank_row():
    puzzle = public_6x6()
    compact = compact_from(formulate(puzzle))
    assert compact.n_vars == sum(v.depth for v in puzzle.vessels)
    assert {frozenset(layer) for layer in compact.layers} == {
        frozenset(layer) for v in puzzle.vessels for layer in v.layers}
    # (1') row 0 of the public board: tanks 1, 2, 3 with 2 cells each in that row
    assert sorted(w for _, w in compact.row_terms[0]) == [2, 2, 2]
    h = build_model(puzzle, "highs", formulation="compact").model
    assert h.getNumCol() == compact.n_vars
    assert h.getNumRow() == 12 + len(compact.chains)
    prob, _ = build_model(puzzle, "pulp", formulation="compact")
    assert len(prob.variables()) == compact.n_vars
    m = build_model(puzzle, "pyomo", formulation="compact").model
    assert len(m.y) == compact.n_vars
    with pytest.raises(ConfigError, match="formulation"):
        build_model(puzzle, "highs", formulation="tight")


def test_compact_respects_presolve_fixings():
    puzzle = public_6x6()
    form = formulate(puzzle, fixed={(0, 0): 1, (0, 5): 0})
    compact = compact_from(form)
    assert set(compact.fixed.values()) == {0, 1}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=4), min_size=1, max_size=5),
       st.integers(0, 12), st.data())
def test_filter_line_is_exact(contributions, clue, data):
    """A level survives iff some choice of the other vessels' levels completes the sum."""
    # vessel v at level L contributes the running sum of contributions[v][:L]
    sums = [[sum(c[:level]) for level in range(len(c) + 1)] for c in contributions]
    domains = [data.draw(st.integers(1, (1 << len(s)) - 1)) for s in sums]
    groups = []
    for s in sums:
        by_w: dict[int, int] = {}
        for level, w in enumerate(s):
            by_w[w] = by_w.get(w, 0) | (1 << level)
        groups.append(tuple(sorted(by_w.items())))
    line = Line("row", 0, clue, tuple(range(len(sums))), tuple(groups))
    kept = filter_line(line, list(domains))

    import itertools
    choices = [[L for L in range(len(s)) if domains[v] >> L & 1] for v, s in enumerate(sums)]
    support = [0] * len(sums)
    for combo in itertools.product(*choices):
        if sum(sums[v][L] for v, L in enumerate(combo)) == clue:
            for v, L in enumerate(combo):
                support[v] |= 1 << L
    if not any(support):
        assert kept is None
    else:
        assert kept == support


def test_dp_count_proves_uniqueness_of_the_public_board():
    assert dp_count(public_6x6(), 2) == 1
    dp = WaterlineDP(public_6x6())
    domains = dp.full_domains()
    assert dp.propagate(domains)
    # the line filters alone (no branching) solve the public board
    assert all(d & (d - 1) == 0 for d in domains)


@pytest.mark.parametrize("probing", ["none", "root", "all"])
def test_probing_never_changes_the_solutions(probing, monkeypatch):
    from thermomilp.logic import aquarium_dp

    monkeypatch.setattr(aquarium_dp, "AUTO_PROBE_NODES", 3)  # make "auto" switch over too
    for puzzle in BOARDS[:80]:
        auto = set(WaterlineDP(puzzle).level_solutions(LIMIT))
        other = set(WaterlineDP(puzzle).level_solutions(LIMIT, probing=probing))
        if len(auto) < LIMIT:
            assert other == auto
