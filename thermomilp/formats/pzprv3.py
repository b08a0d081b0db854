"""pzprv3: the text file pzprjs's editor (puzz.link) saves and loads, for Aquarium (its
lines and tokens: docs/formats.md, "pzprv3 files"), from a file or in pzprjs's one-line
URL form. The water marks become the puzzle's solution when they form one.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from thermomilp.core.errors import PuzzleError
from thermomilp.core.puzzle import GENEROUS, Puzzle, SizeLimits, aquarium
from thermomilp.core.verify import solution_problems
from thermomilp.formats.puzzlink import rooms
from thermomilp.formats.tokens import whole_number

HEADER = re.compile(r"^pzprv3(\.\d+)?$")
IN_URL = re.compile(r"(?:^|[?&])(pzprv3(?:\.\d+)?/[a-z0-9_]+/.*)$")


def _lines(text: str) -> list[str] | None:
    """The file's lines from its first non-blank one, from a file or from pzprjs' one-line
    URL form (see `_skipped`)."""
    stripped = text.strip()
    if "\n" not in stripped:
        match = IN_URL.search(stripped)
        if match is None:
            return None
        return unquote(match.group(1)).split("/")
    lines = [line.rstrip("\r") for line in text.split("\n")]
    return lines[_skipped(lines):]


def _skipped(lines: list[str]) -> int:
    """How many blank lines a file starts with (its line numbers count them)."""
    return next((k for k, line in enumerate(lines) if line.strip()), len(lines))


def looks_like(text: str) -> bool:
    lines = _lines(text)
    if lines and lines[0].startswith("v:"):  # a pzprjs variant: read() says it is not supported
        lines = lines[1:]
    # any pzprjs file: read() says so clearly when it is not an Aquarium
    return lines is not None and len(lines) >= 2 and HEADER.match(lines[0].strip()) is not None


def read(text: str, limits: SizeLimits = GENEROUS) -> Puzzle:
    try:
        return _read(text, limits)
    except PuzzleError as error:
        skipped = _skipped(text.split("\n")) if "\n" in text.strip() else 0
        if error.line is None or not skipped:
            raise
        # a file's line numbers count the blank lines it starts with
        raise type(error)(error.message, file=error.file, line=error.line + skipped) from None


def _read(text: str, limits: SizeLimits) -> Puzzle:
    lines = _lines(text)
    if lines and lines[0].startswith("v:"):
        raise PuzzleError(f"pzprjs variant {lines[0].strip()!r} is not supported", line=1)
    if lines is None or len(lines) < 4 or not HEADER.match(lines[0].strip()):
        raise PuzzleError("a pzprv3 file starts with the lines 'pzprv3', 'aquarium', rows, "
                          "columns", line=1)
    if lines[1].strip() != "aquarium":
        raise PuzzleError(f"this pzprv3 file holds a {lines[1].strip()!r} puzzle; thermomilp "
                          "reads pzprv3 Aquarium files", line=2)
    rows = whole_number(lines[2].strip(), "the row count", 3)
    cols = whole_number(lines[3].strip(), "the column count", 4)
    if rows < 1 or cols < 1:
        raise PuzzleError(f"the board is {rows}x{cols}; it needs a row and a column", line=3)
    limits.check(rows, cols)  # before the board is built
    at = 4
    rule = "pool"
    if at < len(lines) and lines[at].strip() == "r":
        rule = "tank"
        at += 1
    need = rows + (rows - 1) + (rows + 1)
    if len(lines) - at < need:
        raise PuzzleError(f"the file ends early: a {rows}x{cols} board needs {need} lines "
                          "after the size", line=len(lines))

    def block(count: int, width: int, what: str) -> list[list[str]]:
        nonlocal at
        out = []
        for _ in range(count):
            tokens = lines[at].split()
            if len(tokens) != width:
                raise PuzzleError(f"{what} line has {len(tokens)} entries; a {rows}x{cols} "
                                  f"board needs {width}", line=at + 1)
            out.append(tokens)
            at += 1
        return out

    walls_at = at
    vert = block(rows, cols - 1, "a vertical-wall")
    horiz = block(rows - 1, cols, "a horizontal-wall")
    first = at
    grid = block(rows + 1, cols + 1, "a clue-and-cell")
    for k, line in enumerate(vert + horiz):
        for tok in line:
            if tok not in ("0", "1"):
                raise PuzzleError(f"wall entry {tok!r} is not 0 or 1", line=walls_at + 1 + k)
    col_clues = [_clue(tok, first + 1) for tok in grid[0][1:]]
    row_clues = [_clue(line[0], first + 2 + r) for r, line in enumerate(grid[1:])]
    marks = []
    for r, line in enumerate(grid[1:]):
        for tok in line[1:]:
            if tok not in ("#", "+", "."):
                raise PuzzleError(f"cell entry {tok!r} is not '#', '+' or '.'",
                                  line=first + 2 + r)
        marks.append("".join("#" if tok == "#" else "." for tok in line[1:]))
    walls = {((r, c), (r, c + 1)) for r, line in enumerate(vert)
             for c, tok in enumerate(line) if tok == "1"}
    walls |= {((r, c), (r + 1, c)) for r, line in enumerate(horiz)
              for c, tok in enumerate(line) if tok == "1"}
    puzzle = aquarium(row_clues, col_clues, rooms(walls, rows, cols), rule=rule, limits=limits)
    if "#" in "".join(marks) and not solution_problems(puzzle, marks):
        puzzle = puzzle.with_solution(tuple(marks))
    return puzzle


def _clue(token: str, line: int) -> int | None:
    if token in (".", "-2", "c-2"):
        return None
    return whole_number(token[1:] if token.startswith("c") else token, "clue", line)


def write(puzzle: Puzzle) -> str:
    """The file pzprjs saves: walls between tanks, clues, the solution as water marks."""
    if puzzle.kind != "aquarium":
        raise PuzzleError("pzprv3 files are written for Aquarium only (pzprjs has no "
                          "Thermometers variety)")
    H, W = puzzle.shape
    region = puzzle.region_grid()
    out = ["pzprv3", "aquarium", str(H), str(W)]
    if puzzle.rule == "tank":
        out.append("r")
    for r in range(H):
        out.append("".join(f"{int(region[r][c] != region[r][c + 1])} " for c in range(W - 1)))
    for r in range(H - 1):
        out.append("".join(f"{int(region[r][c] != region[r + 1][c])} " for c in range(W)))
    clue = lambda v: "." if v is None else str(v)  # noqa: E731
    out.append(". " + "".join(f"{clue(v)} " for v in puzzle.cols))
    for r in range(H):
        cells = puzzle.solution[r] if puzzle.solution is not None else "." * W
        out.append(f"{clue(puzzle.rows[r])} " + "".join(f"{ch} " for ch in cells))
    return "\n".join(out) + "\n"
