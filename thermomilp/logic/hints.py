"""Hints and step-by-step explanations, each step naming the rule that fired
(docs/logic.md, "Hints and explanations").

The state is the level domain of every vessel plus the cells *written* (marks and
earlier steps); the next step is the first rule of `RULES`, simplest first, that
decides something new, else a terminal one of `TERMINAL`. Steps that only erase an
inner level are reported too, with no cells, so an explanation never hides a deduction.
"""

from __future__ import annotations

from typing import Mapping

from thermomilp.core.notation import vessel_name
from thermomilp.core.puzzle import Cell, Grid, Puzzle
from thermomilp.logic.deduction import Deduction
from thermomilp.logic.domains import (
    UNKNOWN,
    Domains,
    LineTables,
    cell_states,
    clamp_with_marks,
    full_domains,
    is_decided,
    levels_in,
    line_tables,
)
from thermomilp.logic.marks import marks_grid
from thermomilp.logic.mistakes import Completion, find_mistake, line_cells
from thermomilp.logic.pairs import pair_refutation
from thermomilp.logic.propagation import OK, propagate_conflict, revise_line
from thermomilp.logic.steps import (
    RULES,
    TERMINAL,
    Explanation,
    Stepper,
    line_count_step,
    mistake_of,
    run_explanation,
)
from thermomilp.logic.steps import cells_text as _cells_text


def _vessel_name(puzzle: Puzzle, v: int) -> str:
    return vessel_name(puzzle.kind, puzzle.vessels[v].label)


