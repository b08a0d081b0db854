"""SVG pictures of boards and solutions, for the docs, slides and the browser app.

Thermometers are glass tubes with a round bulb and red mercury; Aquarium tanks have thick
walls and blue water; every vessel carries its label (``<text class="vessel-label">``).
The SVG is built as text: the board's name and labels are untrusted and only ever element
text, through `xml_text` (escaped, the characters XML forbids replaced, bounded), so no
name adds an element or breaks the file.
"""

from __future__ import annotations

import os
from typing import Sequence

from thermomilp.core.puzzle import Puzzle
from thermomilp.core.untrusted import xml_text
from thermomilp.pictures.text import anchor_cell

CELL = 40
MARGIN = 36
GLASS = "#d9dde3"
GLASS_EDGE = "#8a929c"
MERCURY = "#d7263d"
WATER = "#4f9ad8"
GRID = "#c8ccd2"
WALL = "#22262b"
TEXT = "#22262b"


def board_svg(puzzle: Puzzle, grid: Sequence[str] | None = None) -> str:
    """The board (and the filled ``grid``, if given) as an SVG document."""
    H, W = puzzle.shape
    width, height = MARGIN + W * CELL + 8, MARGIN + H * CELL + 8
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">']
    label = puzzle.name or f"{puzzle.kind} {H}x{W}"
    out.append(f"<title>{xml_text(label)}</title>")
    out.append(f'<rect width="{width}" height="{height}" fill="white"/>')
    out.extend(_grid_lines(H, W))
    out.extend(_clues(puzzle))
    if puzzle.kind == "thermometers":
        out.extend(_thermometers(puzzle, grid))
    else:
        out.extend(_aquarium(puzzle, grid))
    out.extend(_labels(puzzle, grid))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _centre(cell: tuple[int, int]) -> tuple[float, float]:
    r, c = cell
    return MARGIN + c * CELL + CELL / 2, MARGIN + r * CELL + CELL / 2


def _grid_lines(H: int, W: int) -> list[str]:
    lines = [f'<g stroke="{GRID}" stroke-width="1">']
    for r in range(H + 1):
        y = MARGIN + r * CELL
        lines.append(f'<line x1="{MARGIN}" y1="{y}" x2="{MARGIN + W * CELL}" y2="{y}"/>')
    for c in range(W + 1):
        x = MARGIN + c * CELL
        lines.append(f'<line x1="{x}" y1="{MARGIN}" x2="{x}" y2="{MARGIN + H * CELL}"/>')
    lines.append("</g>")
    return lines


def _clues(puzzle: Puzzle) -> list[str]:
    out = [f'<g fill="{TEXT}" font-size="{CELL * 0.45:.0f}" text-anchor="middle">']
    for j, clue in enumerate(puzzle.cols):
        if clue is not None:
            x = MARGIN + j * CELL + CELL / 2
            out.append(f'<text x="{x}" y="{MARGIN - 10}">{clue}</text>')
    for i, clue in enumerate(puzzle.rows):
        if clue is not None:
            y = MARGIN + i * CELL + CELL / 2 + CELL * 0.16
            out.append(f'<text x="{MARGIN / 2}" y="{y:.1f}">{clue}</text>')
    out.append("</g>")
    return out


def _path(cells: Sequence[tuple[int, int]]) -> str:
    points = [_centre(c) for c in cells]
    return "M " + " L ".join(f"{x:.1f} {y:.1f}" for x, y in points)


def _thermometers(puzzle: Puzzle, grid: Sequence[str] | None) -> list[str]:
    tube, bulb = CELL * 0.42, CELL * 0.36
    mercury_tube, mercury_bulb = CELL * 0.2, CELL * 0.26
    out = ['<g stroke-linecap="round" stroke-linejoin="round" fill="none">']
    for vessel in puzzle.vessels:
        cells = vessel.cells
        bx, by = _centre(cells[0])
        d = _path(cells)
        # glass: a dark outline under a light tube, then the bulb
        out.append(f'<path d="{d}" stroke="{GLASS_EDGE}" stroke-width="{tube + 3:.1f}"/>')
        out.append(f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="{bulb + 1.5:.1f}" fill="{GLASS_EDGE}" '
                   'stroke="none"/>')
        out.append(f'<path d="{d}" stroke="{GLASS}" stroke-width="{tube:.1f}"/>')
        out.append(f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="{bulb:.1f}" fill="{GLASS}" '
                   'stroke="none"/>')
        if grid is None:
            continue
        filled = [cell for cell in cells if grid[cell[0]][cell[1]] == "#"]
        if not filled:
            continue
        # mercury rises from the bulb: the filled cells are a prefix of the tube
        prefix = cells[:len(filled)]
        out.append(f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="{mercury_bulb:.1f}" fill="{MERCURY}" '
                   'stroke="none"/>')
        if len(prefix) > 1:
            out.append(f'<path d="{_path(prefix)}" stroke="{MERCURY}" '
                       f'stroke-width="{mercury_tube:.1f}"/>')
    out.append("</g>")
    return out


