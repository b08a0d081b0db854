"""Task strings of the puzzle-thermometers.com family of sites (docs/formats.md, "Site task
strings"): ``c1_..._cn_r1_..._rn;T1;T2;...`` on a square board, each thermometer either
``d,len`` (straight, from the first cell not yet used) or ``5,i1,i2,...`` (its cells bulb
first, 0-based row-major). Example (4x4):
``3_2_1_1_2_1_2_2;1,2;5,2,3,7;5,4,8,12,13,14,15;5,9,5,6;1,2``.
"""

from __future__ import annotations

import re
from itertools import pairwise

from thermomilp.core.errors import PuzzleError
from thermomilp.core.notation import cell_name
from thermomilp.core.puzzle import GENEROUS, Cell, Puzzle, SizeLimits, thermometers
from thermomilp.formats.aquarium_task import is_aquarium_task, task_clues, task_head
from thermomilp.formats.tokens import single_line, whole_number

SHAPE = re.compile(r"^[0-9_?-]+(;[0-9,]+)+$")


def looks_like(text: str) -> bool:
    line = single_line(text)
    # not the same head with one group of exactly n*n ids: that is an Aquarium task
    return line is not None and SHAPE.match(line) is not None and not is_aquarium_task(text)


def read(text: str, limits: SizeLimits = GENEROUS) -> Puzzle:
    task = text.strip()
    if not task or ";" not in task:
        raise PuzzleError("a task string needs clues, then ';' and the thermometers", line=1)
    head, *parts = task.split(";")
    rows, cols = task_clues(head)
    n = len(cols)
    limits.check(n, n)  # before any cell is built
    used: set[Cell] = set()
    cursor = 0  # every cell before it (row-major) is used: finding a free cell stays linear
    therms: list[list[Cell]] = []
    for t, part in enumerate(parts, start=1):  # counted from 1, as the puzzle's labels
        nums = [whole_number(v, f"thermometer {t}: entry", 1) for v in part.split(",")]
        if nums[0] == 5:
            cells = []
            for i in nums[1:]:
                if not 0 <= i < n * n:
                    raise PuzzleError(f"thermometer {t}: cell index {i} is outside the "
                                      f"{n}x{n} grid", line=1)
                cells.append(divmod(i, n))
        elif nums[0] in (1, 2, 3, 4) and len(nums) == 2:
            while cursor < n * n and divmod(cursor, n) in used:
                cursor += 1
            if cursor == n * n:
                raise PuzzleError(f"thermometer {t}: no free cell is left to start it", line=1)
            free = divmod(cursor, n)
            d, length = nums
            room = n - (free[1] if d in (1, 2) else free[0])
            if not 1 <= length <= room:
                raise PuzzleError(f"thermometer {t} has length {length}; from cell "
                                  f"{cell_name(free)} there is room for 1..{room}", line=1)
            step = (0, 1) if d in (1, 2) else (1, 0)
            cells = [(free[0] + step[0] * k, free[1] + step[1] * k) for k in range(length)]
            if d in (2, 4):
                cells.reverse()
        else:
            raise PuzzleError(f"thermometer {t} ({part!r}) must be 'd,len' with d in 1..4 "
                              "or '5,i1,i2,...'", line=1)
        used.update(cells)
        therms.append(cells)
    return thermometers(rows, cols, therms, limits=limits)


def _straight_code(cells: tuple[Cell, ...]) -> str | None:
    """``d,len`` for a straight thermometer, else None."""
    if len(cells) == 1:
        return "1,1"
    (r0, c0), (r1, c1) = cells[0], cells[1]
    step = (r1 - r0, c1 - c0)
    if any((b[0] - a[0], b[1] - a[1]) != step for a, b in pairwise(cells)):
        return None
    code = {(0, 1): 1, (0, -1): 2, (1, 0): 3, (-1, 0): 4}[step]
    return f"{code},{len(cells)}"


def write(puzzle: Puzzle) -> str:
    """The site's form, thermometers in their own order (their numbering is kept): a
    straight one that starts at the first free cell takes its short ``d,len`` code,
    as the sites write it -- boards from the sites list them by first cell, so every
    straight one does."""
    if puzzle.kind != "thermometers":
        raise PuzzleError("this task string form holds only Thermometers puzzles")
    if puzzle.height != puzzle.width:
        raise PuzzleError("task strings describe square boards only")
    n = puzzle.width
    parts = []
    used: set[Cell] = set()
    cursor = 0
    for vessel in puzzle.vessels:
        cells = vessel.cells
        while cursor < n * n and divmod(cursor, n) in used:
            cursor += 1
        code = _straight_code(cells) if min(cells) == divmod(cursor, n) else None
        parts.append(code or "5," + ",".join(str(r * n + c) for r, c in cells))
        used.update(cells)
    return task_head(puzzle) + ";" + ";".join(parts) + "\n"
