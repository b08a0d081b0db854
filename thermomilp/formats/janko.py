"""janko.at's section format for Thermometers (docs/formats.md, "janko sections").

Section names in brackets (``[clabels]``, janko.at's own files, what `write` writes) or
bare; ``labels`` holds one token ``T.K`` per cell: thermometer ``T``, position ``K`` from
the bulb. Sections other than `SECTIONS` are read past, and nothing after ``end``.
"""

from __future__ import annotations

import re

from thermomilp.core.errors import PuzzleError
from thermomilp.core.notation import cell_name, row_name
from thermomilp.core.puzzle import GENEROUS, Puzzle, SizeLimits, thermometers
from thermomilp.formats.tokens import is_whole_number

SECTIONS = ("setup", "clabels", "rlabels", "labels", "solution")
TOKEN = re.compile(r"^([0-9]{1,9})\.([0-9]{1,9})$")
BRACKETED = re.compile(r"^\[([A-Za-z]+)\]$")
SETUP_KEY = re.compile(r"^([A-Za-z]+)\s*=\s*(.*)$")
PUZZLE_NAMES = ("thermometer", "thermometers", "thermo")


def _section_name(stripped: str) -> str | None:
    """``[name]`` or a bare word of two or more letters ("x" is a solution cell)."""
    match = BRACKETED.match(stripped)
    if match:
        return match.group(1).lower()
    if stripped.isascii() and stripped.isalpha() and len(stripped) > 1:
        return stripped.lower()
    return None


def looks_like(text: str) -> bool:
    names = {_section_name(line.strip()) for line in text.splitlines()}
    return "labels" in names and ("clabels" in names or "rlabels" in names)


def _sections(text: str) -> dict[str, list[tuple[int, str]]]:
    sections: dict[str, list[tuple[int, str]]] = {}
    current: list[tuple[int, str]] | None = None
    for n, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        key = _section_name(stripped)
        if key is not None:
            if key == "end":
                break
            if key in sections and key in SECTIONS:
                raise PuzzleError(f"section {key!r} appears twice", line=n)
            current = sections.setdefault(key, []) if key in SECTIONS else None
            continue
        if current is not None:
            current.append((n, stripped))
    return sections


def _setup(lines: list[tuple[int, str]]) -> dict[str, tuple[int, str]]:
    out: dict[str, tuple[int, str]] = {}
    for n, line in lines:
        match = SETUP_KEY.match(line)
        if match is None:
            raise PuzzleError(f"[setup] line {line!r} is not 'key = value'", line=n)
        out[match.group(1).lower()] = (n, match.group(2).strip())
    if "puzzle" in out and out["puzzle"][1].lower() not in PUZZLE_NAMES:
        n, name = out["puzzle"]
        raise PuzzleError(f"this janko file holds a {name!r} puzzle; thermomilp reads janko's "
                          "thermometer files", line=n)
    return out


def _check_size(setup: dict[str, tuple[int, str]], height: int, width: int) -> None:
    wanted = {"size": None, "rows": height, "cols": width}
    for key, expected in wanted.items():
        if key not in setup:
            continue
        n, value = setup[key]
        if not is_whole_number(value):
            raise PuzzleError(f"[setup] {key} = {value!r} is not a whole number", line=n)
        got = int(value)
        if key == "size" and (got, got) != (height, width):
            raise PuzzleError(f"[setup] says size = {got} but the grid is {height}x{width}",
                              line=n)
        if expected is not None and got != expected:
            raise PuzzleError(f"[setup] says {key} = {got} but the grid has {expected}", line=n)


