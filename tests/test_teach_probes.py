"""The probes tell every two variants of the rules apart, and the rule checker is the verifier."""

from __future__ import annotations

import itertools

import pytest
from helpers import INSTANCES
from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.formats import load
from thermomilp.teach.probes import probe_boards, probes, undistinguished
from thermomilp.teach.rules import Rules, obeys, variants
from thermomilp.verify import solution_problems


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