class _Solver:
    """Domains plus written cells; `step` finds and applies the next deduction."""

    def __init__(self, puzzle: Puzzle, marks: Mapping[Cell, int], pairs: bool = True):
        self.puzzle = puzzle
        self.pairs = pairs  # offer pair probing
        self.tables: LineTables = line_tables(puzzle)
        self.dom: Domains = full_domains(self.tables)
        self.written: dict[Cell, int] = dict(marks)
        self.broken = not clamp_with_marks(self.tables, self.dom, marks)

    # -- helpers ---------------------------------------------------------
    def _new_cells(self, dom: Domains) -> tuple[tuple[Cell, int], ...]:
        states = cell_states(self.tables, dom)
        return tuple((cell, s) for cell, s in sorted(states.items())
                     if s != UNKNOWN and cell not in self.written)

    def _apply(self, step: Deduction, dom: Domains | None = None) -> Deduction:
        if dom is not None:
            self.dom = dom
        for cell, value in step.cells:
            self.written[cell] = value
        return step

    # -- rules -----------------------------------------------------------
    def _contradiction(self) -> Deduction | None:
        if self.broken:
            return Deduction("contradiction", (), "the marks break a vessel's order: a filled "
                             "cell sits above an empty cell of the same vessel")
        for line, clue in enumerate(self.tables.clues):
            if clue is None:
                continue
            values = [self.written.get(cell, UNKNOWN) for cell in line_cells(self.puzzle, line)]
            filled, open_ = values.count(1), values.count(UNKNOWN)
            name = self.tables.line_name(line)
            if filled > clue:
                return Deduction("contradiction", (), f"{name} has {filled} filled cells but "
                                 f"its clue is {clue}", line=name)
            if filled + open_ < clue:
                return Deduction("contradiction", (), f"{name} can reach at most "
                                 f"{filled + open_} filled cells but its clue is {clue}",
                                 line=name)
            if revise_line(self.tables, self.dom.copy(), line) is None:
                return Deduction("contradiction", (), f"the vessels crossing {name} cannot add "
                                 f"up to its clue {clue}", line=name)
        return None

    def _bookkeeping(self) -> Deduction | None:
        states = cell_states(self.tables, self.dom)
        for v, cells in enumerate(self.tables.vessel_cells):
            new = tuple((cell, states[cell]) for cell, _ in cells
                        if states[cell] != UNKNOWN and cell not in self.written)
            if new:
                name = _vessel_name(self.puzzle, v)
                why = ("mercury below mercury, empty above empty"
                       if self.puzzle.kind == "thermometers"
                       else "one flat waterline: water below and beside water, air above air")
                return self._apply(Deduction("bookkeeping", new,
                                             f"{name}: {why}: {_cells_text(new)}", vessel=name))
        return None

    def _line_count(self) -> Deduction | None:
        step = line_count_step(self.puzzle, self.written)
        if step is None:
            return None
        dom = self.dom.copy()
        clamp_with_marks(self.tables, dom, dict(step.cells))
        return self._apply(step, dom)

    def _chained_count(self, need_cells: bool) -> Deduction | None:
        for line, clue in enumerate(self.tables.clues):
            if clue is None:
                continue
            dom = self.dom.copy()
            changed = revise_line(self.tables, dom, line)
            if not changed:
                continue
            new = self._new_cells(dom)
            if need_cells and not new:
                continue
            name = self.tables.line_name(line)
            who = ", ".join(_vessel_name(self.puzzle, v) for v in changed)
            text = (f"{name} (clue {clue}): counting what each vessel crossing it can still "
                    f"add bounds {who}")
            text += f": {_cells_text(new)}" if new else " (an inner level is ruled out)"
            return self._apply(Deduction("chained_count", new, text, line=name, vessel=who), dom)
        return None

    def _erasures(self, refute, need_cells: bool):
        """Each open level ``refute(v, level)`` condemns (its reason, not None), with the
        vessel's name, the domains after erasing it, the cells that decides and the end of
        a text naming them (empty when none); only those that decide a cell when
        ``need_cells``."""
        for v, mask in enumerate(self.dom):
            if not mask & (mask - 1):
                continue
            for level in levels_in(mask):
                reason = refute(v, level)
                if reason is None:
                    continue
                dom = self.dom.copy()
                dom[v] &= ~(1 << level)
                new = self._new_cells(dom)
                if need_cells and not new:
                    continue
                tail = f": {_cells_text(new)}" if new else ""
                yield _vessel_name(self.puzzle, v), level, reason, dom, new, tail

    def _probe(self, need_cells: bool) -> Deduction | None:
        t = self.tables

        def refute(v: int, level: int) -> int | None:
            trial = self.dom.copy()
            trial[v] = 1 << level
            broken = propagate_conflict(t, trial, t.vessel_lines[v])
            return None if broken == OK else broken

        for name, level, broken, dom, new, tail in self._erasures(refute, need_cells):
            text = (f"if {name} stood at level {level}, propagation would break "
                    f"{t.line_name(broken)}; so level {level} is impossible{tail}")
            return self._apply(Deduction("probe", new, text, line=t.line_name(broken),
                                         vessel=name, levels_out=(level,)), dom)
        return None

    def _pair_probe(self, need_cells: bool, wide: bool) -> Deduction | None:
        t = self.tables

        def refute(v: int, level: int):
            ref = pair_refutation(t, self.dom, v, level, wide)
            return ref if ref is not None and ref.partner >= 0 else None

        for name, level, ref, dom, new, tail in self._erasures(refute, need_cells):
            other = _vessel_name(self.puzzle, ref.partner)
            breaks = ", ".join(f"level {b} breaks {t.line_name(line)}" for b, line in ref.breaks)
            text = (f"if {name} stood at level {level}, {other} could stand at no level "
                    f"({breaks}, each after propagation); so level {level} of {name} "
                    f"is impossible{tail}")
            return self._apply(Deduction("pair_probe", new, text,
                                         line=t.line_name(ref.breaks[0][1]),
                                         vessel=f"{name}, {other}", levels_out=(level,)), dom)
        return None

    def step(self) -> Deduction:
        """Apply and return the next deduction, or a terminal step (not applied)."""
        found = self._bookkeeping() if not self.broken else None
        if found:
            return found
        wrong = self._contradiction()
        if wrong:
            return wrong
        cells = self.tables.height * self.tables.width
        if is_decided(self.dom) and len(self.written) == cells:
            return Deduction("solved", (), "every cell is decided")
        rules = [self._line_count, lambda: self._chained_count(True),
                 lambda: self._chained_count(False), lambda: self._probe(True),
                 lambda: self._probe(False)]
        if self.pairs:
            rules += [lambda: self._pair_probe(True, False), lambda: self._pair_probe(False, False),
                      lambda: self._pair_probe(True, True), lambda: self._pair_probe(False, True)]
        for rule in rules:
            found = rule()
            if found:
                return found
        undecided = cells - len(self.written)
        return Deduction("stalled", (), f"no rule decides anything more: {undecided} cells are "
                         "undecided; the rest needs search (trying a level and backtracking)")

    def board(self) -> Grid:
        return marks_grid(self.puzzle, self.written)


