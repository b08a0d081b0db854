"""Aquarium boards authored backwards: partition, waterlines, clues, then deletions.

1. **Partition** (`random_tanks`): tanks grown by random frontier growth from
   random seed cells, connected by construction.
2. **Waterlines and full clues** (`planted_aquarium`): a random legal filling
   whose full-clue board is made unique by merging tanks against its rivals
   (else the water, and in the end the partition, is drawn again). A degenerate
   planting (`thermomilp.generate.quality`) is planted again.
3. **Deletions** (`delete_clues`): clues in random order, each deleted while
   the board stays unique. Each survivor is *load-bearing* (deleting clues
   only adds solutions, so a clue needed once is needed at the end).

From ``PEEL_FROM`` on, the tank rule's default is the ``peel`` strategy instead
of step 2 (`peeled_aquarium`): the waterlines a random order of the lines peels
off (`thermomilp.generate.peel`), unique and decided by interval propagation by
construction. Rivals are asked of `RivalSearch` (the subset-sum DP, then the
MILP). Everything is drawn from one ``random.Random`` seeded with the size and
``seed``: the same seed gives the same board.
"""

from __future__ import annotations

import random

from thermomilp.core.deadline import Deadline
from thermomilp.core.errors import GenerationError
from thermomilp.core.puzzle import Cell, Grid, Puzzle, Vessel, aquarium, grid_from_levels, token_id
from thermomilp.generate.aquarium_repair import merge_against, relabel
from thermomilp.generate.aquarium_rivals import RivalSearch
from thermomilp.generate.clues import Clues, Line, thin_clues
from thermomilp.generate.quality import degenerate
from thermomilp.generate.random_board import clues_of
from thermomilp.generate.rivals import _RivalUndecided, check_time, prove_unique

MEAN_TANK_CELLS = 5
LEVEL_TRIES = 8
PARTITION_TRIES = 500
DEGENERATE_TRIES = 50  # plantings turned away as degenerate before giving up
MERGES_PER_RIVAL = 8
STRATEGIES = ("peel", "repair")
# The repair's rival questions grow fast with the size (docs/journal.md, 2026-12-03);
# the peel's board costs one pass over the cells.
PEEL_FROM = 20


def default_strategy(height: int, width: int, rule: str = "tank") -> str:
    return "peel" if rule == "tank" and min(height, width) >= PEEL_FROM else "repair"


