"""Pair probing: the step between probing and search (docs/logic.md, "Pair probing").

Assume ``v = a`` and propagate; if every level still open for a *partner* vessel ``w``
then breaks some line, ``a`` is erased. It runs once single probing
(`thermomilp.logic.propagation`) is stuck, with two tiers of partners: **narrow**, the
vessels ``v = a`` changed; **wide**, when the narrow tier is stuck, also the vessels
crossing a line of ``v``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from thermomilp.logic.domains import Domains, LineTables, is_decided, levels_in
from thermomilp.logic.propagation import (
    OK,
    Witnesses,
    new_witnesses,
    probe_fixpoint,
    propagate,
    propagate_conflict,
    sweep,
)


@dataclass(frozen=True)
class PairRefutation:
    """Why ``vessel = level`` is impossible: ``partner`` breaks at every level.

    ``breaks`` lists, per level ``b`` of the partner left open after
    ``vessel = level`` propagated, the clued line (number, as in
    `LineTables`) that ``partner = b`` breaks.
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


class _Fixpoints:
    """The pair tests of one `pair_fixpoint` run, from remembered fixpoints.

    The domain only shrinks during the run, and interval propagation is
    monotone, so the fixpoint ``F(v, L)`` of ``dom`` with ``v = L`` is kept
    (sparse: the vessels where it is below ``dom``) and brought up to date when
    ``dom`` loses levels by revising only the lines of the vessels that lost
    them (as `thermomilp.logic.propagation.probe` does for its witnesses).
    The fixpoint of several assumptions is the fixpoint of the meet of their
    ``F``s, and a line where at most one of them differs from ``dom`` already
    stands at a fixpoint there: only the lines touched by two are revised.
    The partners of a test are placed together by a dive (`pair_refuted`): the same
    answers as `pair_refutation`, so the same fixpoint, for fewer line revisions.
    """

    def __init__(self, tables: LineTables, dom: Domains, known: Domains | None = None):
        self.tables = tables
        self.dom = dom
        self.version = 0
        self.seen = tuple(dom)
        self.snapshots: dict[int, tuple[int, ...]] = {0: self.seen}
        self.changed: dict[int, list[int]] = {}    # version -> vessels changed since
        # (v, level) -> (version, sparse fixpoint) or None once it contradicts
        self.fixed: dict[tuple[int, int], tuple[int, dict[int, int]] | None] = {}
        self.settled = self.seen   # dom at the last interval fixpoint (see ``settle``)
        self.unsettled: list[int] = []
        # (v, level) -> (version, a nonempty fixpoint inside dom with v = level)
        self.dives: dict[tuple[int, int], tuple[int, Domains]] = {}
        self.known = known
        # per vessel, the level a dive tries first: the known solution's, else the last
        # level that stood in a dive
        self.guess = list(known) if known is not None else [0] * len(dom)

    def settle(self) -> None:
        """``dom`` is at an interval fixpoint now (after propagation)."""
        self.settled = tuple(self.dom)
        self.unsettled = []

    def sync(self) -> None:
        """Notice the levels ``dom`` lost since the last call."""
        now = tuple(self.dom)
        if now != self.seen:
            self.version += 1
            self.seen = now
            self.snapshots[self.version] = now
            self.changed = {}
            self.unsettled = [u for u, (a, b) in enumerate(zip(now, self.settled, strict=True))
                              if a != b]

    def _changed_since(self, version: int) -> list[int]:
        got = self.changed.get(version)
        if got is None:
            got = [u for u, (a, b) in enumerate(zip(self.snapshots[version], self.seen,
                                                    strict=True)) if a != b]
            self.changed[version] = got
        return got

    def single(self, v: int, level: int) -> dict[int, int] | None:
        """The interval fixpoint of ``dom`` with ``v = level``, as the vessels where it is
        below ``dom`` (vessel -> levels), or None when it contradicts."""
        key = (v, level)
        entry = self.fixed.get(key, ())
        if entry is None:
            return None  # a contradiction stays one: the domain only shrinks
        dom, vessel_lines = self.dom, self.tables.vessel_lines
        lines: set[int] = set()
        if entry == ():
            trial = dom.copy()
            trial[v] = 1 << level
            lines.update(vessel_lines[v])
            for u in self.unsettled:  # lost levels not propagated yet
                lines.update(vessel_lines[u])
        else:
            version, fix = entry  # type: ignore[misc]
            if version == self.version:
                return fix
            old = self.snapshots[version]
            trial = dom.copy()
            for u, m in fix.items():
                trial[u] = m = m & dom[u]
                if not m:
                    self.fixed[key] = None
                    return None
            for u in self._changed_since(version):
                if trial[u] != fix.get(u, old[u]):
                    lines.update(vessel_lines[u])
            if not lines:  # the fixpoint stands, within the smaller domain
                fix = {u: m for u, m in fix.items() if m != dom[u]}
                self.fixed[key] = (self.version, fix)
                return fix
        if not propagate(self.tables, trial, lines):
            self.fixed[key] = None
            return None
        fix = {u: a for u, (a, b) in enumerate(zip(trial, dom, strict=True)) if a != b}
        self.fixed[key] = (self.version, fix)
        return fix

    def consistent(self, fix: dict[int, int], w: int, b: int) -> bool:
        """Does ``w = b`` survive interval propagation from the fixpoint ``fix``?"""
        other = self.single(w, b)
        if other is None:
            return False
        # X = fix & other: the lines where X differs from each of them
        off_fix, off_other = self._narrowed(fix, other), self._narrowed(other, fix)
        if off_fix is None or off_other is None:
            return False
        lines = off_fix & off_other
        if not lines:
            return True  # every line stands as in one fixpoint or the other
        trial = self.dom.copy()
        for u, t in fix.items():
            trial[u] = t
        for u, s in other.items():
            trial[u] &= s
        return propagate(self.tables, trial, lines)

    def _narrowed(self, fix: dict[int, int], other: dict[int, int]) -> set[int] | None:
        """The lines of the vessels where ``other`` narrows ``fix`` (both sparse fixpoints
        from `single`), or None when it empties one."""
        lines: set[int] = set()
        for u, s in other.items():
            t = fix.get(u, self.dom[u])
            x = t & s
            if x != t:
                if not x:
                    return None
                lines.update(self.tables.vessel_lines[u])
        return lines

    def _dive(self, v: int, level: int, fix: dict[int, int]) -> Domains:
        """A nonempty interval fixpoint inside ``dom`` with ``v = level``: the one the last
        test of ``v = level`` ended on, brought up to date, or else ``fix`` itself."""
        dom = self.dom
        entry = self.dives.get((v, level))
        if entry is not None:
            version, deep = entry
            if version == self.version:
                return deep
            trial = deep.copy()
            lines: set[int] = set()
            vessel_lines = self.tables.vessel_lines
            for u in self._changed_since(version):
                m = deep[u] & dom[u]
                if m != deep[u]:
                    if not m:
                        break
                    trial[u] = m
                    lines.update(vessel_lines[u])
            else:
                if not lines or propagate(self.tables, trial, lines):
                    return trial
        trial = dom.copy()
        for u, m in fix.items():
            trial[u] = m
        return trial

    def pair_refuted(self, v: int, level: int, wide: bool) -> bool:
        """``pair_refutation(tables, dom, v, level, wide) is not None``, from fixpoints.

        A partner ``w`` can stand somewhere as soon as some nonempty interval fixpoint
        inside ``dom`` with ``v = level`` decides ``w`` (the fixpoint of ``v = level, w = b``
        contains it). So the partners are placed together on one fixpoint (a dive,
        `_place`), and only a partner the dive cannot place is tested on its own
        from ``v = level`` (`consistent`). The dive is kept for the next test of
        ``v = level`` (the wide tier after the narrow one, or after an erasure
        elsewhere): it usually still stands, with most partners already placed."""
        self.sync()
        fix = self.single(v, level)
        if fix is None:
            return True
        near = {w for w, m in fix.items() if m & (m - 1)}
        dom, tables = self.dom, self.tables
        if wide:
            near.update(w for line in tables.vessel_lines[v] for w in tables.line_vessels[line]
                        if w not in fix and dom[w] & (dom[w] - 1))
        near.discard(v)
        if not near:
            return False
        start = self._dive(v, level, fix)
        deep = self._place(start, [w for w in sorted(near) if start[w] & (start[w] - 1)], fix)
        if deep is None:
            self.dives.pop((v, level), None)
            return True
        self.dives[(v, level)] = (self.version, deep)
        return False

    def _merged(self, deep: Domains, picks: list[tuple[int, int]]) -> Domains | None:
        """The interval fixpoint of ``deep`` (a fixpoint) with each ``w = b`` of ``picks``,
        or None when it contradicts: ``deep`` met with the fixpoints of the single
        assumptions (`single`), revised only on the lines where two of them differ from
        ``dom`` or that lost levels not yet propagated (class doc)."""
        dom, vessel_lines = self.dom, self.tables.vessel_lines
        trial = deep.copy()
        touched: dict[int, int] = {}
        for u, (a, b) in enumerate(zip(deep, dom, strict=True)):
            if a != b:
                for line in vessel_lines[u]:
                    touched[line] = 1
        for u in self.unsettled:  # lost levels not propagated yet
            for line in vessel_lines[u]:
                touched[line] = 2
        for w, b in picks:
            other = self.single(w, b)
            if other is None:
                return None
            mine: set[int] = set()
            for u, m in other.items():
                x = trial[u] & m
                if not x:
                    return None
                trial[u] = x
                mine.update(vessel_lines[u])
            for line in mine:
                touched[line] = touched.get(line, 0) + 1
        lines = [line for line, k in touched.items() if k > 1]
        if not lines or propagate(self.tables, trial, lines):
            return trial
        return None

    def _place(self, deep: Domains, todo: list[int], fix: dict[int, int]) -> Domains | None:
        """``deep`` (a nonempty fixpoint inside ``fix``) with every vessel of ``todo``
        decided, or else with the ones placed that could be, the others shown able to
        stand somewhere from ``fix`` on their own; None when one of them cannot.

        All of ``todo`` are placed at once (at their ``guess`` level, else the lowest),
        propagated once; on a contradiction, each half in turn."""
        if not todo:
            return deep
        guess = self.guess
        picks = []
        for w in todo:
            m = deep[w]
            first = m & guess[w]
            picks.append((w, (first or m & -m).bit_length() - 1))
        placed = self._merged(deep, picks)
        if placed is not None:
            if self.known is None:  # the levels that stood, first next time
                for w, b in picks:
                    guess[w] = 1 << b
            return placed
        if len(todo) > 1:
            half = len(todo) // 2
            placed = self._place(deep, todo[:half], fix)
            if placed is None:
                return None
            return self._place(placed, [w for w in todo[half:] if placed[w] & (placed[w] - 1)],
                               fix)
        w, chosen = picks[0]
        for b in levels_in(deep[w] & ~(1 << chosen)):  # the other levels, one by one
            placed = self._merged(deep, [(w, b)])
            if placed is not None:
                if self.known is None:
                    guess[w] = 1 << b
                return placed
        # not with the partners placed so far: on its own, from v = level
        dom = self.dom
        if any(self.consistent(fix, w, b) for b in levels_in(fix.get(w, dom[w]))):
            return deep
        return None


