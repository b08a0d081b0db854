"""Hints for a person solving an Aquarium: the next deduction and the rule behind it
(docs/aquarium.md, "Hints").

``gravity`` (one tank: water wets its row and below, air dries its row and above) is
tried first, then ``subset_sum`` on each clued line, rows top to bottom, then columns
(the line filter of `thermomilp.logic.aquarium_dp`: the cells every surviving
waterline agrees on). Marks that contradict gravity give a ``gravity`` hint naming
the clash (``wrong``), with no cells. Every hint is a `Deduction`.
"""

from __future__ import annotations

from typing import Mapping

from thermomilp.core.notation import cell_name, row_name, vessel_name
from thermomilp.core.puzzle import Cell, Puzzle, Vessel, require_levels
from thermomilp.logic.aquarium_dp import Line, WaterlineDP, filter_line
from thermomilp.logic.deduction import Deduction

RULES = ("gravity", "subset_sum")


def _domain(vessel: Vessel, marks: Mapping[Cell, int]) -> int:
    lo, hi = 0, vessel.depth
    for k, layer in enumerate(vessel.layers, start=1):
        for cell in layer:
            if cell in marks:
                if marks[cell]:
                    lo = max(lo, k)
                else:
                    hi = min(hi, k - 1)
    return sum(1 << level for level in range(lo, hi + 1))


def _decided(vessel: Vessel, domain: int) -> dict[Cell, int]:
    """Cells on which every level of ``domain`` agrees."""
    lo, hi = (domain & -domain).bit_length() - 1, domain.bit_length() - 1
    out: dict[Cell, int] = {}
    for k, layer in enumerate(vessel.layers, start=1):
        if k <= lo or k > hi:
            for cell in layer:
                out[cell] = int(k <= lo)
    return out


def _new(decided: dict[Cell, int], marks: Mapping[Cell, int]) -> dict[Cell, int]:
    return {cell: v for cell, v in decided.items() if cell not in marks}


def _clash(puzzle: Puzzle, vessel: Vessel, marks: Mapping[Cell, int]) -> Deduction:
    wet = [c for layer in vessel.layers for c in layer if marks.get(c) == 1]
    dry = [c for layer in vessel.layers for c in layer if marks.get(c) == 0]
    rank = puzzle.rank_of
    high_wet = max(wet, key=lambda c: rank[c][1])
    low_dry = min(dry, key=lambda c: rank[c][1])
    return Deduction("gravity", (),
                     f"{vessel_name(puzzle.kind, vessel.label)}: water at {cell_name(high_wet)} "
                     f"cannot stand above or level with air at {cell_name(low_dry)}; one of "
                     "these marks is wrong",
                     vessel=vessel.label, wrong=(high_wet, low_dry))


def next_hint(puzzle: Puzzle, marks: Mapping[Cell, int]) -> Deduction | None:
    """The next deduction from ``marks``, or None when these two rules find nothing."""
    require_levels(puzzle, "the Aquarium hints")
    domains = [_domain(v, marks) for v in puzzle.vessels]
    for vessel, domain in zip(puzzle.vessels, domains, strict=True):
        if not domain:
            return _clash(puzzle, vessel, marks)
    for vessel, domain in zip(puzzle.vessels, domains, strict=True):
        new = _new(_decided(vessel, domain), marks)
        if new:
            rank = puzzle.rank_of
            mine = [c for c in vessel.cells if c in marks]
            why = []
            if any(new.values()):
                source = max((c for c in mine if marks[c]), key=lambda c: rank[c][1])
                why.append(f"water at {cell_name(source)} fills every cell of the tank in "
                           f"{row_name(source[0])} and below")
            if not all(new.values()):
                source = min((c for c in mine if not marks[c]), key=lambda c: rank[c][1])
                why.append(f"air at {cell_name(source)} empties every cell of the tank in "
                           f"{row_name(source[0])} and above")
            return Deduction("gravity", tuple(sorted(new.items())),
                             f"gravity in {vessel_name(puzzle.kind, vessel.label)}: "
                             + "; ".join(why),
                             vessel=vessel.label)
    dp = WaterlineDP(puzzle)
    for line in dp.lines:
        kept = filter_line(line, domains)
        if kept is None:
            return Deduction("subset_sum", (),
                             f"{line.name} (clue {line.clue}): no choice of waterlines of the "
                             "tanks crossing it adds up to the clue; some mark is wrong",
                             line=line.name,
                             wrong=_marked_on(line, marks))
        decided: dict[Cell, int] = {}
        for v, mask in zip(line.vessels, kept, strict=True):
            decided.update(_new(_decided(puzzle.vessels[v], mask), marks))
        if decided:
            tanks = ", ".join(puzzle.vessels[v].label for v in line.vessels)
            return Deduction("subset_sum", tuple(sorted(decided.items())),
                             f"{line.name} (clue {line.clue}) is a subset sum over the tanks "
                             f"crossing it ({tanks}): only some waterlines can make "
                             f"{line.clue}, and they all agree on {len(decided)} cell(s)",
                             line=line.name)
    return None


def _marked_on(line: Line, marks: Mapping[Cell, int]) -> tuple[Cell, ...]:
    """The marked cells of a line, in order: one of them is wrong."""
    pos = 0 if line.axis == "row" else 1
    return tuple(sorted(c for c in marks if c[pos] == line.index))
