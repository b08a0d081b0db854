"""Logic on layer trees: the pool Aquarium rule (one level per body of water).

Under the pool rule a tank is a **tree** of layers
([`thermomilp.core.puzzle.pool_layers`][thermomilp.core.puzzle.pool_layers]): a layer (one body
of water in one row) holds water only when its children, the layers below it that it
would spill into, are full. The state is one value per layer, wet, dry or unknown, and
the rules keep the names of `thermomilp.logic.hints` (``bookkeeping``, ``line_count``,
``chained_count`` by subset sum, ``probe``); what each says on trees: docs/logic.md,
"The pool rule: logic on layer trees". Every rule is sound
(``tests/test_logic_tree.py``). Pair probing is not offered on trees: where probing
stalls the grade is ``search``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping

from thermomilp.core.errors import TimeUp
from thermomilp.core.notation import cell_name, cells_name, line_name, vessel_name
from thermomilp.core.puzzle import Cell, Grid, Puzzle, grid_from_ones
from thermomilp.core.settings import Logic
from thermomilp.logic.mistakes import (
    Completion,
    Mistake,
    line_mistake,
    solution_mistake,
)

UNKNOWN = -1
TREE_CONFLICT = -2  # the broken thing is the tree order (or a layer marked both ways)
State = list[int]  # per global layer: 1 wet, 0 dry, UNKNOWN


class Trees:
    """The layers of every vessel flattened to global ids, with arcs and line counts."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.height, self.width = puzzle.height, puzzle.width
        self.clues: tuple[int | None, ...] = tuple(puzzle.rows) + tuple(puzzle.cols)
        self.cells: list[tuple[Cell, ...]] = []
        self.vessel: list[int] = []
        self.parent: list[int | None] = []
        self.children: list[list[int]] = []
        self.layer_of: dict[Cell, int] = {}
        for v, vessel in enumerate(puzzle.vessels):
            base = len(self.cells)
            below = vessel.children()
            for k, layer in enumerate(vessel.layers):
                p = vessel.parent_of(k)
                self.parent.append(None if p is None else base + p)
                self.children.append([base + h for h in below[k]])
                self.cells.append(layer)
                self.vessel.append(v)
                for cell in layer:
                    self.layer_of[cell] = base + k
        # line_layers[line] = [(layer, number of its cells in the line)]
        self.line_layers: list[list[tuple[int, int]]] = [[] for _ in self.clues]
        self.layer_lines: list[list[int]] = [[] for _ in self.cells]
        for g, layer in enumerate(self.cells):
            count = Counter(line for r, c in layer for line in (r, self.height + c))
            for line, n in sorted(count.items()):
                self.line_layers[line].append((g, n))
                self.layer_lines[g].append(line)

    def line_name(self, line: int) -> str:
        return line_name(line, self.height)

    def layer_name(self, g: int) -> str:
        vessel = self.puzzle.vessels[self.vessel[g]]
        return f"{vessel_name(self.puzzle.kind, vessel.label)} {cells_name(self.cells[g])}"

    def state_of(self, marks: Mapping[Cell, int]) -> State | None:
        """Each layer's value from the marks; None when a layer is marked both ways."""
        state = [UNKNOWN] * len(self.cells)
        for cell, value in marks.items():
            g = self.layer_of[cell]
            if state[g] not in (UNKNOWN, value):
                return None
            state[g] = value
        return state

    def solution(self, state: State) -> Grid:
        """A decided state as a solution grid ('#' filled, '.' empty)."""
        wet = (cell for g, layer in enumerate(self.cells) if state[g] == 1 for cell in layer)
        return grid_from_ones(self.height, self.width, wet)


# -- The propagators (each returns the changed layers, or None on a contradiction) ---


def gravity(t: Trees, state: State, start: list[int] | None = None) -> list[int] | None:
    """Close ``state`` under the tree order: wet ⇒ children wet, dry ⇒ parent dry."""
    todo = [g for g in (range(len(state)) if start is None else start) if state[g] != UNKNOWN]
    changed = []
    while todo:
        g = todo.pop()
        parent = t.parent[g]
        nexts = t.children[g] if state[g] == 1 else ([parent] if parent is not None else [])
        for h in nexts:
            if state[h] == UNKNOWN:
                state[h] = state[g]
                changed.append(h)
                todo.append(h)
            elif state[h] != state[g]:
                return None
    return changed


