"""The interval revision of one line against a plain reference (thermomilp.logic.propagation)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.generate.random_board import planted_board
from thermomilp.logic.domains import full_domains, line_tables
from thermomilp.logic.propagation import revise_line


def reference_revise(tables, dom, line):
    """Every vessel of the line, every level: keep a level whose contribution fits between
    the clue minus the others' largest and the clue minus the others' smallest."""
    clue = tables.clues[line]
    if clue is None:
        return []
    pairs = list(zip(tables.line_vessels[line], tables.line_tables[line], strict=True))
    lows = [min(tab[L] for L in range(len(tab)) if dom[v] >> L & 1) for v, tab in pairs]
    highs = [max(tab[L] for L in range(len(tab)) if dom[v] >> L & 1) for v, tab in pairs]
    if sum(lows) > clue or sum(highs) < clue:
        return None
    changed = []
    for k, (v, tab) in enumerate(pairs):
        need_min = clue - (sum(highs) - highs[k])
        need_max = clue - (sum(lows) - lows[k])
        keep = sum(1 << L for L in range(len(tab))
                   if dom[v] >> L & 1 and need_min <= tab[L] <= need_max)
        if not keep:
            return None
        if keep != dom[v]:
            dom[v] = keep
            changed.append(v)
    return changed


@given(st.integers(0, 10**6))
@settings(max_examples=60, deadline=None)
def test_revise_line_matches_the_plain_reference(seed):
    rng = random.Random(seed)
    p = planted_board(rng.randint(3, 8), rng.randint(3, 8), rng)
    if rng.random() < 0.3:
        p = p.with_clues([c if rng.random() < 0.7 else None for c in p.rows], p.cols)
    tables = line_tables(p)
    dom = [m & rng.getrandbits(m.bit_length()) or 1 << rng.randrange(m.bit_length())
           for m in full_domains(tables)]
    for line in range(len(tables.clues)):
        ours, theirs = dom.copy(), dom.copy()
        got, want = revise_line(tables, ours, line), reference_revise(tables, theirs, line)
        assert (got is None) == (want is None)
        if want is not None:
            assert got == want and ours == theirs
