"""Why a board has no solution: an irreducible infeasible subset of its rules
(docs/infeasibility.md, "Parts and the deletion filter", with the proof).

The rules of a board come in **parts**: each clued row, each clued column, and each
vessel's fill order. The deletion filter (Chinneck & Dravnieks 1991) drops each part in
turn, vessels first (so that an explanation that needs only clue arithmetic names no
vessel), then rows, then columns, and keeps it out while the rest stays infeasible. Each
test goes through the solve layer's facade (`thermomilp.solving.engine.is_feasible`); the
filter stops at the board's deadline. A subset of parts is itself a
[`Puzzle`][thermomilp.core.puzzle.Puzzle] (`restrict`: missing clues, dropped vessels
split into one-cell vessels), which anybody can re-check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Literal

from thermomilp.core.deadline import Deadline
from thermomilp.core.notation import column_name, row_name
from thermomilp.core.puzzle import Puzzle, Vessel
from thermomilp.core.settings import Settings, settings_from
from thermomilp.solving.confirm import clue_sums_disagree
from thermomilp.solving.engine import SolveError
from thermomilp.solving.engine import is_feasible as decide

PartKind = Literal["row", "column", "thermometer", "tank"]


@dataclass(frozen=True)
class Part:
    """One rule group of a board: a clued line or one vessel's fill order."""

    kind: PartKind
    index: int
    clue: int | None = None
    label: str | None = None

    def __str__(self) -> str:
        """The part as a person reads it: lines counted from 1, a vessel by its label
        (``index`` stays 0-based, as in the JSON record)."""
        if self.kind == "row":
            return f"{row_name(self.index)} (clue {self.clue})"
        if self.kind == "column":
            return f"{column_name(self.index)} (clue {self.clue})"
        return f"{self.kind} {self.label}"  # a vessel by its label (thermometers from 1)

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {"kind": self.kind, "index": self.index}
        if self.kind in ("row", "column"):
            record["clue"] = self.clue
        else:
            record["label"] = self.label
        return record


def parts_of(puzzle: Puzzle) -> tuple[Part, ...]:
    """Every part that constrains the board: vessels with more than one cell, clued lines."""
    vessel_kind: PartKind = "thermometer" if puzzle.kind == "thermometers" else "tank"
    vessels = [Part(vessel_kind, v, label=vessel.label) for v, vessel in enumerate(puzzle.vessels)
               if len(vessel.cells) > 1]
    rows = [Part("row", i, clue) for i, clue in enumerate(puzzle.rows) if clue is not None]
    cols = [Part("column", j, clue) for j, clue in enumerate(puzzle.cols) if clue is not None]
    return tuple(vessels + rows + cols)


def restrict(puzzle: Puzzle, parts: Iterable[Part]) -> Puzzle:
    """The board with only ``parts`` as rules: other clues missing, other vessels split."""
    keep = set(parts)
    rows = tuple(clue if Part("row", i, clue) in keep else None
                 for i, clue in enumerate(puzzle.rows))
    cols = tuple(clue if Part("column", j, clue) in keep else None
                 for j, clue in enumerate(puzzle.cols))
    vessel_kind: PartKind = "thermometer" if puzzle.kind == "thermometers" else "tank"
    vessels: list[Vessel] = []
    for v, vessel in enumerate(puzzle.vessels):
        if Part(vessel_kind, v, label=vessel.label) in keep or len(vessel.cells) == 1:
            vessels.append(vessel)
        else:
            vessels.extend(Vessel(f"{vessel.label}.{k}", ((cell,),))
                           for k, cell in enumerate(vessel.cells))
    return Puzzle(puzzle.kind, rows, cols, tuple(vessels), puzzle.name, puzzle.source,
                  rule=puzzle.rule)


def find_conflict(puzzle: Puzzle, *, settings: Settings | None = None,
                  deadline: Deadline | None = None,
                  engine_calls: list[int] | None = None) -> tuple[Part, ...] | None:
    """An irreducible infeasible subset of the board's parts; None if the board is
    feasible, or if ``deadline`` runs out (or the engine fails) before the filter ends.
    ``engine_calls``, when given, gets one entry per subset an engine decided."""
    chosen = settings_from(settings)
    calls = engine_calls if engine_calls is not None else []
    current = list(parts_of(puzzle))

    def feasible(parts: list[Part]) -> bool:
        answer, engine_called = decide(restrict(puzzle, parts), chosen, deadline)
        if engine_called:
            calls.append(1)
        return answer

    if clue_sums_disagree(puzzle):
        # The clue totals alone are contradictory: the filter would drop every
        # vessel, one solve each; drop them at once (the same result).
        current = [p for p in current if p.kind in ("row", "column")]
    try:
        if feasible(current):
            return None
        for part in list(current):
            if deadline is not None and deadline.expired():
                return None
            trial = [p for p in current if p != part]
            if not feasible(trial):
                current = trial
    except SolveError:
        return None
    return tuple(current)


def describe(parts: Iterable[Part]) -> str:
    """``row 3 (clue 5), column 2 (clue 0) and thermometer 7 cannot all hold`` (lines
    counted from 1)."""
    names = [str(p) for p in parts]
    if not names:
        return "the board has no solution even without any clue"
    if len(names) == 1:
        return f"{names[0]} cannot hold"
    return f"{', '.join(names[:-1])} and {names[-1]} cannot all hold"
