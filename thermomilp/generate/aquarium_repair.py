"""Repair of a planted Aquarium: merge two tanks so that a rival stops being a solution.

Merging two neighbouring tanks only removes solutions and never changes the
clues: when the planted grid is still a legal filling of the merged tank and the
rival is not, the rival is gone (docs/generate.md, "Aquarium").

Among the pairs that kill the rival the smallest merged tank wins (the board
keeps small tanks); ties are broken by the seeded random stream.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from thermomilp.core.puzzle import Cell

Regions = list[list[str]]


def holds_water(cells: Sequence[Cell], grid: Sequence[str], rule: str) -> bool:
    """Is the filling of ``grid`` on these cells legal for one tank of ``rule``?"""
    if rule == "pool":
        return _pool_level(cells, grid)
    row_values: dict[int, set[str]] = {}
    for r, c in cells:
        row_values.setdefault(r, set()).add(grid[r][c])
    dry_below = False
    for r in sorted(row_values, reverse=True):  # bottom row first
        values = row_values[r]
        if len(values) > 1:
            return False
        if "." in values:
            dry_below = True
        elif dry_below:
            return False
    return True


def _pool_level(cells: Sequence[Cell], grid: Sequence[str]) -> bool:
    """Pool rule: water beside or above air of the tank would run into it, and each
    connected body of water stands level (cells below its top row have water above)."""
    tank = set(cells)
    wet = {(r, c) for r, c in cells if grid[r][c] == "#"}
    for r, c in wet:
        if any(nb in tank and nb not in wet for nb in ((r, c - 1), (r, c + 1), (r + 1, c))):
            return False
    seen: set[Cell] = set()
    for start in sorted(wet):
        if start in seen:
            continue
        body, stack = [], [start]
        seen.add(start)
        while stack:
            r, c = stack.pop()
            body.append((r, c))
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in wet and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        top = min(r for r, _ in body)
        if any(r > top and (r - 1, c) in tank and (r - 1, c) not in wet for r, c in body):
            return False
    return True


def merge_against(regions: Sequence[Sequence[str]], planted: Sequence[str],
                  rival: Sequence[str], rule: str, rng: random.Random,
                  most: int = 1) -> Regions | None:
    """A region grid with two neighbouring tanks merged so that ``planted`` is still a
    legal filling and ``rival`` is not; None when no such pair exists. ``most`` > 1
    merges up to that many disjoint pairs, each of them killing the rival on its own
    (a large rival is usually several independent ones side by side)."""
    merged = [list(line) for line in regions]
    done = 0
    while done < most:
        pair = _best_pair(merged, planted, rival, rule, rng)
        if pair is None:
            break
        keep, gone = pair
        merged = [[keep if label == gone else label for label in line] for line in merged]
        done += 1
    return merged if done else None


def _best_pair(regions: Sequence[Sequence[str]], planted: Sequence[str],
               rival: Sequence[str], rule: str, rng: random.Random) -> tuple[str, str] | None:
    cells: dict[str, list[Cell]] = {}  # tank -> its cells
    for r, line in enumerate(regions):
        for c, label in enumerate(line):
            cells.setdefault(label, []).append((r, c))
    differing = sorted(label for label, cs in cells.items()
                       if any(planted[r][c] != rival[r][c] for r, c in cs))
    best: list[tuple[str, str]] = []
    best_size = None
    for t in differing:
        neighbours = set()
        for r, c in cells[t]:
            for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= nr < len(regions) and 0 <= nc < len(regions[0]):
                    if regions[nr][nc] != t:
                        neighbours.add(regions[nr][nc])
        for u in sorted(neighbours):
            merged = cells[t] + cells[u]
            size = len(merged)
            if best_size is not None and size > best_size:
                continue
            if holds_water(merged, planted, rule) and not holds_water(merged, rival, rule):
                pair = (min(t, u), max(t, u))
                if best_size is None or size < best_size:
                    best, best_size = [pair], size
                elif pair not in best:
                    best.append(pair)
    return rng.choice(best) if best else None


def relabel(regions: Sequence[Sequence[str | int]]) -> Regions:
    """Tanks numbered 1, 2, ... in reading order of their first cell."""
    order: dict[str | int, str] = {}
    for line in regions:
        for label in line:
            order.setdefault(label, str(len(order) + 1))
    return [[order[label] for label in line] for line in regions]