def revise_line(t: Trees, state: State, line: int) -> list[int] | None:
    """Subset-sum reasoning on one clued line: the layers it decides (applied), or None."""
    clue = t.clues[line]
    if clue is None:
        return []
    need = clue
    open_: list[tuple[int, int]] = []
    for g, n in t.line_layers[line]:
        if state[g] == 1:
            need -= n
        elif state[g] == UNKNOWN:
            open_.append((g, n))
    if need < 0:
        return None
    sizes = [n for _, n in open_]
    # prefix[i] = sums of sizes[:i]; suffix[i] = sums of sizes[i:] (bitsets up to need)
    bits = (1 << (need + 1)) - 1
    prefix = [1]
    for n in sizes:
        prefix.append((prefix[-1] | (prefix[-1] << n)) & bits)
    if not prefix[-1] >> need & 1:
        return None
    suffix = [1] * (len(sizes) + 1)
    for i in range(len(sizes) - 1, -1, -1):
        suffix[i] = (suffix[i + 1] | (suffix[i + 1] << sizes[i])) & bits
    changed = []
    for i, (g, n) in enumerate(open_):
        a, b = prefix[i], suffix[i + 1]
        # can the others make need (i dry) / need - n (i wet)?
        dry_ok = _meets(a, b, need)
        wet_ok = n <= need and _meets(a, b, need - n)
        if not dry_ok:
            state[g] = 1
            changed.append(g)
        elif not wet_ok:
            state[g] = 0
            changed.append(g)
    return changed


def _meets(a: int, b: int, target: int) -> bool:
    """Some x in bitset a and y in bitset b with x + y == target."""
    return any(a >> x & 1 and b >> (target - x) & 1 for x in range(target + 1))


def propagate_trees(t: Trees, state: State, start: list[int] | None = None) -> int | None:
    """Run gravity and every line to a fixpoint in place. Returns None when consistent, else
    the broken line (or `TREE_CONFLICT`)."""
    changed = gravity(t, state, start)
    if changed is None:
        return TREE_CONFLICT
    lines = set(range(len(t.clues))) if start is None else {
        line for g in list(start) + changed for line in t.layer_lines[g]}
    while lines:
        line = lines.pop()
        moved = revise_line(t, state, line)
        if moved is None:
            return line
        if not moved:
            continue
        more = gravity(t, state, moved)
        if more is None:
            return TREE_CONFLICT
        for g in moved + more:
            lines.update(t.layer_lines[g])
    return None


def probe(t: Trees, state: State, g: int, value: int) -> int | None:
    """The thing broken when layer ``g`` is assumed ``value`` (None: no contradiction)."""
    trial = state.copy()
    trial[g] = value
    return propagate_trees(t, trial, [g])


def probe_trees(t: Trees, state: State, stop: Callable[[], bool] | None = None) -> bool:
    """Propagate, then probe every open layer both ways until nothing changes; False when
    the board has no solution. ``stop()`` true raises
    [`thermomilp.core.deadline.TimeUp`][thermomilp.core.errors.TimeUp]."""
    if propagate_trees(t, state) is not None:
        return False
    moved = True
    while moved:
        moved = False
        for g in range(len(state)):
            if state[g] != UNKNOWN:
                continue
            if stop is not None and stop():
                raise TimeUp("probing ran out of time")
            for value in (1, 0):
                if probe(t, state, g, value) is not None:
                    state[g] = 1 - value
                    if propagate_trees(t, state, [g]) is not None:
                        return False
                    moved = True
                    break
    return True


def search_trees(puzzle: Puzzle, limit: int | None = None,
                 marks: Mapping[Cell, int] | None = None,
                 stop: Callable[[], bool] | None = None) -> Iterator[Grid]:
    """Every solution agreeing with ``marks`` (at most ``limit``): propagation and branching
    on a layer. Each yielded grid satisfies every clue and the tree order. ``stop`` is
    asked at every node (a `Work` raises when its budget
    is spent); its True raises [`TimeUp`][thermomilp.core.errors.TimeUp]."""
    t = Trees(puzzle)
    start = t.state_of(marks or {})
    if start is None:
        return
    found = 0

    def rec(state: State) -> Iterator[Grid]:
        nonlocal found
        if stop is not None and stop():
            raise TimeUp("the deadline passed during the tree search")
        if propagate_trees(t, state) is not None:
            return
        open_ = [g for g, s in enumerate(state) if s == UNKNOWN]
        if not open_:
            found += 1
            yield t.solution(state)
            return
        for value in (1, 0):
            trial = state.copy()
            trial[open_[0]] = value
            yield from rec(trial)
            if limit is not None and found >= limit:
                return

    yield from rec(start)


