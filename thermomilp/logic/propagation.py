"""Propagation on vessel levels: interval reasoning line by line, and probing, to a fixpoint.

The rules, and why the domains are bitsets rather than numpy arrays: docs/logic.md,
"Interval reasoning" and "Probing"; the speed-ups: docs/performance.md, items 12-13.

**Intervals** (`revise_line`) run line by line to a fixpoint; **probing** (`sweep`)
assumes each open level, propagates, and erases the level on a contradiction.

*Incremental probes.* A probe of ``v = L`` starts from the fixpoint the same probe
reached before (its witness, kept in a `Witnesses` table per search node, copied from
the parent's, never a sibling's) intersected with the current domains, and revises only
the lines of vessels that lost levels since: the same fixpoint as from scratch.

*Shaving* (``ends_only``): probe only each domain's lowest and highest level, moving
inwards while they fall. As sound, possibly weaker (holes are left); the exact search
(`thermomilp.logic.search`) shaves below its first node.

**Two kernels, the same answers.** The pure-Python reference here
(`reference_propagate_conflict`, `revise_line`, `reference_probe_fixpoint`, `probe`,
`sweep`) is the specification and the fallback. ``thermomilp/logic/_kernel.c``, an
optional C extension, does the same revisions, probes, shaves and witnesses in the same
order on flat integer arrays built once per board (`board`), with the same calls to
``stop`` (the work ticks of `thermomilp.logic.budget.Work`). `KERNEL` is chosen once per
process: ``"compiled"`` when the extension imports, unless ``THERMOMILP_KERNEL=python``;
a board with a vessel of more than `MAX_DEPTH` levels always runs the reference. A
witness the compiled kernel stores is ``bytes`` (one 64-bit word per vessel).
``tests/test_logic_kernel.py`` checks the two agree.
"""

from __future__ import annotations

import importlib
import os
from collections import deque
from types import ModuleType
from typing import Any, Callable, Iterable

from thermomilp.core.deadline import TimeUp
from thermomilp.logic.domains import Domains, LineTables, high, levels_in, low

# -- which kernel runs --------------------------------------------------------------

ENV = "THERMOMILP_KERNEL"
MAX_DEPTH = 63
"""The deepest vessel the compiled kernel takes: its domains are 64-bit words."""


def _load() -> tuple[ModuleType | None, str, str]:
    """The extension (or None), the kernel's name and why."""
    wanted = os.environ.get(ENV, "").strip().lower()
    if wanted == "python":
        return None, "python", f"{ENV}=python"
    try:
        module = importlib.import_module("thermomilp.logic._kernel")
    except ImportError:
        return None, "python", "the C extension is not built"
    return module, "compiled", "C extension thermomilp.logic._kernel"


_compiled, KERNEL, REASON = _load()
"""``KERNEL``: ``"compiled"`` or ``"python"``; ``REASON``: why, in a few words."""

_KEY = "_kernel_board"  # where a LineTables keeps its compiled Board (or None); not pickled


def describe() -> str:
    """One line for ``thermomilp solvers``: the kernel that runs and why."""
    return f"{KERNEL} ({REASON})"


def available() -> bool:
    """Whether the compiled extension is loaded (not when ``THERMOMILP_KERNEL=python``:
    then it is not even imported); `KERNEL` may still be set to "python"."""
    return _compiled is not None


def board(tables: LineTables) -> Any:
    """The compiled kernel's arrays of this board (built once, kept on ``tables``), or
    None: the Python kernel runs (`KERNEL` is ``"python"``, or a vessel is deeper
    than `MAX_DEPTH`)."""
    if KERNEL != "compiled":
        return None
    kept = tables.__dict__.get(_KEY, _KEY)
    if kept is _KEY:
        kept = compile_board(tables)
        object.__setattr__(tables, _KEY, kept)  # a frozen dataclass: its own cache slot
    return kept


def kernel_for(tables: LineTables) -> str:
    """The kernel that runs this board: ``"compiled"`` or ``"python"`` (`board`)."""
    return "python" if board(tables) is None else "compiled"