def _pair_sweep(tables: LineTables, dom: Domains, wide: bool,
                stop: Callable[[], bool] | None = None, known: Domains | None = None,
                fixpoints: _Fixpoints | None = None,
                witnesses: Witnesses | None = None) -> bool:
    """One tier of pair probing to its fixpoint (with probing and, ``wide``, the narrow
    tier after each erasure). ``fixpoints``, ``witnesses``: this run's tables (fresh
    ones when None), valid while ``dom`` only shrinks."""
    fx = _Fixpoints(tables, dom, known) if fixpoints is None else fixpoints
    fx.settle()

    def settle(v: int) -> bool:
        ok = (propagate(tables, dom, tables.vessel_lines[v])
              and probe_fixpoint(tables, dom, stop, known, witnesses)
              and (not wide or _pair_sweep(tables, dom, False, stop, known, fx, witnesses)))
        fx.settle()
        return ok

    return sweep(dom, lambda v, level: fx.pair_refuted(v, level, wide), settle, stop, known)


def pair_fixpoint(tables: LineTables, dom: Domains,
                  stop: Callable[[], bool] | None = None,
                  known: Domains | None = None) -> bool:
    """Intervals, probing and pair probing (narrow, then wide) to a fixpoint, in place;
    False if the board has no solution. ``stop``, ``known``: see `propagation.sweep`
    (``stop`` raises TimeUp at the deadline)."""
    witnesses = new_witnesses(tables)
    if not probe_fixpoint(tables, dom, stop, known, witnesses):
        return False
    fx = _Fixpoints(tables, dom, known)
    if not _pair_sweep(tables, dom, False, stop, known, fx, witnesses):
        return False
    return is_decided(dom) or _pair_sweep(tables, dom, True, stop, known, fx, witnesses)
