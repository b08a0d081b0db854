"""puzz.link / pzprjs URLs for Aquarium, read and written:
``https://puzz.link/p?aquarium/[r/]<cols>/<rows>/<borders>/<clues>`` (the bit layout of
the borders and the clue tokens: docs/formats.md, "puzz.link / pzprjs URLs").

``r`` marks the ``tank`` rule; without it the site checks the ``pool`` rule, and the
reader gives the puzzle that rule. Any host and leading path work; a bare
``aquarium/...`` reads too.
"""

from __future__ import annotations

import itertools
import re

from thermomilp.core.errors import PuzzleError
from thermomilp.core.puzzle import GENEROUS, Cell, Puzzle, SizeLimits, aquarium
from thermomilp.formats.tokens import is_whole_number, single_line

PID = re.compile(r"(?:^|[?/&])aquarium(?:_edit|_play)?/")
B32 = "0123456789abcdefghijklmnopqrstuv"
HEX = "0123456789abcdef"
MAX_SIDE = 255


def looks_like(text: str) -> bool:
    line = single_line(text)
    return (line is not None and PID.search(line) is not None and " " not in line
            and "pzprv3" not in line)  # pzprjs's file-in-a-URL: formats.pzprv3


def read(text: str, limits: SizeLimits = GENEROUS) -> Puzzle:
    line = single_line(text)
    if line is None:
        raise PuzzleError("a puzz.link URL is one line", line=1)
    url = line.partition("#")[0]  # a fragment is not part of the puzzle
    match = PID.search(url)
    if match is None:
        raise PuzzleError("not a puzz.link Aquarium URL: expected '...?aquarium/...'", line=1)
    parts = url[match.end():].split("/")
    flags = ""
    if parts and parts[0] and not parts[0].isdigit():
        flags = parts.pop(0)
        if flags.startswith("v:"):
            raise PuzzleError(f"puzz.link variant {flags!r} is not supported", line=1)
        if parts and parts[0] and not parts[0].isdigit():
            raise PuzzleError(f"unexpected URL part {parts[0]!r} before the board size", line=1)
    if len(parts) < 2 or not is_whole_number(parts[0]) or not is_whole_number(parts[1]):
        raise PuzzleError("the URL needs <cols>/<rows> (digits 0-9) after 'aquarium/'", line=1)
    cols, rows = int(parts[0]), int(parts[1])
    if not (1 <= cols <= MAX_SIDE and 1 <= rows <= MAX_SIDE):
        raise PuzzleError(f"board size {cols}x{rows} (cols x rows) is outside 1..{MAX_SIDE}",
                          line=1)
    limits.check(rows, cols)
    body = "/".join(parts[2:]).rstrip("/")
    # pzprjs writes '<borders>/<clues>'; a board with no clues may end after the borders
    borders, _, clue_text = body.partition("/")
    walls = _decode_borders(borders, rows, cols)
    clues = _decode_clues(clue_text, cols + rows)
    region = rooms(walls, rows, cols)
    rule = "tank" if "r" in flags else "pool"
    try:
        return aquarium(clues[cols:], clues[:cols], region, source=url, rule=rule,
                        limits=limits)
    except PuzzleError as exc:
        raise exc.located(line=1) from None


def _unpack(text: str, count: int, what: str) -> list[int]:
    bits: list[int] = []
    for ch in text:
        value = B32.find(ch)
        if value < 0:
            raise PuzzleError(f"{what}: {ch!r} is not a base-32 digit 0-9a-v", line=1)
        bits.extend((value >> (4 - k)) & 1 for k in range(5))
    return bits[:count]


