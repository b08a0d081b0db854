"""The page's hints never deduce a wrong value (property tests).

Random small boards of both kinds with a planted solution (not always
unique). Every rule is sound, so from marks that agree with the planted
solution each hint must deduce that solution's values (``reveal`` reads the
solution it is given); the walk must end on the planted grid.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thermomilp.generate.aquarium_gen import planted_aquarium
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.deduction import Deduction
from thermomilp.web.hints import RULE_NAMES, next_hint, page_json

RULES = set(RULE_NAMES) - {"contradiction", "mistake", "stuck"}  # rule ids that set cells


def board(kind: str, size: int, seed: int):
    rng = random.Random(seed)
    if kind == "thermometers":
        return planted_board(size, size, rng, max_length=4)
    return planted_aquarium(size, size, rng)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["thermometers", "aquarium"]), size=st.integers(3, 5),
       seed=st.integers(0, 10**6), reveal=st.integers(0, 100))
def test_hints_agree_with_every_solution(kind, size, seed, reveal):
    puzzle = board(kind, size, seed)
    planted = puzzle.solution
    # Start from a random part of the planted solution (a player who marked right).
    rng = random.Random(reveal)
    marks = ["".join(ch if rng.random() < reveal / 200 else "?" for ch in row)
             for row in planted]
    for _ in range(size * size + 1):
        hint = next_hint(puzzle, marks, solution=lambda: planted)
        if hint is None:
            break
        assert isinstance(hint, Deduction) and hint.rule in RULES, hint
        assert hint.cells and not hint.wrong
        rows = [list(row) for row in marks]
        for (r, c), value in hint.cells:
            assert marks[r][c] == "?"
            # Every rule is sound: from marks that agree with a solution it deduces that
            # solution's values (reveal reads them from the solution it is given).
            assert planted[r][c] == ("#" if value else "."), (hint, marks)
            rows[r][c] = "#" if value else "."
        marks = ["".join(row) for row in rows]
    assert tuple(marks) == planted


def test_a_broken_mark_is_reported_as_a_mistake():
    puzzle = board("thermometers", 4, 3)
    planted = puzzle.solution
    r, c = next((r, c) for r, row in enumerate(planted) for c, ch in enumerate(row))
    flipped = [list(row) for row in planted]
    flipped[r][c] = "." if planted[r][c] == "#" else "#"
    hint = next_hint(puzzle, ["".join(row) for row in flipped])
    assert hint is not None and hint.rule == "mistake" and hint.wrong and not hint.cells
    shown = page_json(hint)
    assert shown["mistake"] and shown["rule"] == "mistake" and shown["values"] == []
    assert shown["cells"] == [list(c) for c in hint.wrong]
