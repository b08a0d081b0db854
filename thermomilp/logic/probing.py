"""Probing (singleton consistency over interval propagation).

For every vessel ``v`` and every level ``L`` still in its domain: assume
``v = L``, run interval propagation to its fixpoint, and erase ``L`` if that
reaches a contradiction. Erasures may punch holes in a domain (the interval
propagator then reads only the lowest and highest survivor). Sweep until a
whole pass erases nothing.

Every erasure is sound (a level leading to a contradiction is in no
solution) and the test is monotone (smaller domains refute at least as
much), so the order of probes does not change the fixpoint.
"""

from __future__ import annotations

from typing import Callable

from thermomilp.core.deadline import TimeUp
from thermomilp.logic.domains import Domains, LineTables, levels_in
from thermomilp.logic.intervals import propagate


def refuted(tables: LineTables, dom: Domains, v: int, level: int) -> bool:
    """True if assuming ``v = level`` makes interval propagation fail."""
    trial = dom.copy()
    trial[v] = 1 << level
    return not propagate(tables, trial, tables.vessel_lines[v])


def sweep(dom: Domains, refutes: Callable[[int, int], bool],
          settle: Callable[[int], bool], stop: Callable[[], bool] | None = None) -> bool:
    """Erase every open level ``refutes(v, level)`` condemns, vessel by vessel, until a
    pass erases nothing; ``settle(v)`` propagates after ``v`` lost levels. False on a
    contradiction (a domain emptied, or ``settle`` failed). ``stop`` (optional) is
    asked before each vessel; when it says so, :class:`thermomilp.core.deadline.TimeUp`
    is raised (``dom`` then holds sound but partial deductions)."""
    progress = True
    while progress:
        progress = False
        for v in range(len(dom)):
            if stop is not None and stop():
                raise TimeUp("probing stopped at its deadline")
            m = dom[v]
            if not m & (m - 1):
                continue
            for level in levels_in(m):
                if refutes(v, level):
                    dom[v] &= ~(1 << level)
            if dom[v] != m:
                progress = True
                if not dom[v] or not settle(v):
                    return False
    return True


def probe_fixpoint(tables: LineTables, dom: Domains,
                   stop: Callable[[], bool] | None = None) -> bool:
    """Interval fixpoint plus probing, in place; False when the board has no solution.

    ``stop``: see :func:`sweep` (raises TimeUp at the deadline)."""
    if not propagate(tables, dom):
        return False
    return sweep(dom, lambda v, level: refuted(tables, dom, v, level),
                 lambda v: propagate(tables, dom, tables.vessel_lines[v]), stop)
