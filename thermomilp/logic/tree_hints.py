"""Hints and explanations on layer trees (the pool Aquarium rule).

The same steps, rule names and terminal states as `thermomilp.logic.hints`
(``bookkeeping``, ``line_count``, ``chained_count``, ``probe``; ``solved``,
``stalled``, ``contradiction``, ``mistake``), driven by the layer-tree
propagators of `thermomilp.logic.tree`. The state is the cells written so
far (marks and earlier steps); a layer is decided when one of its cells is.
`thermomilp.logic.hints` steps a board with `TreeSolver` when some vessel is a tree.
"""

from __future__ import annotations

from collections.abc import Mapping

from thermomilp.core.notation import vessel_name
from thermomilp.core.puzzle import Cell, Grid, Puzzle
from thermomilp.logic.deduction import Deduction
from thermomilp.logic.marks import marks_grid
from thermomilp.logic.steps import cells_text as _cells_text
from thermomilp.logic.steps import line_count_step
from thermomilp.logic.tree import (
    TREE_CONFLICT,
    UNKNOWN,
    State,
    Trees,
    gravity,
    probe,
    revise_line,
)


class TreeSolver:
    """The written cells of a board with layer trees; `step` finds and applies the next
    deduction."""

    def __init__(self, puzzle: Puzzle, marks: Mapping[Cell, int]):
        self.puzzle = puzzle
        self.t = Trees(puzzle)
        self.written: dict[Cell, int] = dict(marks)

    def _new(self, state: State, layers) -> tuple[tuple[Cell, int], ...]:
        return tuple(sorted((cell, state[g]) for g in layers for cell in self.t.cells[g]
                            if state[g] != UNKNOWN and cell not in self.written))

    def _apply(self, step: Deduction) -> Deduction:
        for cell, value in step.cells:
            self.written[cell] = value
        return step

    def _contradiction(self, state: State | None) -> Deduction | None:
        if state is None or gravity(self.t, state.copy()) is None:
            return Deduction("contradiction", (), "the marks break a tank's order: water "
                             "beside or above air it would run into")
        for line, clue in enumerate(self.t.clues):
            if clue is not None and revise_line(self.t, state.copy(), line) is None:
                name = self.t.line_name(line)
                return Deduction("contradiction", (), f"the bodies of water crossing {name} "
                                 f"cannot add up to its clue {clue}", line=name)
        return None

    def _bookkeeping(self, state: State) -> Deduction | None:
        after = state.copy()
        gravity(self.t, after)
        for v, vessel in enumerate(self.puzzle.vessels):
            layers = [g for g in range(len(after)) if self.t.vessel[g] == v]
            new = self._new(after, layers)
            if new:
                name = vessel_name(self.puzzle.kind, vessel.label)
                return self._apply(Deduction(
                    "bookkeeping", new, f"{name}: a body of water is level, and water rests "
                    f"only on water (never above air it would run into): {_cells_text(new)}",
                    vessel=name))
        return None

    def _line_count(self) -> Deduction | None:
        step = line_count_step(self.puzzle, self.written)
        return None if step is None else self._apply(step)

    def _chained_count(self, state: State) -> Deduction | None:
        for line, clue in enumerate(self.t.clues):
            after = state.copy()
            moved = revise_line(self.t, after, line) if clue is not None else None
            if not moved:
                continue
            name = self.t.line_name(line)
            new = self._new(after, moved)
            text = (f"{name} (clue {clue}): the undecided bodies of water crossing it can add "
                    f"only these sums of their cells there, which decides {len(moved)} of them: "
                    f"{_cells_text(new)}")
            return self._apply(Deduction("chained_count", new, text, line=name))
        return None

    def _probe(self, state: State) -> Deduction | None:
        for g, s in enumerate(state):
            if s != UNKNOWN:
                continue
            for value in (1, 0):
                broken = probe(self.t, state, g, value)
                if broken is None:
                    continue
                after = state.copy()
                after[g] = 1 - value
                new = self._new(after, [g])
                what = self.t.line_name(broken) if broken != TREE_CONFLICT else "a tank's order"
                layer = self.t.layer_name(g)
                text = (f"if the water of {layer} were {'wet' if value else 'dry'}, propagation "
                        f"would break {what}; so it is {'dry' if value else 'wet'}: "
                        f"{_cells_text(new)}")
                vessel = vessel_name(self.puzzle.kind, self.puzzle.vessels[self.t.vessel[g]].label)
                return self._apply(Deduction("probe", new, text, vessel=vessel,
                                             line=None if broken == TREE_CONFLICT else what))
        return None

    def step(self) -> Deduction:
        state = self.t.state_of(self.written)
        wrong = self._contradiction(state)
        if wrong or state is None:
            return wrong  # type: ignore[return-value]
        found = self._bookkeeping(state)
        if found:
            return found
        if len(self.written) == self.t.height * self.t.width:
            return Deduction("solved", (), "every cell is decided")
        found = self._line_count() or self._chained_count(state) or self._probe(state)
        if found:
            return found
        undecided = self.t.height * self.t.width - len(self.written)
        return Deduction("stalled", (), f"no rule decides anything more: {undecided} cells are "
                         "undecided; the rest needs search (trying a body of water and "
                         "backtracking)")

    def board(self) -> Grid:
        return marks_grid(self.puzzle, self.written)
