"""Probing (singleton consistency over interval propagation).

For every vessel ``v`` and every level ``L`` still in its domain: assume
``v = L``, run interval propagation to its fixpoint, and erase ``L`` if that
reaches a contradiction. Erasures may punch holes in a domain (the interval
propagator then reads only the lowest and highest survivor). Sweep until
every vessel has been tested since the last erasure.

Every erasure is sound (a level leading to a contradiction is in no
solution) and the test is monotone (smaller domains refute at least as
much), so the order of probes does not change the fixpoint.

**Incremental probes.** Interval propagation is monotone: from a smaller
domain it reaches a smaller (or equal) fixpoint. So once ``v = L`` has been
probed from a domain ``D0`` and reached the fixpoint ``W`` (its *witness*),
a later probe of ``v = L`` from any ``D`` inside ``D0`` reaches the same
fixpoint as a probe started from ``D`` intersected with ``W`` -- which
differs from ``W`` only where ``D`` lost levels since, so only the lines of
those vessels are revised again; when nothing differs, ``W`` itself is the
answer (not refuted) and no line is revised. The witnesses are kept in a
`Witnesses` table, one per search node: a child node starts from a
copy of its parent's (every ancestor's domain contains the child's), never
from a sibling's. Same erasures, same fixpoint as probing from scratch;
about a third of the line revisions on hard 15x15 boards.

**Shaving** (``ends_only``): probe only the lowest and the highest level of each
domain, and the next one in when it falls -- the two levels the interval
propagator reads. Every erasure is as sound, but the fixpoint may be weaker:
the holes full probing punches are left, and with them the bounds a hole would
have pushed further. It is what the exact search (`thermomilp.logic.search`)
does below its first node, where a level left standing only costs a child that
dies at once: on the hard boards of ``benchmarks/hard/`` the search keeps the
same branching nodes for less time (docs/performance.md).

**Kernels.** `probe_fixpoint` runs the compiled kernel
(`thermomilp.logic.kernel`: the whole sweep, its probes, shaves and witnesses in
one call per search node) when it was chosen for the board, else
`reference_probe_fixpoint`, the pure-Python specification below (which, with
`refuted` and `probe`, runs the Python interval kernel throughout). Both
take the same witness tables: a witness the compiled kernel stores is ``bytes`` (one
native 64-bit word per vessel) instead of a list.
"""

from __future__ import annotations

from typing import Callable

from thermomilp.core.deadline import TimeUp
from thermomilp.logic import kernel
from thermomilp.logic.domains import Domains, LineTables, high, levels_in, low
from thermomilp.logic.intervals import reference_propagate as propagate

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
    return not propagate(tables, trial, tables.vessel_lines[v])


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
    No sound rule erases them, so they are not tested: same fixpoint, less work (a
    40x40 generated board's grade: 19.3 s -> 16.9 s CPU).

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
    if propagate(tables, trial, lines):  # type: ignore[arg-type]
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
    The compiled kernel when `thermomilp.logic.kernel` chose it, else
    `reference_probe_fixpoint`: the same domains, answer and calls to ``stop``."""
    fast = kernel.board(tables)
    if fast is None:
        return reference_probe_fixpoint(tables, dom, stop, known, witnesses, ends_only)
    table = new_witnesses(tables) if witnesses is None else witnesses
    return bool(fast.probe_fixpoint(dom, stop, known, table, ends_only))


def reference_probe_fixpoint(tables: LineTables, dom: Domains,
                             stop: Callable[[], bool] | None = None,
                             known: Domains | None = None,
                             witnesses: Witnesses | None = None,
                             ends_only: bool = False) -> bool:
    """`probe_fixpoint` by the Python kernel (its specification), whatever
    `kernel` chose."""
    if not propagate(tables, dom):
        return False
    table = new_witnesses(tables) if witnesses is None else witnesses
    refutes = ((lambda v, level: refuted(tables, dom, v, level)) if table is None
               else (lambda v, level: not probe(tables, dom, v, level, table)))
    return sweep(dom, refutes, lambda v: propagate(tables, dom, tables.vessel_lines[v]),
                 stop, known, ends_only)
