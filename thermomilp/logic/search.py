"""Backtracking search over levels under a chosen propagator.

``search_solutions(puzzle, rule)`` propagates with ``rule`` (``intervals``,
``gac`` or ``probing``), and when the board is not decided branches on the
undecided vessel with the fewest levels left, trying each level in turn.
A leaf with every vessel decided is a solution: each propagator checks that
every clued line sums exactly to its clue once all contributions are fixed.
Three counters from three propagators, plus the brute force and the MILP,
must agree (``tests/test_logic_agreement.py``).
"""

from __future__ import annotations

from typing import Callable, Iterator, Mapping

from thermomilp.core.puzzle import Cell, Grid, Puzzle
from thermomilp.logic.domains import (
    Domains,
    LineTables,
    clamp_with_marks,
    full_domains,
    grid_of,
    levels_in,
    line_tables,
)
from thermomilp.logic.gac import gac_fixpoint
from thermomilp.logic.intervals import propagate
from thermomilp.logic.probing import probe_fixpoint

RULES = ("intervals", "gac", "probing")


def _propagator(puzzle: Puzzle, tables: LineTables, rule: str) -> Callable[[Domains], bool]:
    if rule == "intervals":
        return lambda dom: propagate(tables, dom)
    if rule == "gac":
        return lambda dom: gac_fixpoint(puzzle, dom)
    if rule == "probing":
        return lambda dom: probe_fixpoint(tables, dom)
    raise ValueError(f"unknown rule {rule!r}; use one of {', '.join(RULES)}")


def search_solutions(puzzle: Puzzle, rule: str = "intervals", limit: int | None = None,
                     marks: Mapping[Cell, int] | None = None) -> Iterator[Grid]:
    """Yield every solution (at most ``limit``) by propagate-and-branch."""
    tables = line_tables(puzzle)
    run = _propagator(puzzle, tables, rule)
    dom = full_domains(tables)
    if marks and not clamp_with_marks(tables, dom, marks):
        return
    found = 0

    def rec(dom: Domains) -> Iterator[Grid]:
        nonlocal found
        if not run(dom):
            return
        open_vessels = [v for v, m in enumerate(dom) if m & (m - 1)]
        if not open_vessels:
            found += 1
            yield grid_of(tables, dom)
            return
        v = min(open_vessels, key=lambda u: bin(dom[u]).count("1"))
        for level in levels_in(dom[v]):
            if limit is not None and found >= limit:
                return
            child = dom.copy()
            child[v] = 1 << level
            yield from rec(child)

    if limit is None or limit > 0:
        yield from rec(dom)


def search_count(puzzle: Puzzle, rule: str = "intervals", limit: int | None = None) -> int:
    return sum(1 for _ in search_solutions(puzzle, rule, limit))
