"""Unique Thermometers boards, graded: the generator behind ``thermomilp generate``.

Three strategies (docs/generate.md, "Strategies"): ``peel`` (the default from
`PEEL_FROM` on, `thermomilp.generate.peel`: unique by construction), ``repair``
(the default below it, `thermomilp.generate.repair`: plant, then repair until the
MILP finds no rival) and ``reroll`` (the published baseline: random tiling and
levels until the MILP finds the board unique).

A degenerate planting (`thermomilp.generate.quality`) is turned away and planted again.
Then, optionally, clues are deleted while the board stays unique
(`thermomilp.generate.clues`), the board is graded
([`thermomilp.logic.grade.grade`][thermomilp.logic.grade.grade]) and -- whatever the strategy
-- proven unique by the MILP (`rivals.find_rival`) with its planted grid checked by
[`thermomilp.core.verify`][thermomilp.core.verify]. With ``difficulty`` (and no clue request)
clues are deleted until the grade reaches it (for ``medium``, only deletions the logic
still finishes stand), and the whole attempt repeats until the grade matches
(docs/generate.md).

Every random choice comes from one ``random.Random`` seeded with ``"<seed>:<index>"``,
and HiGHS runs with a fixed random seed, so the same seed gives the same board on any
machine with the same HiGHS. (HiGHS's ``threads`` is not set: it is process-wide once
set, and a later change makes ``run()`` fail.)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

from thermomilp.core.deadline import Deadline
from thermomilp.core.errors import GenerationError, GenerationTimeUp, TimeUp
from thermomilp.core.puzzle import Cell, Puzzle, ones_of, thermometers
from thermomilp.generate.clues import Thinned, delete_clues
from thermomilp.generate.paths import PathTiling
from thermomilp.generate.peel import medium_first, plant_peeled
from thermomilp.generate.quality import degenerate
from thermomilp.generate.random_board import random_partition
from thermomilp.generate.repair import repair_unique
from thermomilp.generate.rivals import _RivalUndecided, check_time, find_rival, prove_unique

STRATEGIES = ("peel", "repair", "reroll")
# From this size on the default strategy is ``peel``: the repair's boards there are graded
# `search` and cost minutes each (docs/journal.md, 2026-11-30; docs/generate.md).
PEEL_FROM = 30
DIFFICULTIES = ("easy", "medium", "hard")
# planting parameters per wanted difficulty: (line-order depth, share of ordered levels)
PLANTING = {None: (2, 0.9), "easy": (2, 1.0), "medium": (1, 0.7), "hard": (1, 0.3)}
# From this size on every level follows the line order (no free levels): the free levels
# are where the whole-board rivals come from, and the boards are graded `search` anyway
# (docs/generate.md, "`repair`", step 2; the runs: docs/journal.md, 2026-11-30).
ALL_ORDERED_FROM = 30


@dataclass(frozen=True)
class Generated:
    puzzle: Puzzle            # clues, thermometers, solution and grade
    grade: str                # intervals / probing / pairs / search
    difficulty: str           # easy / medium / hard
    strategy: str
    seed: str
    time_s: float
    attempts: int             # boards made unique before one met the difficulty
    stats: dict[str, Any] = field(default_factory=dict)


def default_strategy(height: int, width: int) -> str:
    return "peel" if min(height, width) >= PEEL_FROM else "repair"


def generate_thermometers(height: int, width: int, seed: int | str = 0, *, index: int = 0,
                          strategy: str | None = None, straight: bool = False,
                          max_length: int = 6, missing_clues: int = 0,
                          minimal_clues: bool = False, difficulty: str | None = None,
                          time_limit: float | None = None, max_attempts: int = 200,
                          progress: Callable[[str], None] | None = None) -> Generated:
    """One unique graded board; ``index`` picks the board of a seeded series.

    ``strategy``: None picks `default_strategy` for the size.
    ``time_limit`` (seconds) bounds the whole board, engine calls included: one
    [`Deadline`][thermomilp.core.deadline.Deadline] is checked wherever the loops iterate and
    hands HiGHS the time left; ``progress`` is called with a short text of what is being
    done.

    Raises:
        GenerationTimeUp: the time limit passed (a second or so late at most).
        GenerationError: bad parameters, or ``max_attempts`` boards without the wanted
            difficulty.
    """
    from thermomilp.logic.grade import GRADE_TO_DIFFICULTY, grade

    if strategy is None:
        strategy = default_strategy(height, width)
    _check_request(height, width, strategy, max_length, missing_clues, difficulty)
    say = progress or (lambda _: None)
    start = time.perf_counter()
    deadline = None if time_limit is None else Deadline(time_limit)
    tag = f"{seed}:{index}"
    rng = random.Random(tag)
    # large boards: `hard` plants like the default, every level ordered (docs/generate.md)
    large = min(height, width) >= ALL_ORDERED_FROM
    depth, ordered = PLANTING[None if difficulty == "hard" and large else difficulty]
    if large and difficulty in (None, "hard"):
        ordered = 1.0
    stats: dict[str, Any] = {}
    last_undecided: _RivalUndecided | None = None
    for attempt in range(1, max_attempts + 1):
        with _sized(height, width):  # a step's error names the size (not the time limit)
            # has the MILP shown "no rival" for exactly the clues the board ends with?
            if strategy == "repair":
                tiling, proof = repair_unique(height, width, rng, max_length=max_length,
                                              straight=straight, depth=depth, ordered=ordered,
                                              deadline=deadline, progress=say, stats=stats)
                milp_proven = proof == "milp"
            elif strategy == "peel":
                say("peel")
                tiling, order = plant_peeled(height, width, rng, max_length=max_length,
                                             straight=straight)
                milp_proven = False  # unique by construction; the MILP is asked at the end
            else:
                tiling = _reroll(height, width, rng, max_length, straight, deadline, stats)
                milp_proven = True
            check_time(deadline, "planting")
            why = degenerate(tiling.grid())
            if why is not None:  # unique but dull (generate/quality.py): plant again
                stats["degenerate"] = stats.get("degenerate", 0) + 1
                say(f"attempt {attempt} degenerate: {why}")
                continue
            rows, cols = tiling.clues()
            # this board's paths, bound now (a closure over the loop's ``tiling`` is
            # late-bound); each clue set is graded once, however many questions ask about it
            among = _grader(tiling.paths(), deadline)
            thinned = Thinned(list(rows), list(cols), 0, None)
            if missing_clues or minimal_clues:
                say("clues")
                thinned = delete_clues(tiling, thinned.rows, thinned.cols, rng,
                                       count=None if minimal_clues else missing_clues,
                                       deadline=deadline)
                if not minimal_clues and thinned.deleted < missing_clues:
                    check_time(deadline, "clue deletion")
                    continue  # this board cannot lose that many clues: try another
            elif difficulty not in (None, "easy") and not among((difficulty,), *thinned[:2]):
                # full clues rarely make a hard board: delete clues until the grade is reached
                # (medium: a deletion the logic cannot finish would overshoot to hard)
                say(f"clues for {difficulty}")
                lines = (medium_first(tiling, order, deadline)
                         if strategy == "peel" and difficulty == "medium" else None)
                thinned = delete_clues(
                    tiling, thinned.rows, thinned.cols, rng,
                    until=partial(among, (difficulty,)),
                    accept=(partial(among, ("easy", "medium"))
                            if difficulty == "medium" else None),
                    deadline=deadline, lines=lines)
            if thinned.deleted:
                milp_proven = thinned.proof == "milp"  # the last deletion's proof
        rows_k, cols_k = thinned.rows, thinned.cols
        puzzle = thermometers(rows_k, cols_k, tiling.paths(), solution=tiling.grid(),
                              name=f"thermomilp {height}x{width} seed {tag}",
                              source=_recipe(height, width, seed, index, strategy, straight,
                                             max_length, missing_clues, minimal_clues,
                                             difficulty))
        if difficulty is None or among((difficulty,), rows_k, cols_k):
            try:
                prove_unique(puzzle, None if milp_proven else
                             partial(find_rival, tiling, rows_k, cols_k, deadline=deadline))
            except _RivalUndecided as exc:  # HiGHS undecided after its retry: next board
                stats["undecided"] = stats.get("undecided", 0) + 1
                last_undecided = exc
                say(f"attempt {attempt} dropped: {exc}")
                check_time(deadline, "proof of uniqueness")
                continue
            # the full grade (pair probing) only for the board kept; its planted grid has
            # just passed the checker, so the sweeps may skip its levels
            # (within the time limit too: the pair sweep of a large hard board takes seconds)
            try:
                board_grade = grade(puzzle, known=puzzle.solution,
                                    stop=None if deadline is None else deadline.expired)
            except TimeUp:
                raise GenerationTimeUp(f"gave up: no {height}x{width} board within the time "
                                       "limit (grading the last one)", "grading") from None
            return Generated(puzzle.with_grade(board_grade), board_grade,
                             GRADE_TO_DIFFICULTY[board_grade], strategy, tag,
                             time.perf_counter() - start, attempt, stats)
        check_time(deadline, "next attempt")
    raise GenerationError(f"no {difficulty} {height}x{width} board in {max_attempts} attempts"
                          + (" (hard boards are rare below 15x15: try a larger size)"
                             if difficulty == "hard" else "")
                          + (f"; {stats['degenerate']} turned away as degenerate "
                             "(generate/quality.py)" if stats.get("degenerate") else "")
                          + (f"; {stats['undecided']} dropped because HiGHS could not decide "
                             f"whether they are unique ({last_undecided})"
                             if last_undecided is not None else ""))


def _recipe(height: int, width: int, seed: int | str, index: int, strategy: str,
            straight: bool, max_length: int, missing_clues: int, minimal_clues: bool,
            difficulty: str | None) -> str:
    """The command that makes this board again (board ``index`` of the series)."""
    words = [f"thermomilp generate --size {height}x{width} --seed {seed}",
             f"--strategy {strategy}", "--straight" if straight else "--curved",
             f"--max-length {max_length}"]
    if minimal_clues:
        words.append("--minimal-clues")
    elif missing_clues:
        words.append(f"--missing-clues {missing_clues}")
    if difficulty:
        words.append(f"--difficulty {difficulty}")
    return " ".join(words) + f" (board {index})"


def _check_request(height: int, width: int, strategy: str, max_length: int,
                   missing_clues: int, difficulty: str | None) -> None:
    if height < 2 or width < 2:
        raise GenerationError(f"a board needs at least 2x2 cells, not {height}x{width}")
    if strategy not in STRATEGIES:
        raise GenerationError(f"unknown strategy {strategy!r}; choose {', '.join(STRATEGIES)}")
    if max_length < 2:
        raise GenerationError("--max-length must be at least 2")
    if not 0 <= missing_clues <= height + width:
        raise GenerationError(f"--missing-clues must be between 0 and {height + width}")
    if difficulty not in PLANTING:
        raise GenerationError(f"unknown difficulty {difficulty!r}; choose "
                              + ", ".join(DIFFICULTIES))


def _grader(paths: list[list[Cell]], deadline: Deadline | None = None
            ) -> Callable[[tuple[str, ...], list[int | None], list[int | None]], bool]:
    """``among(difficulties, rows, cols)``: do these clues on ``paths`` make a board of one
    of ``difficulties``? Each clue set is graded once, on the board's clock ``deadline``
    (grading a large board takes seconds)."""
    from thermomilp.logic.grade import difficulty as difficulty_of

    @cache
    def graded(rows: tuple[int | None, ...], cols: tuple[int | None, ...]) -> str:
        try:
            return difficulty_of(thermometers(list(rows), list(cols), paths),
                                 None if deadline is None else deadline.expired)
        except TimeUp:
            raise GenerationTimeUp("gave up: no board within the time limit (grading)",
                                   "grading") from None

    return lambda difficulties, rows, cols: graded(tuple(rows), tuple(cols)) in difficulties


@contextmanager
def _sized(height: int, width: int) -> Iterator[None]:
    """A step's errors name the size (the time limit passes as it is)."""
    try:
        yield
    except GenerationTimeUp:
        raise
    except GenerationError as exc:
        raise GenerationError(f"{height}x{width}: {exc}") from exc


def _reroll(height: int, width: int, rng: random.Random, max_length: int, straight: bool,
            deadline: Deadline | None, stats: dict[str, Any]) -> PathTiling:
    """The baseline: random tiling and levels until the MILP finds no rival."""
    while True:
        check_time(deadline, "reroll")
        stats["rerolls"] = stats.get("rerolls", 0) + 1
        paths = random_partition(height, width, rng, max_length=max_length, straight=straight)
        tiling = PathTiling(height, width, paths, max_length=max_length, straight=straight)
        for path in paths:
            tiling.set_level(path[0], rng.randint(0, len(path)))
        try:
            if find_rival(tiling, deadline=deadline) is None:
                return tiling
        except _RivalUndecided:  # HiGHS undecided after its retry: roll another board
            stats["undecided"] = stats.get("undecided", 0) + 1


def tiling_of(puzzle: Puzzle) -> PathTiling:
    """A generated (or any solved) Thermometers board as a tiling with its filling."""
    if puzzle.solution is None:
        raise GenerationError("the board has no solution to plant")
    return PathTiling(puzzle.height, puzzle.width, [v.cells for v in puzzle.vessels],
                      ones_of(puzzle.solution),
                      max_length=max(v.depth for v in puzzle.vessels))
