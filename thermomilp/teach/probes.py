"""Probe boards and probe grids: the evidence behind every diagnosis.

The probe boards are small (3x3) boards chosen so that, for every two
different sets of mistakes of the catalogue (`thermomilp.teach.rules.variants`), some
grid of some probe board is obeyed by one and not by the other: missing,
zero and uneven clues, thermometers whose middle, tip and bulb can be
filled apart, one-row tanks for the ties and one-column tanks for gravity.
How the grader uses them: `thermomilp.teach.diagnose`. tests/test_teach_probes.py
checks that the probes still tell every two variants apart.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from thermomilp.core.puzzle import Grid, Puzzle
from thermomilp.teach.rules import Rules, allows, obeys, variants

PROBE_BOARDS = {  # the native text format (docs/formats.md); ? is a missing clue
    "thermometers": [
        """\
thermometers 3x3
   ? 1 0
1  o < o
1  o > ^
?  > o o
""",
        """\
thermometers 3x3
   2 2 2
1  o o <
3  v < o
2  o > ^
""",
    ],
    "aquarium": [
        """\
aquarium 3x3
   2 1 2
1  1 1 2
2  3 4 5
2  3 4 6
""",
        """\
aquarium 3x3
   1 1 1
?  1 2 3
1  4 2 5
0  6 7 8
""",
        """\
aquarium 3x3
   2 ? 2
1  1 2 3
1  4 5 3
2  4 5 3
""",
        """\
aquarium 3x3
   ? 2 ?
?  1 1 1
3  2 2 3
?  2 2 3
""",
    ],
}
# Rectangular boards, both orientations, with missing clues: evidence like every probe board
# (diagnose's ``exact``), not used to tell the variants apart (probes() reads the 3x3 ones).
RECTANGULAR = {
    "thermometers": [
        """\
thermometers 3x4
   2 1 ? 2
2  o o < <
?  ^ > > o
2  ^ o < <
""",
        """\
thermometers 4x3
   ? 2 0
0  o > o
2  ^ v v
?  ^ v v
1  ^ o o
""",
    ],
    "aquarium": [
        """\
aquarium 3x4
   2 1 2 ?
?  a a b b
3  c a b d
4  c c d d
""",
        """\
aquarium 4x3
   ? 2 2
0  a b b
2  a a b
?  c c d
2  c e d
""",
    ],
}
COVER = 2  # tell every two variants apart on this many grids where possible


@dataclass(frozen=True)
class Probe:
    board: int  # index into probe_boards(kind)
    grid: Grid
    obeyed_by: tuple[bool, ...]  # one per variant of rules.variants(kind)

    def allowed(self, kind: str, k: int, seen: bool) -> bool:
        """May a model that makes variant ``k``'s mistakes do ``seen`` on this grid?"""
        must, may = _allows(kind, self.board, self.grid, k)
        return (seen or not must) and (may or not seen)


def probe_boards(kind: str) -> list[Puzzle]:
    """The 3x3 boards that tell the variants apart, then the rectangular ones."""
    return list(_probe_boards(kind))


@lru_cache(maxsize=2)
def _probe_boards(kind: str) -> tuple[Puzzle, ...]:
    from thermomilp.formats import loads

    return tuple(loads(text) for text in PROBE_BOARDS[kind] + RECTANGULAR[kind])


def grid_of_bits(bits: int, h: int, w: int) -> Grid:
    """The grid whose cell (i, j) is filled when bit i * w + j of ``bits`` is set."""
    return tuple("".join("#" if bits >> (i * w + j) & 1 else "." for j in range(w))
                 for i in range(h))


def _all_grids(h: int, w: int) -> list[Grid]:
    return [grid_of_bits(bits, h, w) for bits in range(1 << (h * w))]


@lru_cache(maxsize=1 << 16)
def _allows(kind: str, board: int, grid: Grid, k: int) -> tuple[bool, bool]:
    return allows(_probe_boards(kind)[board], grid, variants(kind)[k])


@lru_cache(maxsize=256)
def grids_within(kind: str, board: int, rules: Rules) -> tuple[frozenset[int], frozenset[int]]:
    """(every grid a model that makes ``rules``' mistakes must accept on probe board
    ``board``, every grid it may accept), as bit sets (`thermomilp.teach.rules.allows`;
    the two are the grids that obey ``rules`` but for a missing tie)."""
    puzzle = _probe_boards(kind)[board]
    bounds = [allows(puzzle, g, rules) for g in _all_grids(puzzle.height, puzzle.width)]
    return (frozenset(b for b, (must, _) in enumerate(bounds) if must),
            frozenset(b for b, (_, may) in enumerate(bounds) if may))


def grids_obeying(kind: str, board: int) -> frozenset[int]:
    """Every 0/1 grid of probe board ``board`` that obeys the rules, as bit sets."""
    return grids_within(kind, board, Rules())[0]


@lru_cache(maxsize=2)
def probes(kind: str) -> tuple[Probe, ...]:
    """A small set of grids that tells every two variants apart (COVER times if it can)."""
    vs = variants(kind)
    candidates = [Probe(b, grid, tuple(obeys(puzzle, grid, v) for v in vs))
                  for b, puzzle in enumerate(probe_boards(kind)[:len(PROBE_BOARDS[kind])])
                  for grid in _all_grids(puzzle.height, puzzle.width)]
    need = Counter({(a, c): min(COVER, n) for a, c in combinations(range(len(vs)), 2)
                    if (n := sum(p.obeyed_by[a] != p.obeyed_by[c] for p in candidates))})
    chosen: list[Probe] = []

    def split(p: Probe) -> list[tuple[int, int]]:  # the pairs still needed that p tells apart
        return [(a, c) for a, c in need if p.obeyed_by[a] != p.obeyed_by[c]]

    while need:
        best = max(candidates, key=lambda p: len(split(p)))
        chosen.append(best)
        candidates.remove(best)
        need -= Counter(split(best))  # a Counter drops the pairs no more grid is needed for
    return tuple(chosen)


def undistinguished(kind: str) -> list[tuple[Rules, Rules]]:
    """Pairs of variants no probe tells apart (should be empty)."""
    vs = variants(kind)
    ps = probes(kind)
    return [(vs[a], vs[c]) for a, c in combinations(range(len(vs)), 2)
            if all(p.obeyed_by[a] == p.obeyed_by[c] for p in ps)]


__all__ = ["PROBE_BOARDS", "RECTANGULAR", "Probe", "grid_of_bits", "grids_obeying",
           "grids_within", "probe_boards", "probes", "undistinguished"]
