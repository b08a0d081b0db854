"""Aquarium task strings of puzzle-aquarium.com, read and written (docs/formats.md,
"puzzle-aquarium.com task strings"): ``c1_..._cn_r1_..._rn;g1,g2,...,g(n*n)``, the clue
head the Thermometers task strings share (`thermomilp.formats.site`), then the tank ids
row by row. Always the ``tank`` rule.
"""

from __future__ import annotations

import re

from thermomilp.core.errors import PuzzleError
from thermomilp.core.puzzle import GENEROUS, Puzzle, SizeLimits, aquarium
from thermomilp.formats.tokens import single_line, whole_number

SHAPE = re.compile(r"^[0-9_?-]*;[0-9]+(,[0-9]+)*$")


def is_aquarium_task(text: str) -> bool:
    """One clue head, one ``;`` group of exactly n*n ids (n = half the clue count)."""
    line = single_line(text)
    if line is None or SHAPE.match(line) is None:
        return False
    head, body = line.split(";")
    clues = len(head.split("_"))
    return clues % 2 == 0 and len(body.split(",")) == (clues // 2) ** 2


looks_like = is_aquarium_task


def task_clues(head: str, unit: str = "numbers") -> tuple[list[int | None], list[int | None]]:
    """(row clues, column clues) of a task string's head ``c1_..._cn_r1_..._rn``
    (``-``, ``?`` or nothing is a missing clue); ``unit`` names its parts in the error."""
    tokens = head.split("_")
    if len(tokens) % 2:
        raise PuzzleError(f"the clue part has {len(tokens)} {unit}: expected n column clues "
                          "then n row clues", line=1)
    clues = [None if tok in ("", "-", "?") else whole_number(tok, "clue", 1) for tok in tokens]
    n = len(clues) // 2
    return clues[n:], clues[:n]


def task_head(puzzle: Puzzle) -> str:
    """The head of a task string: the column clues, then the row clues."""
    return "_".join("" if v is None else str(v) for v in list(puzzle.cols) + list(puzzle.rows))


def read(text: str, limits: SizeLimits = GENEROUS) -> Puzzle:
    line = single_line(text)
    if line is None:
        raise PuzzleError("an Aquarium task string is one line: clues ';' tank ids", line=1)
    if line.count(";") != 1:
        raise PuzzleError("an Aquarium task string has exactly one ';' between the clues "
                          "and the tank ids", line=1)
    head, body = line.split(";")
    rows, cols = task_clues(head, "entries")
    n = len(cols)
    limits.check(n, n)
    ids = body.split(",")
    if len(ids) != n * n:
        raise PuzzleError(f"{len(ids)} tank ids given but a {n}x{n} board has {n * n} cells",
                          line=1)
    numbers = [whole_number(tok, "tank id", 1) for tok in ids]
    grid = [[numbers[r * n + c] for c in range(n)] for r in range(n)]
    try:
        return aquarium(rows, cols, grid, limits=limits)
    except PuzzleError as exc:
        raise exc.located(line=1) from None


def write(puzzle: Puzzle) -> str:
    if puzzle.kind != "aquarium":
        raise PuzzleError("the Aquarium task string holds only Aquarium puzzles")
    if puzzle.rule != "tank":
        raise PuzzleError("an Aquarium task string holds the tank rule (one waterline per "
                          "tank); this board follows the pool rule -- write it as json, text, "
                          "puzzlink or pzprv3")
    if puzzle.height != puzzle.width:
        raise PuzzleError("Aquarium task strings describe square boards only")
    number = {v.label: k for k, v in enumerate(puzzle.vessels, start=1)}
    ids = ",".join(str(number[label]) for line in puzzle.region_grid() for label in line)
    return f"{task_head(puzzle)};{ids}\n"