def compile_board(tables: LineTables) -> Any:
    """A new compiled Board of ``tables`` (None when the extension is missing or a vessel
    is deeper than `MAX_DEPTH`), whatever `KERNEL` says: the tests compare
    it with the reference."""
    if _compiled is None or any(d > MAX_DEPTH for d in tables.depths):
        return None
    line_start: list[int] = [0]
    entry_vessel: list[int] = []
    flat: list[int] = []
    for vessels, tabs in zip(tables.line_vessels, tables.line_tables, strict=True):
        for v, tab in zip(vessels, tabs, strict=True):
            entry_vessel.append(v)
            flat.extend(tab)
        line_start.append(len(entry_vessel))
    vessel_start: list[int] = [0]
    vessel_lines: list[int] = []
    for lines in tables.vessel_lines:
        vessel_lines.extend(lines)
        vessel_start.append(len(vessel_lines))
    return _compiled.Board(
        depths=list(tables.depths),
        clues=[0 if clue is None else clue for clue in tables.clues],
        clued=[clue is not None for clue in tables.clues],
        line_start=line_start, entry_vessel=entry_vessel, tables=flat,
        vessel_start=vessel_start, vessel_lines=vessel_lines, time_up=TimeUp)


def revisions() -> int:
    """Line revisions the compiled kernel made in this process (0 without it)."""
    return 0 if _compiled is None else int(_compiled.revisions())

