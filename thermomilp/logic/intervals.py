"""Interval reasoning on vessel levels, line by line, to a fixpoint.

For a clued line ``l`` with clue ``K`` and the vessels ``s`` crossing it,
let ``cmin(s) = c_{s,l}(lo_s)`` and ``cmax(s) = c_{s,l}(hi_s)`` (the
contribution table is non-decreasing, so these are its extremes over the
domain). Then vessel ``t`` must contribute

    needMin(t) = K - sum_{s != t} cmax(s)  <=  c_{t,l}(L)  <=  needMax(t) = K - sum_{s != t} cmin(s)

and every level ``L`` whose contribution falls outside ``[needMin, needMax]``
is erased. Because ``c_{t,l}`` is monotone the survivors are one run of
levels, found by bisection in the table. A line is a contradiction when
``sum cmin > K`` or ``sum cmax < K``. A thermometer may cross a line several
times (its cells there need not be contiguous): the table, built in
thermometer order, already accounts for that.

The fixpoint keeps a queue of lines; a line whose vessel changed is revised
again. Bitset domains: at these sizes (<= a few hundred table entries)
numpy's per-call overhead costs more than it saves (``docs/logic.md``).

Two kernels (`thermomilp.logic.kernel`): the pure-Python reference below
(`reference_propagate_conflict`, `revise_line`) and the compiled one
(``_kernel.c``), which does the same revisions in the same order on flat arrays;
`propagate_conflict` runs the one `kernel` chose.
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Iterable

from thermomilp.core.deadline import TimeUp
from thermomilp.logic import kernel
from thermomilp.logic.domains import Domains, LineTables

OK = -1
STOP_EVERY = 256
"""Lines revised between two questions to ``stop`` (cheap next to a revision sweep)."""


def revise_line(tables: LineTables, dom: Domains, line: int) -> list[int] | None:
    """Tighten the vessels of one line; the vessels changed, or None on contradiction.

    A vessel whose contribution spread ``cmax - cmin`` is at most the line's
    slack ``min(sum cmax - K, K - sum cmin)`` already lies inside
    ``[needMin, needMax]`` and is skipped (the common case at a fixpoint).
    For the others ``needMin = cmax - (sum cmax - K)`` and ``needMax = cmin +
    (K - sum cmin)`` both lie in ``[cmin, cmax]``, and the levels kept are
    read from the precomputed masks of `LineTables.line_masks`."""
    clue = tables.clues[line]
    if clue is None:  # an unclued line bounds nothing
        return []
    vessels = tables.line_vessels[line]
    tabs = tables.line_tables[line]
    lows, highs = [], []
    smin = smax = 0
    for v, tab in zip(vessels, tabs, strict=True):
        m = dom[v]
        a = tab[(m & -m).bit_length() - 1]
        b = tab[m.bit_length() - 1]
        smin += a
        smax += b
        lows.append(a)
        highs.append(b)
    over = smax - clue  # sum cmax - K
    under = clue - smin  # K - sum cmin
    if over < 0 or under < 0:
        return None
    slack = over if over < under else under
    changed = []
    for k, b in enumerate(highs):
        a = lows[k]
        if b - a <= slack:
            continue
        at_least, at_most = tables.line_masks[line][k]
        v = vessels[k]
        m = keep = dom[v]
        if b - over > a:
            keep &= at_least[b - over]
        if a + under < b:
            keep &= at_most[a + under]
        if not keep:
            return None
        if keep != m:
            dom[v] = keep
            changed.append(v)
    return changed


def propagate_conflict(tables: LineTables, dom: Domains,
                       lines: Iterable[int] | None = None,
                       stop: Callable[[], bool] | None = None) -> int:
    """Run to the fixpoint in place; ``OK`` (-1) or the line found contradictory.

    ``stop`` is asked before the first revision and every `STOP_EVERY` after;
    when it answers True the run raises [`TimeUp`][thermomilp.core.errors.TimeUp],
    leaving ``dom`` with sound (but not yet complete) deductions. The compiled kernel
    when `thermomilp.logic.kernel` chose it for this board, else the reference.
    """
    fast = kernel.board(tables)
    if fast is not None:
        return int(fast.propagate(dom, lines, stop, STOP_EVERY))
    return reference_propagate_conflict(tables, dom, lines, stop)


def reference_propagate_conflict(tables: LineTables, dom: Domains,
                                 lines: Iterable[int] | None = None,
                                 stop: Callable[[], bool] | None = None) -> int:
    """`propagate_conflict` in pure Python: a FIFO queue of lines, each queued once,
    revised by `revise_line` (the compiled kernel's specification)."""
    if lines is None:
        lines = (line for line, clue in enumerate(tables.clues) if clue is not None)
    queue = deque(lines)
    queued = [False] * len(tables.clues)
    for line in queue:
        queued[line] = True
    vessel_lines = tables.vessel_lines
    countdown = 1  # asked before the first revision, then every STOP_EVERY
    while queue:
        if stop is not None:
            countdown -= 1
            if countdown <= 0:
                countdown = STOP_EVERY
                if stop():
                    raise TimeUp
        line = queue.popleft()
        queued[line] = False
        changed = revise_line(tables, dom, line)
        if changed is None:
            return line
        for v in changed:
            for other in vessel_lines[v]:
                if not queued[other]:
                    queued[other] = True
                    queue.append(other)
    return OK


def propagate(tables: LineTables, dom: Domains, lines: Iterable[int] | None = None,
              stop: Callable[[], bool] | None = None) -> bool:
    """Interval fixpoint in place; False when some line is contradictory (``stop``: as above)."""
    return propagate_conflict(tables, dom, lines, stop) == OK


def reference_propagate(tables: LineTables, dom: Domains, lines: Iterable[int] | None = None,
                        stop: Callable[[], bool] | None = None) -> bool:
    """`propagate` by the Python kernel, whatever `kernel` chose."""
    return reference_propagate_conflict(tables, dom, lines, stop) == OK