def read(text: str, limits: SizeLimits = GENEROUS) -> Puzzle:
    sec = _sections(text)
    setup = _setup(sec.get("setup", []))
    for key in ("clabels", "rlabels", "labels"):
        if not sec.get(key):
            raise PuzzleError(f"the janko file has no {key!r} section (or it is empty)")
    cols = _clues(sec["clabels"], "column")
    rows = _clues(sec["rlabels"], "row")
    limits.check(len(rows), len(cols))
    labels = sec["labels"]
    if len(labels) != len(rows):
        raise PuzzleError(f"'labels' has {len(labels)} rows but 'rlabels' has {len(rows)} clues",
                          line=labels[-1][0])
    positions: dict[int, dict[int, tuple[int, int]]] = {}
    for r, (n, line) in enumerate(labels):
        tokens = line.split()
        if len(tokens) != len(cols):
            raise PuzzleError(f"labels {row_name(r)} has {len(tokens)} cells but 'clabels' has "
                              f"{len(cols)} clues", line=n)
        for c, tok in enumerate(tokens):
            m = TOKEN.match(tok)
            if not m:
                raise PuzzleError(f"cell {cell_name((r, c))} label {tok!r} is not T.K "
                                  "(thermometer.position)", line=n)
            t, k = int(m.group(1)), int(m.group(2))
            if k in positions.setdefault(t, {}):
                raise PuzzleError(f"thermometer {t} position {k} appears twice", line=n)
            positions[t][k] = (r, c)
    therms = []
    for t in sorted(positions):
        ks = sorted(positions[t])
        if ks != list(range(1, len(ks) + 1)):
            gap = next(k for k in range(1, len(ks) + 2) if k not in positions[t])
            raise PuzzleError(
                f"thermometer {t} has no position {gap} (positions must run 1, 2, ...)")
        therms.append([positions[t][k] for k in ks])
    solution = None
    if "solution" in sec:
        solution = []
        for r, (n, line) in enumerate(sec["solution"]):
            tokens = line.split()
            if len(tokens) != len(cols) or set(tokens) - {"x", "-"}:
                raise PuzzleError(f"solution {row_name(r)} must be {len(cols)} tokens of 'x' "
                                  "and '-'", line=n)
            solution.append("".join("#" if t == "x" else "." for t in tokens))
        if len(solution) != len(rows):
            raise PuzzleError(f"the solution has {len(solution)} rows, the grid {len(rows)}")
    _check_size(setup, len(rows), len(cols))
    # janko.at's own numbers name the thermometers (its thermometer 2 is our thermometer 2)
    return thermometers(rows, cols, therms, solution=solution, limits=limits,
                        labels=[str(t) for t in sorted(positions)])


def _clues(lines: list[tuple[int, str]], what: str) -> list[int | None]:
    if len(lines) != 1:
        raise PuzzleError(f"the {what} clues must be on one line", line=lines[1][0])
    n, line = lines[0]
    out: list[int | None] = []
    for tok in line.split():
        if tok == "-":
            out.append(None)
        elif is_whole_number(tok):
            out.append(int(tok))
        else:
            raise PuzzleError(f"{what} clue {tok!r} is not a number or '-'", line=n)
    return out


def write(puzzle: Puzzle) -> str:
    if puzzle.kind != "thermometers":
        raise PuzzleError("janko's thermometer format holds only Thermometers puzzles")
    label = {}
    for t, vessel in enumerate(puzzle.vessels, start=1):
        for k, cell in enumerate(vessel.cells, start=1):
            label[cell] = f"{t}.{k}"
    clue = lambda v: "-" if v is None else str(v)  # noqa: E731
    H, W = puzzle.shape
    size = [f"size = {H}"] if H == W else [f"rows = {H}", f"cols = {W}"]
    out = ["[setup]", "puzzle = thermometer", *size,
           "[clabels]", " ".join(map(clue, puzzle.cols)),
           "[rlabels]", " ".join(map(clue, puzzle.rows)), "[labels]"]
    out += [" ".join(label[(r, c)] for c in range(W)) for r in range(H)]
    if puzzle.solution is not None:
        out.append("[solution]")
        out += [" ".join("x" if ch == "#" else "-" for ch in row) for row in puzzle.solution]
    out += ["[moves]", "[end]"]
    return "\n".join(out) + "\n"
