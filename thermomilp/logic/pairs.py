"""Pair probing: the step between probing and search.

Single probing (``probing.py``) assumes one level of one vessel and lets
interval propagation look for a contradiction. When that is stuck, **pair
probing** looks one step further, but only along pairs that can interact:

    assume ``v = a`` and propagate; then, for a *partner* vessel ``w`` --
    one whose domain the assumption shrank, or one crossing a line of ``v``
    -- assume each level ``b`` still open for ``w`` and propagate again. If
    **every** level of ``w`` breaks some line, ``w`` could stand nowhere, so
    ``v = a`` is impossible and ``a`` is erased.

That is a refutation by the pairs ``(v = a, w = b)`` for all ``b``: a chain a
person can follow ("if thermometer 7 stood at level 2, thermometer 3 could
stand at no level: level 0 breaks row 2, level 1 breaks column 4"). Each
erasure is sound (every completion of ``v = a`` puts ``w`` at some level,
and each of them contradicts), and the test is monotone, so the fixpoint
does not depend on the order.

Cost: pairs are quadratic, so partners are restricted, in two tiers, and
pair probing runs only after single probing is stuck; after every erasure
the cheap rules run again:

1. **narrow**: the vessels ``v = a`` changed (a chain of lines links them to
   ``v``) -- cheap, and enough for most boards;
2. **wide**: when the narrow tier is stuck, also the vessels crossing a line
   of ``v`` -- 15-30x dearer on 20x20 and 30x30 boards, but it finishes
   boards the narrow tier leaves to search (docs/logic.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from thermomilp.logic.domains import Domains, LineTables, is_decided, levels_in
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


def partners(tables: LineTables, dom: Domains, trial: Domains, v: int,
             wide: bool = False) -> list[int]:
    """Open vessels the assumption on ``v`` shrank (and, ``wide``, those on its lines)."""
    near = {w for w in range(len(dom)) if trial[w] != dom[w]}
    if wide:
        near.update(w for line in tables.vessel_lines[v] for w in tables.line_vessels[line])
    near.discard(v)
    return sorted(w for w in near if trial[w] & (trial[w] - 1))


def pair_refutation(tables: LineTables, dom: Domains, v: int, level: int,
                    wide: bool = False) -> PairRefutation | None:
    """A partner with no level left once ``v = level`` holds, or None.

    Assumes single probing is stuck (``v = level`` alone propagates fine); if
    it does not, the refutation has no partner (``partner = -1``).
    """
    trial = dom.copy()
    trial[v] = 1 << level
    broken = propagate_conflict(tables, trial, tables.vessel_lines[v])
    if broken != OK:
        return PairRefutation(v, level, -1, ((level, broken),))
    for w in partners(tables, dom, trial, v, wide):
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


def _pair_sweep(tables: LineTables, dom: Domains, wide: bool,
                stop: Callable[[], bool] | None = None, known: Domains | None = None) -> bool:
    return sweep(dom, lambda v, level: pair_refutation(tables, dom, v, level, wide) is not None,
                 lambda v: (propagate(tables, dom, tables.vessel_lines[v])
                            and probe_fixpoint(tables, dom, stop, known)
                            and (not wide or _pair_sweep(tables, dom, False, stop, known))),
                 stop, known)


def pair_fixpoint(tables: LineTables, dom: Domains,
                  stop: Callable[[], bool] | None = None,
                  known: Domains | None = None) -> bool:
    """Intervals, probing and pair probing (narrow, then wide) to a fixpoint, in place;
    False if the board has no solution. ``stop``, ``known``: see :func:`probing.sweep`
    (``stop`` raises TimeUp at the deadline)."""
    if (not probe_fixpoint(tables, dom, stop, known)
            or not _pair_sweep(tables, dom, False, stop, known)):
        return False
    return is_decided(dom) or _pair_sweep(tables, dom, True, stop, known)
