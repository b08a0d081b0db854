"""The rival: per-line generalised arc consistency by witness sets (docs/logic.md,
"GAC is interval reasoning": on Thermometers it reaches the fixpoint of the intervals).

A level ``L`` of vessel ``t`` survives line ``l`` iff some choice of levels of the
other vessels crossing ``l`` makes the line sum equal the clue (a *witness*), i.e.
iff ``clue - c_t(L)`` lies in the sums they reach: prefix ⊕ suffix, bitsets over the
line's vessels. Holes in domains and jumps in contributions are handled exactly.

It deliberately shares no code with `thermomilp.logic.propagation` -- not even the
contribution tables -- so that ``tests/test_logic_gac.py`` can falsify that claim.
"""

from __future__ import annotations

from itertools import accumulate

from thermomilp.core.puzzle import Puzzle


def _contributions(puzzle: Puzzle) -> list[tuple[int | None, list[tuple[int, list[int]]]]]:
    """Per line (rows then columns): clue and [(vessel, contribution per level)]."""
    H, W = puzzle.height, puzzle.width
    lines: list[tuple[int | None, list[tuple[int, list[int]]]]] = [
        (clue, []) for clue in list(puzzle.rows) + list(puzzle.cols)]
    for v, vessel in enumerate(puzzle.vessels):
        for line in range(H + W):
            in_line = [sum(1 for r, c in layer if (r if line < H else H + c) == line)
                       for layer in vessel.layers]
            if any(in_line):
                lines[line][1].append((v, list(accumulate(in_line, initial=0))))
    return lines


def _sumset(a: int, b: int) -> int:
    out = 0
    s = 0
    while a:
        if a & 1:
            out |= b << s
        a >>= 1
        s += 1
    return out


def _reach(dom_mask: int, contrib: list[int]) -> int:
    """Bitset of contributions reachable by the levels in ``dom_mask``."""
    out = 0
    for L, c in enumerate(contrib):
        if dom_mask >> L & 1:
            out |= 1 << c
    return out


def gac_fixpoint(puzzle: Puzzle, dom: list[int]) -> bool:
    """Erase unsupported levels line by line until nothing changes; False if a domain empties."""
    lines = [(clue, members) for clue, members in _contributions(puzzle) if clue is not None]
    changed = True
    while changed:
        changed = False
        for clue, members in lines:
            reach = [_reach(dom[v], contrib) for v, contrib in members]
            prefix = list(accumulate(reach, _sumset, initial=1))
            suffix = list(accumulate(reversed(reach), _sumset, initial=1))[::-1]
            if not members:
                if clue != 0:
                    return False
                continue
            for i, (v, contrib) in enumerate(members):
                others = _sumset(prefix[i], suffix[i + 1])
                keep = 0
                for L, c in enumerate(contrib):
                    if dom[v] >> L & 1 and clue >= c and others >> (clue - c) & 1:
                        keep |= 1 << L
                if keep != dom[v]:
                    if not keep:
                        return False
                    dom[v] = keep
                    changed = True
    return True
