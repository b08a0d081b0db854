"""The logic engine on layer trees (the pool Aquarium rule), checked against brute force.

Every deduction -- propagation, probing, each explained step, the presolve -- must
agree with every brute-force solution that agrees with the marks; a finished
explanation must be the unique solution; the tree search must find exactly the
brute-force solutions; and a mark is called a mistake exactly when no solution
agrees with the marks.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_aquarium_pool import random_filling, random_regions

from thermomilp.core.puzzle import aquarium
from thermomilp.logic import tree
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.logic.grade import GRADES, grade
from thermomilp.logic.hints import explain, next_hint
from thermomilp.logic.presolve import presolve_cells


def _board(seed: int, blank: float = 0.2):
    rng = random.Random(seed)
    h, w = rng.randint(2, 5), rng.randint(2, 5)
    regions = random_regions(rng, h, w, "ab" if rng.random() < 0.5 else "abc")
    shape = aquarium([0] * h, [0] * w, regions, rule="pool")
    filling = random_filling(shape, rng)
    rows = [row.count("#") if rng.random() > blank else None for row in filling]
    cols = [sum(row[c] == "#" for row in filling) if rng.random() > blank else None
            for c in range(w)]
    return aquarium(rows, cols, regions, rule="pool"), filling, rng


def _agrees(grid, marks) -> bool:
    return all((grid[r][c] == "#") == bool(v) for (r, c), v in marks.items())


def _marks(rng: random.Random, grid, share: float):
    return {(r, c): int(ch == "#") for r, row in enumerate(grid) for c, ch in enumerate(row)
            if rng.random() < share}


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9), st.floats(0, 0.4))
def test_probing_is_sound_and_complete_on_marks(seed, share):
    board, filling, rng = _board(seed)
    if not any(not v.is_chain for v in board.vessels):
        return
    # marks from the planted filling, or (one in three) from an arbitrary legal filling
    source = filling if rng.random() < 0.67 else random_filling(board, rng)
    marks = _marks(rng, source, share)
    solutions = [g for g in brute_force_solutions(board) if _agrees(g, marks)]
    t = tree.Trees(board)
    state = t.state_of(marks)
    ok = state is not None and tree.probe_trees(t, state)
    if not ok:
        assert not solutions
        return
    for g, value in enumerate(state):
        for r, c in t.cells[g]:
            if value != tree.UNKNOWN:
                assert all((s[r][c] == "#") == bool(value) for s in solutions)
    found = set(tree.search_trees(board, marks=marks))
    assert found == set(solutions)
    mistake = tree.find_mistake(board, marks)
    assert (mistake is None) == bool(solutions or not marks)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9))
def test_every_explained_step_agrees_with_every_solution(seed):
    board = _board(seed)[0]
    solutions = list(brute_force_solutions(board))
    result = explain(board)
    assert result.status in ("solved", "stalled")  # the planted filling is a solution
    for step in result.steps:
        assert step.rule in ("bookkeeping", "line_count", "chained_count", "probe")
        for (r, c), value in step.cells:
            assert all((s[r][c] == "#") == bool(value) for s in solutions), step.text
    if result.status == "solved":
        assert solutions == [tuple(row.replace("x", ".") for row in result.grid)]
    fixed, grid, status = presolve_cells(board, "probing")
    assert status in ("solved", "open")
    for (r, c), value in fixed.items():
        assert all((s[r][c] == "#") == bool(value) for s in solutions)
    if status == "solved":
        assert [grid] == solutions
    assert grade(board) in GRADES
    if grade(board) in ("intervals", "probing"):
        assert len(solutions) == 1


def test_rules_fire_and_wrong_marks_are_named():
    fired: set[str] = set()
    for seed in range(300):
        board = _board(seed, blank=0.4)[0]
        fired.update(s.rule for s in explain(board).steps)
    assert fired == {"bookkeeping", "line_count", "chained_count", "probe"}
    board, filling, _ = _board(7)
    wrong = {(0, 0): int(filling[0][0] != "#")}
    if not any(_agrees(s, wrong) for s in brute_force_solutions(board)):
        assert next_hint(board, wrong).rule == "mistake"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.floats(0, 0.5))
def test_hints_from_planted_marks_are_sound(seed, share):
    board, filling, rng = _board(seed)
    marks = _marks(rng, filling, share)
    solutions = [g for g in brute_force_solutions(board) if _agrees(g, marks)]
    step = next_hint(board, marks)
    assert step.rule != "mistake"  # the marks come from a solution
    for (r, c), value in step.cells:
        assert all((s[r][c] == "#") == bool(value) for s in solutions), step.text
    for step in explain(board, marks).steps:
        for (r, c), value in step.cells:
            assert all((s[r][c] == "#") == bool(value) for s in solutions), step.text


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(["intervals", "probing"]))
def test_the_presolve_never_changes_solves_answer(seed, mode):
    from thermomilp.solving import solve

    board = _board(seed, blank=0.3)[0]
    solutions = list(brute_force_solutions(board))
    result = solve(board, logic=mode)
    assert result.status == ("unique" if len(solutions) == 1 else "multiple")
    assert tuple(result.grid) in solutions
