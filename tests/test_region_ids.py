"""Region ids are kept as given: ``1`` and ``"1"`` are two tanks, end to end
(issue 25: the reader merged them into one tank and the board turned infeasible)."""

from __future__ import annotations

import json

import pytest

from thermomilp.core.puzzle import aquarium
from thermomilp.formats import dumps, loads
from thermomilp.logic.brute import brute_force_count
from thermomilp.pictures.text import render_board

# Left column: tank 1; right column: tank "1". Bottom row holds one cell of water, the
# top row none. Two tanks: the water stands in either column (two solutions). Merged
# into one tank, the bottom row fills as a whole (0 or 2 cells): no solution at all.
MIXED = json.dumps({"puzzle": "aquarium", "rows": [0, 1], "cols": [None, None],
                    "regions": [[0, 0, 1], [0, 1, "1"], [1, 0, 1], [1, 1, "1"]]})


def test_a_number_and_a_string_id_are_two_tanks():
    puzzle = loads(MIXED, fmt="json")
    assert len(puzzle.vessels) == 2
    assert [v.region_id for v in puzzle.vessels] == [1, "1"]
    assert len({v.label for v in puzzle.vessels}) == 2  # pictures and hints tell them apart
    assert brute_force_count(puzzle, 3) == 2


def test_the_solve_record_keys_levels_by_both_ids():
    pytest.importorskip("highspy")
    from thermomilp.solving import solve

    result = solve(loads(MIXED, fmt="json"))
    record = json.loads(json.dumps(result.to_json("mixed.json")))
    assert record["status"] == "multiple"
    assert len(record["levels"]) == 2
    assert sorted(record["levels"].values()) == [0, 1]


def test_json_round_trip_keeps_the_types():
    puzzle = loads(MIXED, fmt="json")
    written = json.loads(dumps(puzzle, "json"))
    assert written["regions"] == [[0, 0, 1], [0, 1, "1"], [1, 0, 1], [1, 1, "1"]]
    assert loads(dumps(puzzle, "json"), fmt="json") == puzzle


@pytest.mark.parametrize("fmt", ["text", "pzprv3", "puzzlink"])
def test_other_writers_keep_the_two_tanks(fmt):
    puzzle = loads(MIXED, fmt="json")
    again = loads(dumps(puzzle, fmt), fmt=fmt)
    assert len(again.vessels) == 2
    assert brute_force_count(again, 3) == 2


def test_the_picture_draws_a_wall_between_them():
    picture = render_board(loads(MIXED, fmt="json"))
    assert "│   │   │" in picture  # a wall in the middle of each row


def test_text_ids_have_no_type_but_stay_apart():
    # the native text format: "07" and "7" are two tanks; a plain number is written to
    # JSON as a number, anything else as a string
    text = "aquarium 1x2\n  ? ?\n1 07 7\n"
    puzzle = loads(text, fmt="text")
    assert [v.label for v in puzzle.vessels] == ["07", "7"]
    assert json.loads(dumps(puzzle, "json"))["regions"] == [[0, 0, "07"], [0, 1, 7]]
    assert loads(dumps(puzzle, "json"), fmt="json") == puzzle


def test_python_callers_get_the_same_rule():
    board = aquarium([0, 1], [None, None], [[1, "1"], [1, "1"]])
    assert [v.region_id for v in board.vessels] == [1, "1"]
    assert [v.label for v in board.vessels] == ["1", '"1"']
    same = aquarium([0, 1], [None, None], [["1", "1"], ["1", "1"]])
    assert len(same.vessels) == 1
