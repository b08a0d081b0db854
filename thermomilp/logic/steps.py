"""The explanation type and the rules every hint engine shares (`thermomilp.logic.hints`
on chains, `thermomilp.logic.tree_hints` on layer trees), with the stable rule names;
each step is a [`Deduction`][thermomilp.logic.deduction.Deduction]."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from thermomilp.core.notation import UNDECIDED, cell_name, line_name
from thermomilp.core.puzzle import Cell, Grid, Puzzle
from thermomilp.logic.deduction import Deduction
from thermomilp.logic.mistakes import Mistake, line_cells

RULES = ("bookkeeping", "line_count", "chained_count", "probe", "pair_probe")
TERMINAL = ("solved", "stalled", "contradiction", "mistake")


@dataclass(frozen=True)
class Explanation:
    """A whole logical solution: the steps, how it ended, and the board reached."""

    status: str  # solved | stalled | contradiction | mistake
    steps: tuple[Deduction, ...]
    grid: Grid  # the marks notation (core.notation): '#' filled, '.' empty, '?' undecided
    final: Deduction = field(repr=False, default=None)  # type: ignore[assignment]

    @property
    def undecided(self) -> int:
        return sum(row.count(UNDECIDED) for row in self.grid)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "steps": [s.to_json() for s in self.steps],
                "grid": list(self.grid), "undecided": self.undecided,
                "rules": {r: sum(s.rule == r for s in self.steps) for r in RULES},
                "final": self.final.to_json() if self.final else None}


def cells_text(cells: tuple[tuple[Cell, int], ...]) -> str:
    """``filled (r,c) ...; empty (r,c) ...`` for a step's cells (counted from 1)."""
    filled = [cell_name(cell) for cell, v in cells if v]
    empty = [cell_name(cell) for cell, v in cells if not v]
    parts = []
    if filled:
        parts.append("filled " + " ".join(filled))
    if empty:
        parts.append("empty " + " ".join(empty))
    return "; ".join(parts)


def line_count_step(puzzle: Puzzle, written: Mapping[Cell, int]) -> Deduction | None:
    """The ``line_count`` rule (not applied): the first clued line whose clue is reached
    (its undecided cells are empty) or needs every undecided cell (they are filled)."""
    for line, clue in enumerate(tuple(puzzle.rows) + tuple(puzzle.cols)):
        if clue is None:
            continue
        cells = line_cells(puzzle, line)
        filled = sum(written.get(c) == 1 for c in cells)
        open_cells = [c for c in cells if c not in written]
        if not open_cells:
            continue
        name = line_name(line, puzzle.height)
        if filled == clue:
            value, why = 0, f"{name} already has its {clue} filled cells"
        elif filled + len(open_cells) == clue:
            value, why = 1, f"{name} needs every undecided cell to reach {clue}"
        else:
            continue
        new = tuple((c, value) for c in open_cells)
        return Deduction("line_count", new, f"{why}: {cells_text(new)}", line=name)
    return None


def mistake_of(found: Mistake | None) -> Deduction | None:
    """A found wrong mark as the terminal ``mistake`` step."""
    if found is None:
        return None
    return Deduction("mistake", (), found.text, line=found.line, vessel=found.vessel,
                wrong=found.cells)


class Stepper(Protocol):
    def step(self) -> Deduction: ...
    def board(self) -> Grid: ...


def run_explanation(solver: Stepper, wrong: Deduction | None, max_steps: int) -> Explanation:
    """Every step of ``solver`` until a terminal one; a ``wrong`` mark ends it at once."""
    if wrong is not None:
        return Explanation("mistake", (), solver.board(), wrong)
    steps: list[Deduction] = []
    for _ in range(max_steps):
        step = solver.step()
        if step.rule in TERMINAL:
            return Explanation(step.rule, tuple(steps), solver.board(), step)
        steps.append(step)
    raise RuntimeError("explanation did not finish")  # every step shrinks a finite state
