"""Pair probing: the step between probing and search.

Single probing (``probing.py``) assumes one level of one vessel and lets
interval propagation look for a contradiction. When that is stuck, **pair
probing** looks one step further, but only along pairs that can interact:

    assume ``v = a`` and propagate; then, for a *partner* vessel ``w`` --
    one whose domain the assumption shrank -- assume each level ``b`` still
    open for ``w`` and propagate again. If **every** level of ``w`` breaks
    some line, ``w`` could stand nowhere, so ``v = a`` is impossible and ``a``
    is erased.

That is a refutation by the pairs ``(v = a, w = b)`` for all ``b``: a chain a
person can follow ("if thermometer 7 stood at level 2, thermometer 3 could
stand at no level: level 0 breaks row 2, level 1 breaks column 4"). Each
erasure is sound (every completion of ``v = a`` puts ``w`` at some level,
and each of them contradicts), and the test is monotone, so the fixpoint
does not depend on the order.

Cost: pairs are quadratic, so partners are restricted to the vessels that
``v = a`` changed (a chain of lines links them to ``v``), and pair probing
runs only after single probing is stuck; after every erasure the cheap rules
run again. Also taking every vessel on a line with ``v`` as a partner cost
15-30x more on planted 20x20 and 30x30 boards (one run, docs/logic.md) and
erased one level more on one board of five, finishing none more.
"""

from __future__ import annotations

from dataclasses import dataclass

from thermomilp.logic.domains import Domains, LineTables, levels_in
from thermomilp.logic.intervals import OK, propagate, propagate_conflict
from thermomilp.logic.probing import probe_fixpoint, sweep


@dataclass(frozen=True)
class PairRefutation:
    """Why ``vessel = level`` is impossible: ``partner`` breaks at every level.

    ``breaks`` lists, per level ``b`` of the partner left open after
    ``vessel = level`` propagated, the clued line (number, as in
    :class:`LineTables`) that ``partner = b`` breaks.
    """

    vessel: int
    level: int
    partner: int
    breaks: tuple[tuple[int, int], ...]


def partners(dom: Domains, trial: Domains, v: int) -> list[int]:
    """Vessels the assumption on ``v`` shrank and left open: the candidate partners."""
    return [w for w in range(len(dom))
            if w != v and trial[w] != dom[w] and trial[w] & (trial[w] - 1)]


def pair_refutation(tables: LineTables, dom: Domains, v: int, level: int
                    ) -> PairRefutation | None:
    """A partner with no level left once ``v = level`` holds, or None.

    Assumes single probing is stuck (``v = level`` alone propagates fine); if
    it does not, the refutation has no partner (``partner = -1``).
    """
    trial = dom.copy()
    trial[v] = 1 << level
    broken = propagate_conflict(tables, trial, tables.vessel_lines[v])
    if broken != OK:
        return PairRefutation(v, level, -1, ((level, broken),))
    for w in partners(dom, trial, v):
        breaks = []
        for b in levels_in(trial[w]):
            inner = trial.copy()
            inner[w] = 1 << b
            line = propagate_conflict(tables, inner, tables.vessel_lines[w])
            if line == OK:
                break
            breaks.append((b, line))
        else:
            return PairRefutation(v, level, w, tuple(breaks))
    return None


def pair_fixpoint(tables: LineTables, dom: Domains) -> bool:
    """Intervals, probing and pair probing to a fixpoint, in place; False if no solution."""
    if not probe_fixpoint(tables, dom):
        return False
    return sweep(dom, lambda v, level: pair_refutation(tables, dom, v, level) is not None,
                 lambda v: (propagate(tables, dom, tables.vessel_lines[v])
                            and probe_fixpoint(tables, dom)))