def _solver(puzzle: Puzzle, marks: Mapping[Cell, int] | None, pairs: bool = True) -> Stepper:
    """The stepper of ``puzzle``; layer trees (the pool rule) have their own
    (`thermomilp.logic.tree_hints`, without pair probing)."""
    if puzzle.all_chains:
        return _Solver(puzzle, marks or {}, pairs)
    from thermomilp.logic.tree_hints import TreeSolver
    return TreeSolver(puzzle, marks or {})


def mistake_step(puzzle: Puzzle, marks: Mapping[Cell, int] | None,
                 complete: Completion | None = None) -> Deduction | None:
    """The terminal ``mistake`` step naming a wrong mark, or None when none is wrong."""
    if puzzle.all_chains:
        return mistake_of(find_mistake(puzzle, marks or {}, complete))
    from thermomilp.logic import tree
    return mistake_of(tree.find_mistake(puzzle, marks or {}, complete))


def next_hint(puzzle: Puzzle, marks: Mapping[Cell, int] | None = None,
              complete: Completion | None = None, pairs: bool = True,
              checked: bool = False) -> Deduction:
    """The next deduction from ``marks`` (cell -> 1 filled / 0 empty).

    The marks are checked first (`mistake_step`): a wrong mark ends the
    hint with the terminal ``mistake`` step, and nothing is deduced from it.
    ``complete`` is the oracle for the check against the solution (default:
    the logic's own search). ``pairs=False`` leaves out pair probing (a caller
    that must answer quickly on a large board); ``checked=True`` says the caller
    has already checked the marks (the page, with the MILP).

    A step that only erases an inner level (no cell) cannot be written as a
    mark, so the hint runs on to the first step that sets a cell, and reports
    that one; the inner erasures it needed are folded into its text.
    """
    wrong = None if checked else mistake_step(puzzle, marks, complete)
    if wrong is not None:
        return wrong
    solver = _solver(puzzle, marks, pairs)
    quiet: list[Deduction] = []
    while True:
        step = solver.step()
        if step.cells or step.rule in TERMINAL:
            if quiet and step.rule not in TERMINAL:
                why = "; ".join(s.text for s in quiet)
                step = Deduction(step.rule, step.cells, f"{step.text} (after: {why})", step.line,
                                 step.vessel, step.levels_out)
            return step
        quiet.append(step)


def explain(puzzle: Puzzle, marks: Mapping[Cell, int] | None = None,
            max_steps: int = 100_000, complete: Completion | None = None) -> Explanation:
    """Every step of the logical solution, until solved, stalled or a contradiction.

    A wrong mark (`mistake_step`) ends it before the first step. A board
    with layer trees (the pool rule) is explained by `thermomilp.logic.tree_hints`.
    """
    return run_explanation(_solver(puzzle, marks), mistake_step(puzzle, marks, complete),
                           max_steps)


def render_step(n: int | None, step: Deduction) -> str:
    head = f"{n}. " if n is not None else ""
    return f"{head}[{step.rule}] {step.text}"


def render_explanation(explanation: Explanation) -> str:
    lines = [render_step(i, s) for i, s in enumerate(explanation.steps, start=1)]
    if explanation.final is not None:
        lines.append(render_step(None, explanation.final))
    counts = ", ".join(f"{r} {sum(s.rule == r for s in explanation.steps)}" for r in RULES)
    lines.append(f"status: {explanation.status} ({len(explanation.steps)} steps: {counts})")
    lines.extend(explanation.grid)
    return "\n".join(lines)