def random_tanks(height: int, width: int, rng: random.Random,
                 n_tanks: int | None = None) -> list[list[str]]:
    """A region grid of ``n_tanks`` connected tanks grown from random seeds."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    if n_tanks is None:
        n_tanks = max(1, round(height * width / MEAN_TANK_CELLS))
    n_tanks = min(n_tanks, len(cells))
    owner: dict[Cell, int] = {}
    frontier: list[tuple[int, Cell]] = []

    def claim(tank: int, cell: Cell) -> None:
        owner[cell] = tank
        r, c = cell
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nb[0] < height and 0 <= nb[1] < width and nb not in owner:
                frontier.append((tank, nb))

    for tank, seed_cell in enumerate(rng.sample(cells, n_tanks)):
        claim(tank, seed_cell)
    while frontier:
        k = rng.randrange(len(frontier))
        frontier[k], frontier[-1] = frontier[-1], frontier[k]
        tank, cell = frontier.pop()
        if cell not in owner:
            claim(tank, cell)
    # Label tanks in reading order of their first cell (a stable, readable numbering).
    return relabel([[owner[(r, c)] for c in range(width)] for r in range(height)])


def _random_pool_fill(vessel: Vessel, rng: random.Random) -> list[Cell]:
    """A random legal filling of a pool-rule tank: each layer, top down, is
    either full with everything below it, or dry and its children decide."""
    children = vessel.children()

    def subtree(k: int) -> list[Cell]:
        return list(vessel.layers[k]) + [c for ch in children[k] for c in subtree(ch)]

    def fill(k: int) -> list[Cell]:
        if rng.random() < 1 / (1 + len(children[k])):
            return subtree(k) if rng.random() < 0.5 else []
        return [c for ch in children[k] for c in fill(ch)]

    return fill(vessel.depth - 1)  # the top layer is the last one


def _plant(board: Puzzle, rng: random.Random) -> Grid:
    """A random legal filling: a uniform waterline per tank (tank rule) or a random
    union of layer subtrees per tank (pool rule)."""
    if board.rule == "tank":
        return grid_from_levels(board, [rng.randint(0, v.depth) for v in board.vessels])
    wet = {c for v in board.vessels for c in _random_pool_fill(v, rng)}
    return tuple("".join("#" if (r, c) in wet else "." for c in range(board.width))
                 for r in range(board.height))


def _full_clues(regions: list[list[str]], grid: Grid, rule: str) -> Puzzle:
    rows, cols = clues_of(grid)
    return aquarium(rows, cols, [[token_id(label) for label in line] for line in regions],
                    solution=grid, rule=rule)


def planted_aquarium(height: int, width: int, rng: random.Random,
                     rule: str = "tank", deadline: Deadline | None = None,
                     search: RivalSearch | None = None) -> Puzzle:
    """A board with every clue, made unique by merging tanks against its rivals.

    Each rival found is killed by `merge_against`
    (two neighbouring tanks become one, the planted grid and the clues stay); when
    no merge kills it the water is drawn again, and after ``LEVEL_TRIES`` such
    redraws the partition too.
    """
    search = RivalSearch() if search is None else search
    for _ in range(PARTITION_TRIES):
        check_time(deadline, "planting")
        regions = random_tanks(height, width, rng)
        grid = _plant(aquarium([0] * height, [0] * width, regions, rule=rule), rng)
        redraws = 0
        clean: set = set()
        while redraws < LEVEL_TRIES:
            check_time(deadline, "repair loop")
            puzzle = _full_clues(regions, grid, rule)
            rival = search.window_rival(puzzle, clean)
            if rival is None:
                try:
                    rival = search.rival(puzzle, deadline=deadline)
                except _RivalUndecided:  # HiGHS undecided after every fallback: new tanks
                    search.stats["undecided"] += 1
                    break
            if rival is None:
                return puzzle
            merged = merge_against(regions, grid, rival, rule, rng, MERGES_PER_RIVAL)
            if merged is not None:
                regions = relabel(merged)
            else:
                redraws += 1
                clean = set()
                grid = _plant(puzzle, rng)
    raise GenerationError(f"no unique {height}x{width} Aquarium in {PARTITION_TRIES} partitions")


def peeled_aquarium(height: int, width: int, rng: random.Random) -> Puzzle:
    """Random tanks and the waterlines a random line order peels off, every clue given."""
    from thermomilp.generate.peel import line_order, peel_levels

    regions = random_tanks(height, width, rng)
    board = aquarium([0] * height, [0] * width, regions)
    levels = peel_levels([v.layers for v in board.vessels], height, width,
                         line_order(height, width, rng))
    return _full_clues(regions, grid_from_levels(board, levels), "tank")


def delete_clues(puzzle: Puzzle, rng: random.Random, deadline: Deadline | None = None,
                 search: RivalSearch | None = None, count: int | None = None,
                 proofs: list[str] | None = None) -> Puzzle:
    """Delete clues in random order, keeping a deletion only while exactly one solution
    remains (``puzzle`` must be unique and carry its solution); stop after ``count``
    deletions (None: try every clue). A rival of the board without clue ``l`` must
    move line ``l``'s sum (the board with it was unique), so only such rivals are
    looked for. The logic is asked first: where it decides every cell, no rival
    exists and the search is not asked. ``proofs``, when given, gets "logic" or
    "search" for each deletion that stood."""
    from thermomilp.logic.presolve import logic_finishes

    search = RivalSearch() if search is None else search

    def shown(rows: Clues, cols: Clues, line: Line) -> str | None:
        trial = puzzle.with_clues(rows, cols)
        if trial.all_chains and logic_finishes(trial):
            return "logic"
        try:
            if search.rival(trial, ("row" if line[0] == "r" else "col", line[1]),
                            deadline) is None:
                return "search"
        except _RivalUndecided:  # not shown unique: the clue stays
            search.stats["undecided"] += 1
        return None

    rows, cols, made = thin_clues(puzzle.rows, puzzle.cols, rng, shown, count=count,
                                  deadline=deadline)
    if proofs is not None:
        proofs += made
    return puzzle.with_clues(rows, cols)


def generate_aquarium(height: int, width: int, seed: int | None = None,
                      minimal_clues: bool = True, rule: str = "tank",
                      time_limit: float | None = None, missing_clues: int = 0,
                      strategy: str | None = None) -> Puzzle:
    """A uniquely solvable Aquarium with its solution attached.

    Args:
        height: board height in rows (at least 1).
        width: board width in columns (at least 1).
        seed: the same seed gives the same board; ``None`` draws one (it is
            recorded in the puzzle's name either way).
        minimal_clues: delete clues while the board stays unique (every
            surviving clue is then load-bearing); ``False`` keeps all clues
            (or deletes ``missing_clues`` of them, each keeping the board unique).
        rule: ``tank`` (one waterline per tank) or ``pool`` (one level per
            body of water; uniqueness is then proved by the MILP, slower).
        time_limit: seconds; past them [`GenerationTimeUp`][thermomilp.core.errors.GenerationTimeUp]
            is raised (checked between counter calls; every MILP gets the time left).
        strategy: ``peel`` (tank rule only) or ``repair``; None picks
            `default_strategy` for the size and rule.
    """
    if height < 1 or width < 1:
        raise GenerationError(f"board size {height}x{width} must be at least 1x1")
    if strategy is None:
        strategy = default_strategy(height, width, rule)
    if strategy not in STRATEGIES:
        raise GenerationError(f"unknown Aquarium strategy {strategy!r}; choose "
                              + ", ".join(STRATEGIES))
    if strategy == "peel" and rule != "tank":
        raise GenerationError("the peel strategy needs the tank rule (a pool's layers form "
                              "a tree, not a waterline)")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    rng = random.Random(f"aquarium:{height}x{width}:{seed}")
    deadline = None if time_limit is None else Deadline(time_limit)
    search = RivalSearch()
    for _ in range(DEGENERATE_TRIES):  # a degenerate board (generate/quality.py): again
        if strategy == "peel":
            puzzle = peeled_aquarium(height, width, rng)
        else:
            puzzle = planted_aquarium(height, width, rng, rule, deadline, search)
        why = degenerate(puzzle.solution or ())
        if why is None:
            break
        search.stats["degenerate"] = search.stats.get("degenerate", 0) + 1
    else:
        raise GenerationError(f"no {height}x{width} Aquarium that is not degenerate in "
                              f"{DEGENERATE_TRIES} plantings (last: {why})")
    # how the last step showed "no rival" for the clues it left: the repair's search, or
    # each deletion's logic or search
    proofs = ["construction" if strategy == "peel" else "search"]
    if minimal_clues or missing_clues:
        puzzle = delete_clues(puzzle, rng, deadline, search,
                              count=None if minimal_clues else missing_clues, proofs=proofs)
    variant = ("" if minimal_clues else f" {missing_clues} missing clues" if missing_clues
               else " full clues")
    # the search is asked unless its "no rival" was the last proof (module doc)
    prove_unique(puzzle, None if proofs[-1] == "search"
                 else lambda: search.rival(puzzle, deadline=deadline))
    name = f"aquarium {height}x{width} seed {seed}{variant}"
    return Puzzle(puzzle.kind, puzzle.rows, puzzle.cols, puzzle.vessels, name,
                  "thermomilp generate_aquarium", puzzle.solution, rule=puzzle.rule)