def completion(puzzle: Puzzle) -> Completion:
    """The default mistake oracle on trees: a solution agreeing with the marks, or None."""
    return lambda marks: next(iter(search_trees(puzzle, 1, marks)), None)


def tree_mistake(puzzle: Puzzle, marks: Mapping[Cell, int]) -> Mistake | None:
    """A tank whose marks break its tree: a row's body of water partly wet, or water
    above air it would spill into."""
    t = Trees(puzzle)
    value: dict[int, tuple[int, Cell]] = {}
    for cell, v in sorted(marks.items()):
        g = t.layer_of[cell]
        if g in value and value[g][0] != v:
            other = value[g][1]
            wet, dry = (cell, other) if v else (other, cell)
            name = vessel_name(puzzle.kind, puzzle.vessels[t.vessel[g]].label)
            return Mistake((wet, dry), f"{cell_name(wet)} is water but {cell_name(dry)} "
                           f"in the same body of water of {name} is marked air: a body of "
                           "water is level; one of these marks is wrong", "rules", vessel=name)
        value.setdefault(g, (v, cell))
    for g, (v, cell) in sorted(value.items()):
        if v != 1:
            continue
        todo = list(t.children[g])
        while todo:
            h = todo.pop()
            if h in value and value[h][0] == 0:
                dry = value[h][1]
                name = vessel_name(puzzle.kind, puzzle.vessels[t.vessel[g]].label)
                return Mistake((cell, dry), f"{cell_name(cell)} is water but "
                               f"{cell_name(dry)} below it in {name} is marked air: the "
                               "water would run down into it; one of these marks is wrong",
                               "rules", vessel=name)
            todo.extend(t.children[h])
    return None


def find_mistake(puzzle: Puzzle, marks: Mapping[Cell, int],
                 complete: Completion | None = None) -> Mistake | None:
    """`thermomilp.logic.mistakes.find_mistake` for layer trees."""
    if not marks:
        return None
    found = tree_mistake(puzzle, marks) or line_mistake(puzzle, marks)
    if found:
        return found
    if complete is not None:  # the caller's oracle: uniqueness is not asked
        return solution_mistake(puzzle, marks, complete)
    return solution_mistake(puzzle, marks, completion(puzzle),
                            lambda: sum(1 for _ in search_trees(puzzle, 2)) == 1)


# -- Grade and presolve ----------------------------------------------------


def grade(puzzle: Puzzle, stop: Callable[[], bool] | None = None) -> str:
    """``intervals`` (gravity and lines finish it or prove it infeasible), ``probing``
    or ``search`` -- the grade names of `thermomilp.logic.grade`."""
    t = Trees(puzzle)
    state = [UNKNOWN] * len(t.cells)
    if propagate_trees(t, state) is not None or UNKNOWN not in state:
        return "intervals"
    if not probe_trees(t, state, stop) or UNKNOWN not in state:
        return "probing"
    return "search"


def presolve_trees(puzzle: Puzzle, mode: Logic, stop: Callable[[], bool] | None = None
                   ) -> tuple[dict[Cell, int] | None, Grid | None, str]:
    """[`thermomilp.logic.presolve.presolve_cells`][thermomilp.logic.presolve.presolve_cells] for
    layer trees."""
    t = Trees(puzzle)
    state = [UNKNOWN] * len(t.cells)
    ok = (propagate_trees(t, state) is None if mode is Logic.INTERVALS
          else probe_trees(t, state, stop))
    if not ok:
        return None, None, "infeasible"
    fixed = {cell: state[g] for g, layer in enumerate(t.cells) if state[g] != UNKNOWN
             for cell in layer}
    if UNKNOWN not in state:
        return fixed, t.solution(state), "solved"
    return fixed, None, "open"