def _decode_borders(text: str, rows: int, cols: int) -> set[tuple[Cell, Cell]]:
    n_vert, n_horiz = (cols - 1) * rows, cols * (rows - 1)
    len_vert, len_horiz = (n_vert + 4) // 5, (n_horiz + 4) // 5
    if len(text) != len_vert + len_horiz:
        raise PuzzleError(f"the border part has {len(text)} characters; a {cols}x{rows} board "
                          f"needs {len_vert + len_horiz}", line=1)
    vert = _unpack(text[:len_vert], n_vert, "borders")
    horiz = _unpack(text[len_vert:], n_horiz, "borders")
    return ({((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)
             if vert[r * (cols - 1) + c]}
            | {((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)
               if horiz[r * cols + c]})


def _decode_clues(text: str, count: int) -> list[int | None]:
    clues: list[int | None] = []
    i = 0
    while i < len(text) and len(clues) < count:  # pzprjs stops here too
        ch = text[i]
        if ch in HEX:
            clues.append(int(ch, 16))
        elif ch == "-":
            pair = text[i + 1:i + 3]
            if len(pair) != 2 or any(c not in HEX for c in pair):
                raise PuzzleError(f"clue '-{pair}' needs two hex digits", line=1)
            clues.append(int(pair, 16))
            i += 2
        elif ch == ".":
            clues.append(None)
        elif "g" <= ch <= "z":
            clues.extend([None] * (ord(ch) - ord("g") + 1))
        else:
            raise PuzzleError(f"{ch!r} is not a clue character (0-f, -xx, ., g-z)", line=1)
        i += 1
    clues = clues[:count]  # a skip may run past the last place, as pzprjs allows
    return clues + [None] * (count - len(clues))


def rooms(walls: set[tuple[Cell, Cell]], rows: int, cols: int) -> list[list[int]]:
    """The rooms (tanks) between ``walls`` (pairs of cells, the upper or left one first),
    numbered 1, 2, ... in reading order of their first cell (pzprv3 reads its walls here too)."""
    label: dict[Cell, int] = {}
    numbers = itertools.count(1)
    for start in ((r, c) for r in range(rows) for c in range(cols)):
        if start in label:
            continue
        name = label[start] = next(numbers)
        todo = [start]
        while todo:
            r, c = todo.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if (0 <= nb[0] < rows and 0 <= nb[1] < cols and nb not in label
                        and (min((r, c), nb), max((r, c), nb)) not in walls):
                    label[nb] = name
                    todo.append(nb)
    return [[label[r, c] for c in range(cols)] for r in range(rows)]


def _pack(bits: list[int]) -> str:
    padded = bits + [0] * (-len(bits) % 5)  # the last digit's unused bits are 0
    return "".join(B32[sum(b << (4 - n) for n, b in enumerate(padded[k:k + 5]))]
                   for k in range(0, len(padded), 5))


def _encode_clues(clues: list[int | None]) -> str:
    out, skip = [], 0
    for clue in clues:
        if clue is None:
            skip += 1
            if skip == 20:
                out.append("z")
                skip = 0
            continue
        if skip:
            out.append(chr(ord("g") + skip - 1))
            skip = 0
        if clue < 16:
            out.append(HEX[clue])
        elif clue < 256:
            out.append(f"-{clue:02x}")
        else:
            raise PuzzleError(f"clue {clue} is too large for a puzz.link URL (max 255)")
    if skip:
        out.append(chr(ord("g") + skip - 1))
    return "".join(out)


def write(puzzle: Puzzle) -> str:
    """A puzz.link URL; the ``r`` flag exactly for the tank rule."""
    if puzzle.kind != "aquarium":
        raise PuzzleError("puzz.link URLs are written for Aquarium puzzles only")
    H, W = puzzle.shape
    region = puzzle.region_grid()
    vert = [int(region[r][c] != region[r][c + 1]) for r in range(H) for c in range(W - 1)]
    horiz = [int(region[r][c] != region[r + 1][c]) for r in range(H - 1) for c in range(W)]
    clues = _encode_clues(list(puzzle.cols) + list(puzzle.rows))
    flag = "r/" if puzzle.rule == "tank" else ""
    return f"https://puzz.link/p?aquarium/{flag}{W}/{H}/{_pack(vert)}{_pack(horiz)}/{clues}\n"
