"""Aquarium formats: round trips, detection, puzz.link decoding, the rule warning, fuzzing."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thermomilp import loads
from thermomilp.core.errors import PuzzleError, WaterlineRuleWarning
from thermomilp.core.puzzle import aquarium, grid_from_levels
from thermomilp.core.verify import solution_problems
from thermomilp.formats import FORMATS, detect, dumps
from thermomilp.generate.aquarium_gen import generate_aquarium, random_tanks

from aquarium_boards import partition, public_6x6, random_board

AQUARIUM_FORMATS = ("json", "text", "aquarium-task", "puzzlink")


def same_board(a, b):
    return (a.kind, a.rows, a.cols) == (b.kind, b.rows, b.cols) and partition(a) == partition(b)


@pytest.mark.parametrize("fmt", AQUARIUM_FORMATS)
def test_round_trip_and_detection(fmt):
    boards = [public_6x6(), generate_aquarium(7, 7, seed=3)]
    rng = random.Random(5)
    boards += [random_board(rng, missing=0.4) for _ in range(20)]
    for puzzle in boards:
        if fmt == "aquarium-task" and puzzle.height != puzzle.width:
            continue
        text = dumps(puzzle, fmt)
        assert detect(text).name == fmt
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # we write the 'r' flag: no warning
            back = loads(text)
        assert same_board(back, puzzle)


def test_registered():
    assert {"aquarium-task", "puzzlink"} <= set(FORMATS)


def test_task_string_exact_form():
    text = dumps(public_6x6(), "aquarium-task")
    assert text == ("2_1_3_3_3_5_4_1_2_2_4_4;"
                    "1,1,2,2,3,3,4,5,3,3,3,6,4,5,3,3,6,6,4,5,3,3,3,6,5,5,6,6,3,6,5,5,6,6,6,6\n")


def test_task_string_missing_clues_and_errors():
    puzzle = loads("_1_?_1;0,0,1,1")
    assert puzzle.cols == (None, 1) and puzzle.rows == (None, 1)
    with pytest.raises(PuzzleError, match="not orthogonally connected"):
        loads("1_1_1_1;0,1,1,0")
    with pytest.raises(PuzzleError, match="row 1 clue is 3"):
        loads("1_1_3_1;0,0,1,1")
    with pytest.raises(PuzzleError):
        FORMATS["aquarium-task"].read("1_1_1;0,0,1,1")


def test_thermometer_task_strings_still_detected():
    # one group per thermometer: never a single group of n*n entries
    text = "3_2_1_1_2_1_2_2;1,2;5,2,3,7;5,4,8,12,13,14,15;5,9,5,6;1,2"
    assert detect(text).name == "site"
    assert loads(text).kind == "thermometers"
    assert detect("1_1_1_1;0,0,1,1").name == "aquarium-task"


# A 3-column, 2-row board drawn by hand:   A A B
#                                          C A B
# vertical edges (row 0: A|A, A|B; row 1: C|A, A|B) = 0 1 1 1, padded -> 01110 = 'e'
# horizontal edges (below row 0: A/C, A/A, B/B)    = 1 0 0, padded   -> 10000 = 'g'
# clues, columns then rows: 2, none, 1 | none, 3  ->  '2' 'g' '1' 'g' '3'
HAND_URL = "https://puzz.link/p?aquarium/r/3/2/eg/2g1g3"


def test_puzzlink_decodes_hand_drawn_url():
    puzzle = loads(HAND_URL)
    assert puzzle.cols == (2, None, 1) and puzzle.rows == (None, 3)
    assert partition(puzzle) == {frozenset({(0, 0), (0, 1), (1, 1)}),
                                 frozenset({(0, 2), (1, 2)}), frozenset({(1, 0)})}
    assert dumps(puzzle, "puzzlink").strip() == HAND_URL
    assert same_board(loads(HAND_URL.replace("/eg/", "/fg/")), puzzle)  # padding ignored


def test_puzzlink_variants_of_the_address():
    for url in ("http://pzv.jp/p.html?aquarium/r/3/2/eg/2g1g3", "aquarium/r/3/2/eg/2g1g3",
                "https://puzz.link/p?aquarium_edit/r/3/2/eg/2g1g3"):
        assert same_board(loads(url), loads(HAND_URL))
    assert loads("aquarium/r/3/2/eg/2.1.3").cols == (2, None, 1)  # '.' unknown clue
    assert loads("aquarium/r/3/2/fg").rows == (None, None)  # no clue part


def test_puzzlink_two_digit_clues_and_long_skips():
    rng = random.Random(17)
    board = aquarium([0] * 17, [0] * 17, random_tanks(17, 17, rng))
    grid = grid_from_levels(board, [v.depth for v in board.vessels])  # all water: clues 17
    puzzle = board.with_clues([17] * 17, [17] * 17)
    assert solution_problems(puzzle, grid) == []
    text = dumps(puzzle, "puzzlink")
    assert "-" in text.split("/")[-1]  # a clue of 16 or 17 uses '-xx'
    assert same_board(loads(text), puzzle)
    sparse = puzzle.with_clues([None] * 16 + [puzzle.rows[16]], [None] * 17)
    text = dumps(sparse, "puzzlink")
    assert "z" in text.split("/")[-1]  # a run of 20 skipped clues
    assert same_board(loads(text), sparse)


def test_puzzlink_without_r_flag_is_the_pool_rule():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning any more: the rule is read, not replaced
        puzzle = loads("https://puzz.link/p?aquarium/3/2/eg/2g1g3")
    tank = loads(HAND_URL)
    assert puzzle.rule == "pool" and tank.rule == "tank"
    assert puzzle.region_grid() == tank.region_grid()
    assert "/r/" not in dumps(puzzle, "puzzlink") and "/r/" in dumps(tank, "puzzlink")


def test_cli_solves_a_pool_url_without_a_warning(tmp_path):
    path = tmp_path / "board.url"
    path.write_text("https://puzz.link/p?aquarium/3/2/eg/2g1g3\n")
    out = subprocess.run([sys.executable, "-m", "thermomilp", "solve", str(path), "--format",
                          "json"], capture_output=True, text=True, check=False)
    assert "warning" not in out.stderr
    assert out.stdout.count("\n") == 1  # the JSON line only


@pytest.mark.parametrize("url, message", [
    ("aquarium/r/3/2/fw/2g1g3", "base-32"),
    ("aquarium/r/3/2/f/2g1g3", "border part has 1 characters"),
    ("aquarium/r/3/2/eg/-1", "two hex digits"),
    ("aquarium/r/3/2/eg/2Q", "not a clue character"),
    ("aquarium/r/3/2/eg/9", "column 1 clue is 9"),
    ("aquarium/r/0/2/eg/2", "outside"),
    ("aquarium/r/x/3/2/eg/2", "unexpected URL part"),
    ("aquarium/3", "<cols>/<rows>"),
])
def test_puzzlink_errors(url, message):
    with pytest.raises(PuzzleError, match=message):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            FORMATS["puzzlink"].read(url)


def _valid_texts() -> list[str]:
    puzzle = generate_aquarium(5, 5, seed=1)
    return [dumps(puzzle, fmt) for fmt in AQUARIUM_FORMATS]


VALID = _valid_texts()


def _parse(text: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WaterlineRuleWarning)
        try:
            loads(text, "fuzz")
        except PuzzleError:
            pass


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_fuzz_random_bytes(raw):
    _parse(raw.decode("utf-8", errors="replace"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VALID), st.lists(st.tuples(st.integers(0, 10**6),
                                                  st.sampled_from(
                                                      "0123456789abgz.-_;,/ ?#xr\n{}[]\""),
                                                  st.sampled_from(["replace", "insert", "delete"])),
                                        min_size=1, max_size=6))
def test_fuzz_mutations_of_valid_files(text, edits):
    chars = list(text)
    for pos, ch, op in edits:
        k = pos % (len(chars) + 1)
        if op == "insert":
            chars.insert(k, ch)
        elif chars and k < len(chars):
            if op == "replace":
                chars[k] = ch
            else:
                del chars[k]
    _parse("".join(chars))


@pytest.mark.parametrize("fmt, suffix", [("json", ".json"), ("text", ".txt"),
                                         ("aquarium-task", ".task"), ("puzzlink", ".url")])
def test_cli_solves_every_format_with_the_json_contract(tmp_path, fmt, suffix):
    import json

    path = tmp_path / f"public{suffix}"
    path.write_text(dumps(public_6x6(), fmt))
    for formulation in ("cell", "compact"):
        out = subprocess.run([sys.executable, "-m", "thermomilp", "solve", str(path), "--format",
                              "json", "--formulation", formulation],
                             capture_output=True, text=True, check=False)
        assert out.returncode == 0, out.stderr
        record = json.loads(out.stdout)
        assert record["puzzle"] == "aquarium" and record["status"] == "unique"
        assert record["grid"][0] == "####.."
        assert isinstance(record["levels"], dict) and len(record["levels"]) == 6
        assert set(record) >= {"file", "second", "backend", "solver", "time_s"}


@pytest.mark.parametrize("text, message", [
    ('{"puzzle": "aquarium", "rows": [1, 1], "cols": [1, 1], '
     '"regions": [[0, 0, 1], [0, 1, 1], [1, 0, 2]]}', "cell (2,2) (index [1, 1]) is in no tank"),
    ('{"puzzle": "aquarium", "rows": [1, 1], "cols": [1, 1], '
     '"regions": [[0, 0, 1], [0, 1, 1], [1, 0, 2], [1, 1, 2], [2, 0, 2]]}', "outside the 2x2"),
    ('{"puzzle": "aquarium", "rows": [1, 1], "cols": [1, 1], '
     '"regions": [[0, 0, 1], [0, 1, 2], [1, 0, 2], [1, 1, 1]]}', "not orthogonally connected"),
    ('{"puzzle": "aquarium", "rows": [1, 3], "cols": [1, 1], '
     '"regions": [[0, 0, 1], [0, 1, 1], [1, 0, 2], [1, 1, 2]]}', "row 2 clue is 3"),
    ('{"puzzle": "aquarium", "rows": [1, 1], "cols": [1, 1], '
     '"regions": [[0, 0, 1], [0, 0, 1], [1, 0, 2], [1, 1, 2]]}', "listed in two regions"),
    ('{"puzzle": "aquarium", "rows": [1, 1], "cols": [1, 1]}', 'needs a "regions" list'),
])
def test_json_errors(text, message):
    import re

    with pytest.raises(PuzzleError, match=re.escape(message)):
        loads(text, "board.json")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VALID + [""]), st.binary(max_size=40), st.integers(0, 400))
def test_fuzz_raw_bytes_through_load(text, noise, where):
    """Bytes spliced into a valid file and read from disk: a puzzle or a PuzzleError."""
    import os
    import tempfile

    from thermomilp import load

    raw = text.encode()
    k = where % (len(raw) + 1)
    data = raw[:k] + noise + raw[k:]
    fd, name = tempfile.mkstemp(suffix=".txt")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", WaterlineRuleWarning)
            try:
                load(name)
            except PuzzleError as exc:
                assert str(exc).startswith(name)
    finally:
        os.unlink(name)