# -- interval propagation ----------------------------------------------------------

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
    when it was chosen for this board (`board`), else the reference.
    """
    fast = board(tables)
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


def reference_propagate(tables: LineTables, dom: Domains,
                        lines: Iterable[int] | None = None) -> bool:
    """`propagate` by the Python kernel, whatever kernel was chosen (inside probing, which
    asks its ``stop`` per vessel, as the compiled kernel does)."""
    return reference_propagate_conflict(tables, dom, lines) == OK

# -- probing -----------------------------------------------------------------------

Witnesses = list[dict[int, Domains | bytes]]
"""Per vessel: level -> the interval fixpoint its last probe reached (see module doc; a
list from the Python kernel, bytes from the compiled one)."""


WITNESS_VESSELS = 1000
"""Boards of more vessels keep no witnesses (a table holds a domain per open level:
memory quadratic in the vessels); their probes start from scratch."""


def new_witnesses(tables: LineTables) -> Witnesses | None:
    """An empty table, or None on a board of more than `WITNESS_VESSELS` vessels."""
    return [{} for _ in range(tables.n_vessels)] if tables.n_vessels <= WITNESS_VESSELS else None


def inherit(witnesses: Witnesses) -> Witnesses:
    """A child node's table: its parent's witnesses, which the child may use but not change."""
    return [w.copy() for w in witnesses]


def refuted(tables: LineTables, dom: Domains, v: int, level: int) -> bool:
    """True if assuming ``v = level`` makes interval propagation fail."""
    trial = dom.copy()
    trial[v] = 1 << level
    return not reference_propagate(tables, trial, tables.vessel_lines[v])


def sweep(dom: Domains, refutes: Callable[[int, int], bool],
          settle: Callable[[int], bool], stop: Callable[[], bool] | None = None,
          known: Domains | None = None, ends_only: bool = False) -> bool:
    """Erase every open level ``refutes(v, level)`` condemns, vessel by vessel (round
    and round), until every vessel has been tested since the last erasure;
    ``settle(v)`` propagates after ``v`` lost levels. False on a contradiction (a
    domain emptied, or ``settle`` failed). ``stop`` (optional) is asked before each
    vessel; when it says so, [`thermomilp.core.deadline.TimeUp`][thermomilp.core.errors.TimeUp] is
    raised (``dom`` then holds sound but partial deductions).

    ``known`` (optional): per vessel, a bitmask of levels known to be in a
    solution (the levels of a grid checked by [`thermomilp.core.verify`][thermomilp.core.verify]).
    No sound rule erases them, so they are not tested: same fixpoint, less work
    (docs/journal.md, 2026-12-03).

    ``ends_only``: shave (module doc) -- test each domain's lowest and highest level,
    moving inwards while they fall, instead of every level."""
    # round and round the vessels, ending once every vessel has been tested since the
    # last erasure (a test of an unchanged board would only repeat its answer)
    n, v, quiet = len(dom), 0, 0
    while quiet < n:
        if stop is not None and stop():
            raise TimeUp("probing stopped at its deadline")
        m = dom[v]
        quiet += 1
        if m & (m - 1):
            if ends_only:
                _shave(dom, v, refutes, 0 if known is None else known[v])
            else:
                for level in levels_in(m if known is None else m & ~known[v]):
                    if refutes(v, level):
                        dom[v] &= ~(1 << level)
            if dom[v] != m:
                quiet = 0
                if not dom[v] or not settle(v):
                    return False
        v = (v + 1) % n
    return True


def _shave(dom: Domains, v: int, refutes: Callable[[int, int], bool], known: int) -> None:
    """Erase ``v``'s lowest level while ``refutes`` condemns it, then its highest alike
    (never the last level, never one of ``known``'s)."""
    for end_of in (low, high):
        while True:
            d = dom[v]
            level = end_of(d)
            bit = 1 << level
            if d == bit or bit & known or not refutes(v, level):
                break
            dom[v] = d & ~bit


def probe(tables: LineTables, dom: Domains, v: int, level: int,
          witnesses: Witnesses) -> bool:
    """Whether ``v = level`` survives interval propagation from ``dom`` (module doc:
    incremental from the witness of an earlier probe, which it then replaces)."""
    mine = witnesses[v]
    w = mine.get(level)
    if w is None:
        trial = dom.copy()
        trial[v] = 1 << level
        lines: object = tables.vessel_lines[v]
    else:
        if isinstance(w, bytes):  # stored by the compiled kernel
            w = _words(w)
        trial = [a & b for a, b in zip(w, dom, strict=True)]
        if trial == w:  # nothing lost since: the witness is still a fixpoint
            return True
        vessel_lines = tables.vessel_lines
        touched: dict[int, None] = {}  # in order of first sight, as the compiled kernel
        for u, (a, b) in enumerate(zip(trial, w, strict=True)):
            if a != b:
                if not a:
                    del mine[level]
                    return False
                touched.update(dict.fromkeys(vessel_lines[u]))
        lines = touched
    if reference_propagate(tables, trial, lines):  # type: ignore[arg-type]
        mine[level] = trial
        return True
    mine.pop(level, None)
    return False


def _words(packed: bytes) -> Domains:
    """A witness the compiled kernel stored (native 64-bit words) as a domain list."""
    return list(memoryview(packed).cast("Q"))


def probe_fixpoint(tables: LineTables, dom: Domains,
                   stop: Callable[[], bool] | None = None,
                   known: Domains | None = None,
                   witnesses: Witnesses | None = None, ends_only: bool = False) -> bool:
    """Interval fixpoint plus probing, in place; False when the board has no solution.

    ``stop``, ``known``: see `sweep` (``stop`` raises TimeUp at the deadline;
    it is asked before each vessel the sweep visits: one work tick of
    `Work`).
    ``witnesses``: the node's table (module doc), updated in place; a fresh one when
    None (none at all past `WITNESS_VESSELS`). It must come from this node or
    an ancestor: a table filled from a domain that does not contain ``dom`` could
    erase a level that is in a solution. ``ends_only``: shave instead (module doc).
    The compiled kernel when it was chosen for the board (`board`), else
    `reference_probe_fixpoint`: the same domains, answer and calls to ``stop``."""
    fast = board(tables)
    if fast is None:
        return reference_probe_fixpoint(tables, dom, stop, known, witnesses, ends_only)
    table = new_witnesses(tables) if witnesses is None else witnesses
    return bool(fast.probe_fixpoint(dom, stop, known, table, ends_only))


def reference_probe_fixpoint(tables: LineTables, dom: Domains,
                             stop: Callable[[], bool] | None = None,
                             known: Domains | None = None,
                             witnesses: Witnesses | None = None,
                             ends_only: bool = False) -> bool:
    """`probe_fixpoint` by the Python kernel (its specification), whatever kernel was
    chosen."""
    if not reference_propagate(tables, dom):
        return False
    table = new_witnesses(tables) if witnesses is None else witnesses
    refutes = ((lambda v, level: refuted(tables, dom, v, level)) if table is None
               else (lambda v, level: not probe(tables, dom, v, level, table)))
    return sweep(dom, refutes, lambda v: reference_propagate(tables, dom, tables.vessel_lines[v]),
                 stop, known, ends_only)
