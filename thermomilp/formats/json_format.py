"""The interchange JSON of docs/contract.md, read and written (docs/formats.md,
"Interchange JSON"): ``puzzle``, ``rows``, ``cols`` (``null`` a missing clue), then
``thermometers`` (each a list of cells, bulb first) or ``regions`` (``[row, col, id]``
per cell); the other `KNOWN_KEYS` are optional, any other key is refused.
"""

from __future__ import annotations

import json
from typing import Any

from thermomilp.core.errors import PuzzleError
from thermomilp.core.notation import indexed_cell_name
from thermomilp.core.puzzle import (
    GENEROUS,
    GRADES,
    RULES,
    Cell,
    Puzzle,
    SizeLimits,
    Vessel,
    aquarium,
    thermometers,
    token_id,
)

KNOWN_KEYS = {"puzzle", "rows", "cols", "thermometers", "regions", "name", "source", "solution",
              "grade", "rule"}
MAX_NUMBER_CHARS = 100  # far below Python's 4,300-digit refusal, far above any clue


def looks_like(text: str) -> bool:
    return text.lstrip().startswith("{")


def _number(text: str) -> int | float:
    """JSON numbers, refusing the absurdly long ones before Python converts them."""
    if len(text) > MAX_NUMBER_CHARS:
        raise PuzzleError(f"the number {text[:20]}... has {len(text)} characters; no puzzle "
                          "needs more than " + str(MAX_NUMBER_CHARS))
    return float(text) if any(ch in text for ch in ".eE") else int(text)


def read(text: str, limits: SizeLimits = GENEROUS) -> Puzzle:
    try:
        data = json.loads(text, parse_int=_number, parse_float=_number)
    except json.JSONDecodeError as exc:
        raise PuzzleError(f"invalid JSON: {exc.msg} (column {exc.colno})",
                          line=exc.lineno) from None
    except RecursionError:
        raise PuzzleError("invalid JSON: nested too deeply") from None
    if not isinstance(data, dict):
        raise PuzzleError("the JSON document must be an object with a \"puzzle\" key")
    kind = data.get("puzzle")
    if kind not in ("thermometers", "aquarium"):
        raise PuzzleError(
            f"unknown puzzle type {kind!r}: expected \"thermometers\" or \"aquarium\"")
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise PuzzleError(f"unknown key {unknown[0]!r} in the puzzle object")
    rows, cols = _clue_list(data, "rows"), _clue_list(data, "cols")
    limits.check(len(rows), len(cols))  # before anything of that size is built
    rule = data.get("rule", "tank")
    if rule not in RULES or (kind == "thermometers" and rule != "tank"):
        allowed = "\"tank\" or \"pool\"" if kind == "aquarium" else "\"tank\" (Aquarium only)"
        raise PuzzleError(f"\"rule\" must be {allowed}")
    meta: dict[str, Any] = {}
    for key in ("name", "source"):
        if data.get(key) is not None:
            if not isinstance(data[key], str):
                raise PuzzleError(f"\"{key}\" must be a string")
            meta[key] = data[key]
    grade = data.get("grade")
    if grade is not None and grade not in GRADES:
        raise PuzzleError(f"\"grade\" must be one of {', '.join(GRADES)}")
    solution = data.get("solution")
    if solution is not None and (not isinstance(solution, list)
                                 or not all(isinstance(s, str) for s in solution)):
        raise PuzzleError("\"solution\" must be a list of strings of '#' and '.'")
    if kind == "thermometers":
        therms = data.get("thermometers")
        if not isinstance(therms, list):
            raise PuzzleError("a thermometers puzzle needs a \"thermometers\" list")
        return thermometers(rows, cols, therms, solution=solution, limits=limits,
                            **meta).with_grade(grade)
    regions = data.get("regions")
    if not isinstance(regions, list):
        raise PuzzleError("an aquarium puzzle needs a \"regions\" list of [row, col, id]")
    return aquarium(rows, cols, _region_grid(regions, len(rows), len(cols)), solution=solution,
                    rule=rule, limits=limits, **meta).with_grade(grade)


def _clue_list(data: dict, key: str) -> list:
    value = data.get(key)
    if not isinstance(value, list):
        raise PuzzleError(f"\"{key}\" must be a list of clues (numbers or null)")
    return value


def _region_grid(regions: list, height: int, width: int) -> list[list[object]]:
    grid: list[list[object]] = [[None] * width for _ in range(height)]
    for item in regions:
        if (not isinstance(item, list) or len(item) != 3
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in item[:2])
                or not isinstance(item[2], (int, str)) or isinstance(item[2], bool)):
            raise PuzzleError(f"region entry {item!r} is not [row, col, id]")
        r, c, label = item
        if not (0 <= r < height and 0 <= c < width):
            raise PuzzleError(f"region entry {item!r}: cell {indexed_cell_name((r, c))} is "
                              f"outside the {height}x{width} grid")
        if grid[r][c] is not None:
            raise PuzzleError(f"cell {indexed_cell_name((r, c))} is listed in two regions")
        grid[r][c] = label  # kept as given: 1 and "1" are two tanks
    return grid


def to_dict(puzzle: Puzzle) -> dict[str, Any]:
    data: dict[str, Any] = {"puzzle": puzzle.kind, "rows": list(puzzle.rows),
                            "cols": list(puzzle.cols)}
    if puzzle.kind == "thermometers":
        data["thermometers"] = [[list(c) for c in v.cells] for v in puzzle.vessels]
    else:
        ids: dict[Cell, int | str] = {cell: _region_id(v) for v in puzzle.vessels
                                      for cell in v.cells}
        data["regions"] = [[r, c, ids[r, c]] for r in range(puzzle.height)
                           for c in range(puzzle.width)]
    for key in ("name", "source"):
        if getattr(puzzle, key) is not None:
            data[key] = getattr(puzzle, key)
    if puzzle.solution is not None:
        data["solution"] = list(puzzle.solution)
    if puzzle.grade is not None:
        data["grade"] = puzzle.grade
    if puzzle.rule != "tank":
        data["rule"] = puzzle.rule
    return data


def _region_id(vessel: Vessel) -> int | str:
    """The id as written: the tank's id as it was read (``1`` and ``"1"`` stay apart);
    a tank the program made has only its label, written as
    [`token_id`][thermomilp.core.puzzle.token_id] reads it."""
    if vessel.region_id is not None:
        return vessel.region_id
    return token_id(vessel.label)


def write(puzzle: Puzzle) -> str:
    return json.dumps(to_dict(puzzle)) + "\n"
