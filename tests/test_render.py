"""Terminal pictures: one glyph set for show and solve, and the hints' vessel labels."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.formats import load
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.hints import explain
from thermomilp.pictures.text import (
    AIR,
    BULB,
    TUBE,
    WATER,
    anchor_cell,
    render_board,
    vessel_legend,
)

from helpers import INSTANCES, random_aquarium

BOX = set("┌┐└┘├┤┬┴┼─│━┃╵╷╴╶ \n?0123456789")


def _board(kind: str, seed: int):
    rng = random.Random(seed)
    return planted_board(5, 6, rng) if kind == "thermometers" else random_aquarium(5, 6, rng)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["thermometers", "aquarium"]), st.integers(0, 10**6))
def test_unsolved_picture_is_the_empty_board_in_the_same_glyphs(kind, seed):
    puzzle = _board(kind, seed)
    empty = ["." * puzzle.width] * puzzle.height
    assert render_board(puzzle, None) == render_board(puzzle, empty)
    glyphs = set(BULB.values()) | set(TUBE.values()) | {WATER, AIR}
    picture = render_board(puzzle, puzzle.solution, legend=False)
    assert set(picture) <= BOX | glyphs
    filled = sum(row.count("#") for row in puzzle.solution)
    if kind == "thermometers":
        assert picture.count(BULB[True]) + picture.count(TUBE[True]) == filled
    else:
        assert picture.count(WATER) == filled


def test_legend_names_every_vessel_at_its_anchor_cell():
    for path in (INSTANCES / "thermometers" / "t03_6x6.txt",
                 INSTANCES / "aquarium" / "a01_6x6.txt"):
        puzzle = load(path)
        legend = vessel_legend(puzzle)
        found = dict(re.findall(r"(\S+) \((\d+,\d+)\)", legend))
        # the anchor cell counted from 1, as every text a person reads counts it
        assert found == {v.label: "%d,%d" % tuple(k + 1 for k in anchor_cell(puzzle, i))
                         for i, v in enumerate(puzzle.vessels)}
        assert all(len(line) <= 78 for line in legend.splitlines())
        assert legend in render_board(puzzle)


def test_the_labels_are_the_names_the_hints_use():
    puzzle = load(INSTANCES / "thermometers" / "t03_6x6.txt")
    names = {name for step in explain(puzzle).steps if step.vessel
             for name in step.vessel.split(", ")}
    assert names
    legend = vessel_legend(puzzle)
    for name in names:
        word, label = name.split(" ", 1)
        assert word == "thermometer"
        assert re.search(rf"\s{re.escape(label)} \(", legend), name
    # the bulb of each named thermometer is drawn as a bulb glyph at its legend cell
    picture = render_board(puzzle, None, legend=False).splitlines()
    for index in range(len(puzzle.vessels)):
        r, c = anchor_cell(puzzle, index)
        assert picture[2 + 2 * r][4 + 2 * c] == BULB[False]
