"""Backtracking search over levels under a chosen propagator.

``search_solutions(puzzle, rule)`` propagates with ``rule`` (``intervals``,
``gac`` or ``probing``), and when the board is not decided branches on an
undecided vessel (`branch_vessel`: the most levels left, weighted by how often the
propagation refuted a branch on that vessel so far in this search), splitting its
levels in two (`halves`), the upper half first.
A leaf with every vessel decided is a solution: each propagator checks that
every clued line sums exactly to its clue once all contributions are fixed.
Three counters from three propagators, plus the brute force and the MILP,
must agree (``tests/test_logic_agreement.py``, ``tests/test_logic_search.py``).

Under ``probing`` the first node probes every level and the nodes below it shave
(`thermomilp.logic.propagation`); each node hands a copy of its probes' witnesses to its
children. The solve layer's confirmation (`thermomilp.solving.confirm`) runs this search
from the probing presolve's fixpoint (`thermomilp.logic.presolve.BoardLogic.probed_root`)
with a node budget and a deadline.
"""

from __future__ import annotations

import enum
from typing import Callable, Iterator, Mapping, Sequence

from thermomilp.core.errors import OutOfBudget
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
from thermomilp.logic.propagation import (
    Witnesses,
    inherit,
    new_witnesses,
    probe_fixpoint,
    propagate,
)


class Propagator(enum.StrEnum):
    """The propagation a search runs at each node (``interval``s of the line sums,
    generalised arc consistency ``gac``, or ``probing`` on top of intervals)."""

    INTERVALS = "intervals"
    GAC = "gac"
    PROBING = "probing"


RULES = tuple(Propagator)


def _propagator(puzzle: Puzzle, tables: LineTables, rule: Propagator | str,
                stop: Callable[[], bool] | None, known: Domains | None
                ) -> Callable[[Domains, Witnesses | None, bool], bool]:
    """``run(dom, witnesses, below_root)``: propagate ``dom`` in place; False on a
    contradiction."""
    try:
        rule = Propagator(rule)
    except ValueError:
        raise ValueError(f"unknown rule {rule!r}; use one of {', '.join(RULES)}") from None
    if rule is Propagator.INTERVALS:
        return lambda dom, _, __: propagate(tables, dom, stop=stop)
    if rule is Propagator.GAC:
        return lambda dom, _, __: gac_fixpoint(puzzle, dom)

    def run(dom: Domains, wit: Witnesses | None, below_root: bool) -> bool:
        # the known solution's levels are untestable only while it lies inside dom
        inside = known is not None and all(k & ~m == 0 for k, m in zip(known, dom, strict=True))
        return probe_fixpoint(tables, dom, stop, known if inside else None, wit,
                              ends_only=below_root)
    return run  # Propagator.PROBING


def branch_vessel(dom: Domains, degrees: Sequence[int], failures: Sequence[int]) -> int | None:
    """The undecided vessel with the largest ``width**4 * (1 + failures[v])`` (``width``:
    its levels left; ``failures[v]``: the branches on it the propagation refuted so far),
    of those the one crossing the most clued lines (``degrees[v]``), the first such; None
    when all are decided.

    Under probing, splitting the widest domain takes fewer line revisions than the
    fewest-levels-first rule on the hard boards; counting the refuted branches, as
    weighted-degree heuristics count failed constraints, steers the search among the
    wide vessels to those whose splits the propagation refutes (docs/performance.md)."""
    best, key = None, (0, 0)
    for v, m in enumerate(dom):
        if m & (m - 1):
            k = (m.bit_count() ** 4 * (1 + failures[v]), degrees[v])
            if k > key:
                best, key = v, k
    return best


def halves(mask: int) -> tuple[int, int]:
    """The two branches of a node on a vessel of domain ``mask`` (two levels or more):
    its upper half of levels first, then its lower half. Splitting the domain in two
    lets each child's probing refute a whole half at once; on the hard boards of
    ``benchmarks/hard/`` it decides in a fraction of the nodes one child per level
    takes (docs/journal.md, 2026-12-03)."""
    levels = levels_in(mask)
    lower = sum(1 << level for level in levels[: len(levels) // 2])
    return mask & ~lower, lower


def search_solutions(puzzle: Puzzle, rule: str = "intervals", limit: int | None = None,
                     marks: Mapping[Cell, int] | None = None, *,
                     start: Domains | None = None, stop: Callable[[], bool] | None = None,
                     max_nodes: int | None = None, known: Domains | None = None,
                     witnesses: Witnesses | None = None,
                     tables: LineTables | None = None) -> Iterator[Grid]:
    """Yield every solution (at most ``limit``) by propagate-and-branch.

    ``start``: domains to begin from instead of the full ones (sound deductions
    only, e.g. the probing presolve's:
    `thermomilp.logic.presolve.BoardLogic.probed_root`); ``marks`` clamp them.
    ``stop``: asked during propagation; True raises
    [`TimeUp`][thermomilp.core.errors.TimeUp]. ``max_nodes``: more nodes raise
    [`OutOfBudget`][thermomilp.core.errors.OutOfBudget]. ``known`` (``probing`` only): the levels of
    a solution checked by [`thermomilp.core.verify`][thermomilp.core.verify] (one bit per vessel),
    whose levels need no probe while it lies inside a node's domains. ``witnesses`` (``probing``
    only): the probes' witnesses from domains containing ``start``
    (``BoardLogic.probed_root`` returns both). ``tables``: the board's line tables,
    when the caller has them (default: built here)."""
    tables = line_tables(puzzle) if tables is None else tables
    run = _propagator(puzzle, tables, rule, stop, known)
    dom = full_domains(tables) if start is None else list(start)
    if marks and not clamp_with_marks(tables, dom, marks):
        return
    found = nodes = 0
    probing = Propagator(rule) is Propagator.PROBING
    degrees = [len(lines) for lines in tables.vessel_lines]
    failures = [0] * len(dom)  # per vessel: its branches the propagation refuted

    def rec(dom: Domains, wit: Witnesses | None, split: int | None) -> Iterator[Grid]:
        nonlocal found, nodes
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            raise OutOfBudget(f"more than {max_nodes} search nodes")
        if not run(dom, wit, nodes > 1):
            if split is not None:
                failures[split] += 1
            return
        v = branch_vessel(dom, degrees, failures)
        if v is None:
            found += 1
            yield grid_of(tables, dom)
            return
        for part in halves(dom[v]):
            if limit is not None and found >= limit:
                return
            child = dom.copy()
            child[v] = part
            yield from rec(child, inherit(wit) if wit is not None else None, v)

    if limit is None or limit > 0:
        table = (witnesses if witnesses is not None else new_witnesses(tables)) if probing \
            else None
        yield from rec(dom, table, None)


def search_count(puzzle: Puzzle, rule: str = "intervals", limit: int | None = None) -> int:
    return sum(1 for _ in search_solutions(puzzle, rule, limit))
