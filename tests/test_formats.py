"""Readers and writers: round trips, the janko corpus, site strings, errors, fuzzing."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thermomilp.core.errors import PuzzleError
from thermomilp.core.verify import solution_problems
from thermomilp.formats import FORMATS, detect, dumps, load, loads
from thermomilp.generate.random_board import planted_board

from helpers import INSTANCES, janko_files, needs_corpus

SITE_EXAMPLE = "3_2_1_1_2_1_2_2;1,2;5,2,3,7;5,4,8,12,13,14,15;5,9,5,6;1,2"


def _same_board(a, b) -> bool:
    """Equal up to the order of the vessels (formats may renumber thermometers)."""
    key = lambda p: sorted(v.layers for v in p.vessels)  # noqa: E731
    return (a.kind, a.rows, a.cols, key(a)) == (b.kind, b.rows, b.cols, key(b))


def test_site_example_reads_as_documented():
    p = loads(SITE_EXAMPLE)
    assert p.shape == (4, 4)
    assert p.cols == (3, 2, 1, 1) and p.rows == (2, 1, 2, 2)
    cells = [v.cells for v in p.vessels]
    assert cells[0] == ((0, 0), (0, 1))                     # 1,2: left to right from cell 0
    assert cells[1] == ((0, 2), (0, 3), (1, 3))             # 5,2,3,7
    assert cells[3] == ((2, 1), (1, 1), (1, 2))             # 5,9,5,6: bulb at index 9
    assert cells[4] == ((2, 2), (2, 3))                     # 1,2 at the first free cell, 10


@pytest.mark.parametrize("d, expect", [
    (1, ((0, 0), (0, 1), (0, 2))), (2, ((0, 2), (0, 1), (0, 0))),
    (3, ((0, 0), (1, 0), (2, 0))), (4, ((2, 0), (1, 0), (0, 0))),
])
def test_site_straight_directions(d, expect):
    rest = "5,1,2;5,4,5;5,7,8" if d in (3, 4) else "5,3,4,5;5,6,7,8"
    p = loads(f"0_0_0_0_0_0;{d},3;{rest}")
    assert p.vessels[0].cells == expect


@pytest.mark.parametrize("fmt", ["json", "text", "janko", "site"])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 8))
def test_round_trip_every_format(fmt, seed, n):
    rng = random.Random(seed)
    p = planted_board(n, n, rng, missing=0.0 if fmt == "site" else 0.3)
    back = loads(dumps(p, fmt))
    assert _same_board(p, back)
    if fmt in ("json", "text", "janko"):
        assert back.solution == p.solution


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), h=st.integers(1, 8), w=st.integers(1, 8))
def test_native_text_round_trips_exactly(seed, h, w):
    p = planted_board(h, w, random.Random(seed), missing=0.3)
    text = dumps(p, "text")
    assert dumps(loads(text), "text") == text


@pytest.mark.parametrize("path", sorted((INSTANCES / "thermometers").glob("*.txt")),
                         ids=lambda p: p.name)
def test_instances_load(path):
    p = load(path)
    if p.solution is not None:
        assert solution_problems(p, p.solution) == []


@needs_corpus
@pytest.mark.parametrize("path", janko_files(), ids=lambda p: p.name)
def test_janko_corpus_reads_with_its_solution(path):
    p = load(path)
    assert detect(path.read_text(), str(path)).name == "janko"
    assert p.shape == (6, 6) and p.solution is not None
    assert solution_problems(p, p.solution) == []
    assert _same_board(p, loads(dumps(p, "janko")))


@pytest.mark.parametrize("text, message, line", [
    ("", "empty", None),
    ("   \n\n", "empty", None),
    ('{"puzzle": "thermometers", "rows": [1]', "invalid JSON", 1),
    ('{"puzzle": "sudoku", "rows": [], "cols": []}', "unknown puzzle type", None),
    ("sudoku 3x3\n", "unrecognised puzzle format", None),
    ("thermometers\n 1 1\n", "no grid rows", 2),
    ("thermometers\nname: x\n", "ends before the column clues", 2),
    ("thermometers\n 1 1\n1 > o\n1 o x\n", "expected one of", 4),
    ("thermometers\n 1 1\n1 > >\n1 o o\n", "out of the grid", 3),
    ("thermometers\n 1 1\n1 > v\n1 ^ <\n", "loop", None),
    ("thermometers\n 1 9\n1 > o\n1 > o\n", "column 2 clue is 9", None),
    ("thermometers\n 1 1\n1 > o\n1 > o o\n", "has 3 cells", 4),
    ("clabels\n1 1\nrlabels\n1 1\nlabels\n1.1 1.2\n2.1 2.3\n", "no position 2", None),
    ("clabels\n1 1\nrlabels\n1 1\nlabels\n1.1 1.2\n", "'labels' has 1 rows", 6),
    ("clabels\n1 1\nrlabels\n1 1\nlabels\n1.1 1.2\n2.1 x\n", "not T.K", 7),
    ("1_1_1_1;1,2;1,3", "has length 3; from cell \\(2,1\\) there is room for 1..2", None),
    ("1_1_1_1;1,2;7,2", "must be 'd,len'", 1),
])
def test_bad_input_names_the_problem(text, message, line):
    with pytest.raises(PuzzleError, match=message) as info:
        loads(text, "board.txt")
    assert info.value.file == "board.txt"
    if line is not None:
        assert info.value.line == line
        assert f"board.txt:{line}:" in str(info.value)


def test_unreadable_and_binary_files(tmp_path):
    with pytest.raises(PuzzleError, match="cannot read"):
        load(tmp_path / "missing.txt")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(PuzzleError, match="not UTF-8"):
        load(bad)


def _valid_texts() -> list[str]:
    rng = random.Random(7)
    texts = []
    for fmt in ("json", "text", "janko", "site"):
        for n in (2, 3, 5):
            texts.append(dumps(planted_board(n, n, rng), fmt))
    texts += [p.read_text() for p in sorted((INSTANCES / "thermometers").glob("*.txt"))[:3]]
    return texts


VALID = _valid_texts()


@st.composite
def mutated(draw):
    text = draw(st.sampled_from(VALID))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "insert", "replace", "truncate", "duplicate"]))
        pos = draw(st.integers(0, max(0, len(text) - 1)))
        if op == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 8)):]
        elif op == "insert":
            text = text[:pos] + draw(st.text(min_size=1, max_size=4)) + text[pos:]
        elif op == "replace":
            glyph = draw(st.sampled_from(list("0123456789-?.,;_x#ov<>^{}[]\n ")))
            text = text[:pos] + glyph + text[pos + 1:]
        elif op == "truncate":
            text = text[:pos]
        else:
            text = text[:pos] + text[pos:pos + 20] + text[pos:]
    return text


def _read_or_our_error(text: str, fmt: str | None) -> None:
    try:
        loads(text, "fuzz.txt", fmt)
    except PuzzleError:
        pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated(), fmt=st.sampled_from([None, *FORMATS]))
def test_mutations_give_a_puzzle_or_our_error(text, fmt):
    _read_or_our_error(text, fmt)


@settings(max_examples=200, deadline=None)
@given(raw=st.binary(max_size=300), fmt=st.sampled_from([None, *FORMATS]))
def test_random_bytes_give_a_puzzle_or_our_error(raw, fmt):
    _read_or_our_error(raw.decode("utf-8", errors="replace"), fmt)


@pytest.mark.parametrize("labels", [("01", "1"), ("1", "01"), ("²", "1"), ("a", "1"),
                                    ("007", "7"), ("10", "010"), ("-1", "1"), ("٣", "3")])
def test_json_writer_never_merges_tanks(labels):
    """Tank ids survive a round trip as the distinct ids they were (issue 18)."""
    from thermomilp.core.puzzle import aquarium
    from thermomilp.formats import dumps

    a, b = labels
    board = aquarium([2, 0], [1, None, 1],
                     [[a, a, b], [a, a, b]])
    back = loads(dumps(board, "json"), "json")
    assert len(back.vessels) == len(board.vessels) == 2
    assert back.region_grid() == board.region_grid()
