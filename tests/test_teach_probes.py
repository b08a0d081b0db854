"""The probes tell every two variants of the rules apart, and the rule checker is the verifier."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.core.verify import solution_problems
from thermomilp.formats import load
from thermomilp.teach.probes import probe_boards, probes, undistinguished
from thermomilp.teach.rules import Rules, obeys, variants

from helpers import INSTANCES


@pytest.mark.parametrize("kind", ["thermometers", "aquarium"])
def test_probes_tell_every_two_variants_apart(kind):
    assert undistinguished(kind) == []
    assert len(probes(kind)) < 40  # each probe is one solve per student


@pytest.mark.parametrize("kind", ["thermometers", "aquarium"])
def test_every_variant_but_the_rules_is_a_mistake(kind):
    vs = variants(kind)
    assert vs[0] == Rules() and vs[0].mistakes() == frozenset()
    assert all(v.mistakes() for v in vs[1:])


BOARDS = [load(INSTANCES / "thermometers" / "t01_4x4.txt"),
          load(INSTANCES / "aquarium" / "a01_6x6.txt")] + probe_boards("thermometers") \
    + probe_boards("aquarium")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(BOARDS), st.data())
def test_correct_rules_agree_with_the_verifier(puzzle, data):
    grid = tuple("".join(data.draw(st.sampled_from("#."), label="cell")
                         for _ in range(puzzle.width)) for _ in range(puzzle.height))
    assert obeys(puzzle, grid) == (solution_problems(puzzle, grid) == [])


def test_probe_boards_have_solutions():
    for puzzle in itertools.chain(probe_boards("thermometers"), probe_boards("aquarium")):
        assert any(p.obeyed_by[0] for p in probes(puzzle.kind))


def _random_board(kind: str, seed: int, size: int):
    import random

    from thermomilp.generate.random_board import planted_board

    from helpers import random_aquarium

    rng = random.Random(seed)
    if kind == "thermometers":
        return planted_board(size, size, rng, max_length=4, missing=0.2)
    return random_aquarium(size, size, rng)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["thermometers", "aquarium"]), st.integers(0, 10**6), st.integers(3, 5),
       st.data())
def test_the_accept_oracle_agrees_with_the_rules(kind, seed, size, data):
    """Fixing the reference model's cells to a grid is feasible iff the grid obeys the rules."""
    from thermomilp.teach.checks import reference_model
    from thermomilp.teach.linear import accepts

    puzzle = _random_board(kind, seed, size)
    model = reference_model(puzzle)
    cells = st.tuples(st.integers(0, puzzle.height - 1), st.integers(0, puzzle.width - 1))
    flips = set(data.draw(st.lists(cells, max_size=6), label="flipped cells"))
    grid = tuple("".join(("." if ch == "#" else "#") if (i, j) in flips else ch
                         for j, ch in enumerate(line)) for i, line in enumerate(puzzle.solution))
    assert accepts(model, grid) == obeys(puzzle, grid)
    assert accepts(model, puzzle.solution)  # the planted solution


@pytest.mark.parametrize("kind", ["thermometers", "aquarium"])
def test_the_accept_oracle_agrees_with_the_rules_on_every_probe(kind):
    from thermomilp.teach.checks import reference_model
    from thermomilp.teach.linear import accepts

    models = [reference_model(p) for p in probe_boards(kind)]
    assert [accepts(models[p.board], p.grid) for p in probes(kind)] == \
        [p.obeyed_by[0] for p in probes(kind)]


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(["thermometers", "aquarium"]), st.integers(0, 10**6), st.integers(3, 5))
def test_the_reference_model_is_right_on_random_boards(kind, seed, size):
    from thermomilp.logic.brute import brute_force_count
    from thermomilp.solving import count_solutions
    from thermomilp.teach.checks import grade_board, reference_model
    from thermomilp.teach.sandbox import Built

    puzzle = _random_board(kind, seed, size)
    graded = grade_board("random", puzzle, Built(reference_model(puzzle)))
    assert graded.verdict == "right", graded.findings
    assert count_solutions(puzzle, limit=3) == brute_force_count(puzzle, limit=3)