def _aquarium(puzzle: Puzzle, grid: Sequence[str] | None) -> list[str]:
    H, W = puzzle.shape
    labels = puzzle.region_grid()
    out = []
    if grid is not None:
        out.append(f'<g fill="{WATER}" stroke="none">')
        for r in range(H):
            for c in range(W):
                if grid[r][c] == "#":
                    out.append(f'<rect x="{MARGIN + c * CELL}" y="{MARGIN + r * CELL}" '
                               f'width="{CELL}" height="{CELL}"/>')
        out.append("</g>")
    out.append(f'<g stroke="{WALL}" stroke-width="4" stroke-linecap="round">')
    for r in range(H):
        for c in range(W):
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            if c + 1 < W and labels[r][c] != labels[r][c + 1]:
                out.append(f'<line x1="{x + CELL}" y1="{y}" x2="{x + CELL}" y2="{y + CELL}"/>')
            if r + 1 < H and labels[r][c] != labels[r + 1][c]:
                out.append(f'<line x1="{x}" y1="{y + CELL}" x2="{x + CELL}" y2="{y + CELL}"/>')
    out.append("</g>")
    out.append(f'<rect x="{MARGIN}" y="{MARGIN}" width="{W * CELL}" height="{H * CELL}" '
               f'fill="none" stroke="{WALL}" stroke-width="5"/>')
    return out


def _labels(puzzle: Puzzle, grid: Sequence[str] | None) -> list[str]:
    """Each vessel's label: centred in a thermometer's bulb (white on mercury),
    in the top-left corner of a tank's top-left cell."""
    size = CELL * (0.3 if puzzle.kind == "thermometers" else 0.28)
    out = [f'<g font-size="{size:.0f}">']
    for index, vessel in enumerate(puzzle.vessels):
        r, c = anchor_cell(puzzle, index)
        text = xml_text(vessel.label, 24)
        if puzzle.kind == "thermometers":
            x, y = _centre((r, c))
            colour = "white" if grid is not None and grid[r][c] == "#" else TEXT
            out.append(f'<text class="vessel-label" x="{x:.1f}" y="{y + size * 0.35:.1f}" '
                       f'text-anchor="middle" fill="{colour}">{text}</text>')
        else:
            x, y = MARGIN + c * CELL + 5, MARGIN + r * CELL + size + 3
            out.append(f'<text class="vessel-label" x="{x}" y="{y:.1f}" fill="{TEXT}">'
                       f'{text}</text>')
    out.append("</g>")
    return out


def svg_paths_for(target: str, sources: Sequence[str]) -> list[str]:
    """Where ``--svg target`` writes the picture of each of ``sources``: distinct names.

    One input file: ``target`` itself. Several: the input's stem is added,
    ``board.svg`` -> ``board-t01_4x4.svg``; when two inputs share a stem
    (``a/t.txt``, ``b/t.txt``) as many of their folders as tell them apart
    are added too (``board-a-t.svg``, ``board-b-t.svg``), and an input named
    twice gets ``-2``, ``-3``: no picture overwrites another.
    """
    if len(sources) == 1:
        return [target]

    def parts(source: str) -> list[str]:
        names = [p for p in os.path.normpath(source).split(os.sep) if p not in ("", ".", "..")]
        names = names or ["board"]
        names[-1] = os.path.splitext(names[-1])[0] or names[-1]
        return names

    split = [parts(s) for s in sources]
    deepest = max(len(p) for p in split)
    for depth in range(1, deepest + 1):
        labels = ["-".join(p[-depth:]) for p in split]
        if len(set(labels)) == len(labels):
            break
    base, ext = os.path.splitext(target)
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        suffix = f"-{seen[label]}" if seen[label] > 1 else ""
        out.append(f"{base}-{label}{suffix}{ext or '.svg'}")
    return out


def write_svg(target: str, puzzle: Puzzle, grid: Sequence[str] | None) -> None:
    from thermomilp.core.files import write_whole

    write_whole(target, board_svg(puzzle, grid))  # whole or not at all; surrogates escaped
