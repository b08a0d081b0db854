"""The per-line flow formulation of benchmarks/line_flow.py, checked before its
measurements are believed (docs/performance.md records them).

* Same solutions: the cell model plus the flow rows, enumerated by HiGHS with
  no-good cuts, has exactly the brute-force solution set -- small random
  boards of both puzzles, some clues missing or shifted (so boards with no,
  one and many solutions all occur).
* At least as strong as interval reasoning: with the same cells marked, a
  cell the interval propagation fixes is fixed in the LP relaxation too
  (fixing it the other way makes the LP infeasible), and a contradiction of
  the propagation is an infeasible LP.
"""

from __future__ import annotations

import importlib.util
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thermomilp.core.puzzle import Puzzle
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.logic.domains import (
    UNKNOWN,
    cell_states,
    clamp_with_marks,
    full_domains,
    line_tables,
)
from thermomilp.logic.propagation import propagate

from helpers import ROOT, random_aquarium

highspy = pytest.importorskip("highspy")

_spec = importlib.util.spec_from_file_location("line_flow", ROOT / "benchmarks" / "line_flow.py")
line_flow = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(line_flow)  # type: ignore[union-attr]

LIMIT = 30


def _board(seed: int, aquarium: bool, size: int, missing: float, shift: bool) -> Puzzle:
    rng = random.Random(seed)
    if aquarium:
        puzzle = random_aquarium(size, rng.randint(2, size), rng)
    else:
        puzzle = planted_board(size, rng.randint(2, size), rng)
    rows = [None if rng.random() < missing else v for v in puzzle.rows]
    cols = [None if rng.random() < missing else v for v in puzzle.cols]
    if shift:  # a clue off by one: often no solution at all
        k = rng.randrange(len(rows))
        if rows[k] is not None:
            rows[k] = max(0, min(puzzle.width, rows[k] + rng.choice((-1, 1))))
    return puzzle.with_clues(rows, cols).with_solution(None)


def _grid(puzzle: Puzzle, x) -> tuple[str, ...]:
    W = puzzle.width
    return tuple("".join("#" if x[r * W + c] > 0.5 else "." for c in range(W))
                 for r in range(puzzle.height))


def _flow_solutions(puzzle: Puzzle, limit: int) -> set[tuple[str, ...]]:
    from thermomilp.model.highs_model import nogood_row

    h, n = line_flow.build(puzzle, flow=True)
    found: set[tuple[str, ...]] = set()
    while len(found) < limit:
        h.setOptionValue("presolve", "off")  # HiGHS 1.16's presolve has said "infeasible" wrongly
        h.run()
        status = h.modelStatusToString(h.getModelStatus())
        if status == "Infeasible":
            break
        assert status == "Optimal", status
        x = np.asarray(h.getSolution().col_value)[:n]
        grid = _grid(puzzle, x)
        assert grid not in found
        found.add(grid)
        on = [k for k in range(n) if x[k] > 0.5]
        lower, cols, values = nogood_row(n, on)
        h.addRow(lower, np.inf, cols.size, cols, values)
    return found


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), aquarium=st.booleans(), size=st.integers(2, 5),
       missing=st.sampled_from([0.0, 0.2, 0.5]), shift=st.booleans())
def test_flow_model_keeps_exactly_the_solutions(seed, aquarium, size, missing, shift):
    puzzle = _board(seed, aquarium, size, missing, shift)
    expected = set(brute_force_solutions(puzzle, limit=LIMIT + 1))
    got = _flow_solutions(puzzle, LIMIT + 1)
    if len(expected) <= LIMIT:
        assert got == expected
    else:
        assert len(got) == LIMIT + 1 and got <= set(brute_force_solutions(puzzle))


def _lp_feasible(puzzle: Puzzle, bounds: dict) -> bool:
    h, _ = line_flow.build(puzzle, flow=True, cells_integer=False)
    W = puzzle.width
    for (r, c), value in bounds.items():
        h.changeColBounds(r * W + c, float(value), float(value))
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    assert status in ("Optimal", "Infeasible"), status
    return status == "Optimal"


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), aquarium=st.booleans(), size=st.integers(2, 6),
       missing=st.sampled_from([0.0, 0.3]), marks=st.sampled_from([0, 2, 5]),
       shift=st.booleans())
def test_lp_fixes_every_cell_interval_reasoning_fixes(seed, aquarium, size, missing, marks,
                                                      shift):
    puzzle = _board(seed, aquarium, size, missing, shift)
    rng = random.Random(seed + 1)
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    marked = {cell: rng.randint(0, 1) for cell in rng.sample(cells, min(marks, len(cells)))}
    tables = line_tables(puzzle)
    dom = full_domains(tables)
    consistent = clamp_with_marks(tables, dom, marked) and propagate(tables, dom)
    if not consistent:
        assert not _lp_feasible(puzzle, marked)
        return
    assert _lp_feasible(puzzle, marked)
    for cell, state in cell_states(tables, dom).items():
        if state != UNKNOWN and cell not in marked:
            assert not _lp_feasible(puzzle, {**marked, cell: 1 - state}), cell
