"""Issue 18 for the formats: writers keep the board; sizes and numbers checked before anything
is built.

* every writer/reader pair round-trips every board it can write, with adversarial
  tank labels (kept, or renumbered to unique ids -- never merged);
* tiny inputs that declare huge boards are refused before allocation, under the
  generous default limits and the strict ones a server passes;
* numbers of thousands of digits and non-ASCII digits are a clear PuzzleError.
"""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_aquarium_pool import random_filling, random_regions

from thermomilp.core.errors import PuzzleError
from thermomilp.core.puzzle import SizeLimits, aquarium, thermometers
from thermomilp.core.verify import solution_problems
from thermomilp.formats import FORMATS, STRICT, dumps, loads
from thermomilp.generate.random_board import planted_board

HUGE = "9" * 5000

AQUARIUM_WRITERS = ("json", "text", "puzzlink", "pzprv3", "aquarium-task")
THERMO_WRITERS = ("json", "text", "janko", "site")


def _partition(p):
    """The board up to renaming tanks: the set of cell sets."""
    cells: dict[str, set] = {}
    for r, row in enumerate(p.region_grid()):
        for c, label in enumerate(row):
            cells.setdefault(label, set()).add((r, c))
    return sorted(sorted(v) for v in cells.values())


labels = st.text(min_size=1, max_size=3).filter(lambda s: s.strip() != "")


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 5), names=st.lists(labels, min_size=1,
       max_size=30, unique=True), fmt=st.sampled_from(AQUARIUM_WRITERS),
       rule=st.sampled_from(["tank", "pool"]))
def test_aquarium_writers_keep_the_board_whatever_the_labels(seed, n, names, fmt, rule):
    rng = random.Random(seed)
    regions = random_regions(rng, n, n)
    ids = sorted({label for row in regions for label in row}, key=int)
    pool = list(names) + [f"{names[0]}{k}" for k in range(len(ids))]  # distinct, adversarial
    label = dict(zip(ids, [x for x in dict.fromkeys(pool)], strict=False))
    grid = [[label[x] for x in row] for row in regions]
    board = aquarium([None] * n, [None] * n, grid, rule=rule)
    planted = random_filling(board, rng)
    rows = [row.count("#") if rng.random() < 0.7 else None for row in planted]
    cols = [sum(row[c] == "#" for row in planted) if rng.random() < 0.7 else None
            for c in range(n)]
    p = aquarium(rows, cols, grid, rule=rule)
    if fmt == "aquarium-task" and rule == "pool":
        with pytest.raises(PuzzleError, match="tank rule"):
            dumps(p, fmt)
        return
    back = loads(dumps(p, fmt))
    assert (back.rows, back.cols, back.rule) == (p.rows, p.cols, p.rule)
    assert _partition(back) == _partition(p)
    assert solution_problems(back, planted) == []
    if fmt == "json":
        assert back.region_grid() == p.region_grid()  # labels kept exactly


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 7), fmt=st.sampled_from(THERMO_WRITERS))
def test_thermometer_writers_keep_the_board(seed, n, fmt):
    p = planted_board(n, n, random.Random(seed), missing=0.3)
    back = loads(dumps(p, fmt))
    assert (back.rows, back.cols) == (p.rows, p.cols)
    assert sorted(v.cells for v in back.vessels) == sorted(v.cells for v in p.vessels)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), h=st.integers(1, 7), w=st.integers(1, 7),
       fmt=st.sampled_from(["json", "text", "janko"]), name=st.text(max_size=12))
def test_thermometer_writers_keep_non_square_boards_and_solutions(seed, h, w, fmt, name):
    p = planted_board(h, w, random.Random(seed), missing=0.3)
    p = thermometers(p.rows, p.cols, [v.cells for v in p.vessels], name=name or None,
                     solution=p.solution)
    back = loads(dumps(p, fmt))
    assert (back.rows, back.cols, back.solution) == (p.rows, p.cols, p.solution)
    assert sorted(v.cells for v in back.vessels) == sorted(v.cells for v in p.vessels)


def test_text_writer_renumbers_labels_its_reader_refuses():
    p = aquarium([None, None], [None, None], [["é", "é"], ["b", "b"]])
    text = dumps(p, "text")
    assert "é" not in text
    assert _partition(loads(text)) == _partition(p)


def test_site_writer_uses_short_codes_for_straight_thermometers():
    text = "3_2_1_1_2_1_2_2;1,2;5,2,3,7;5,4,8,12,13,14,15;5,9,5,6;1,2"
    written = dumps(loads(text), "site").strip()
    assert written == "3_2_1_1_2_1_2_2;1,2;5,2,3,7;5,4,8,12,13,14,15;5,9,5,6;1,2"
    # every direction comes back as its code
    assert dumps(loads("0_0_0_0;2,2;4,1;3,1"), "site").strip() == "0_0_0_0;2,2;1,1;1,1"


@pytest.mark.parametrize("text, message", [
    ("1_1;1,999999999", "room for 1..1"),
    ("1_1;3," + "9" * 20, "digits"),
    ('{"puzzle":"aquarium","rows":[' + ",".join(["null"] * 300_000) + '],"cols":['
     + ",".join(["null"] * 300_000) + '],"regions":[]}', "the limit is"),
    ('{"puzzle":"thermometers","rows":[' + ",".join(["null"] * 300_000) + '],"cols":['
     + ",".join(["null"] * 300_000) + '],"thermometers":[[[0,0]]]}', "the limit is"),
    ("pzprv3\naquarium\n99999\n99999\n", "the limit is"),
    ("https://puzz.link/p?aquarium/²/2/eg/2g1g3", "digits 0-9"),
])
def test_huge_declared_sizes_are_refused_quickly(text, message):
    start = time.perf_counter()
    with pytest.raises(PuzzleError, match=message):
        loads(text, "x")
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize("text", [
    '{"puzzle":"thermometers","rows":[' + HUGE + '],"cols":[1],"thermometers":[[[0,0]]]}',
    f"thermometers\n {HUGE}\n1 o\n",
    f"thermometers {HUGE}x1\n 1\n1 o\n",
    f"clabels\n{HUGE}\nrlabels\n1\nlabels\n1.1\n",
    f"1_{HUGE};1,1",
    f"1_1;5,{HUGE}",
    f"1_{HUGE};1",
    f"1_1;{HUGE}",
    f"https://puzz.link/p?aquarium/{HUGE}/2/eg/2g1g3",
    f"pzprv3\naquarium\n{HUGE}\n1\n",
    "pzprv3\naquarium\n1\n1\n\n\n. " + HUGE + " \n1 . \n",
])
def test_numbers_of_thousands_of_digits_are_bad_input(text):
    with pytest.raises(PuzzleError):
        loads(text, "x")


def test_task_string_parsing_is_linear():
    n = 120
    head = "_".join(["0"] * (2 * n))
    text = head + ";" + ";".join(["1,1"] * (n * n))
    start = time.perf_counter()
    p = loads(text)
    assert len(p.vessels) == n * n
    assert time.perf_counter() - start < 5


def test_strict_limits_for_a_server():
    board = dumps(planted_board(30, 30, random.Random(1)), "json")
    loads(board)  # generous by default
    with pytest.raises(PuzzleError, match="the limit is"):
        loads(board, limits=SizeLimits(max_side=20, max_cells=400))
    assert STRICT.max_cells < SizeLimits().max_cells
    for name in FORMATS:  # every reader takes the limits
        with pytest.raises(PuzzleError):
            loads("garbage", fmt=name, limits=STRICT)


def test_every_complete_board_in_the_formats_page_has_a_solution():
    """A documented example that is infeasible teaches the wrong thing (issue 18)."""
    from test_docs import blocks

    from thermomilp.solving import solve

    from helpers import ROOT

    for block in blocks(ROOT / "docs" / "formats.md", "puzzle"):
        puzzle = loads(block)
        assert solve(puzzle).status != "infeasible", block


def test_url_with_every_wall_reads_in_linear_time():
    from thermomilp.formats.puzzlink import B32

    n = 150
    walls = B32[31] * (((n - 1) * n + 4) // 5)  # every interior edge a wall: n*n tanks
    text = f"https://puzz.link/p?aquarium/r/{n}/{n}/{walls}{walls}/"
    start = time.perf_counter()
    p = loads(text)
    assert len(p.vessels) == n * n
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize("url", [
    "https://puzz.link/p?aquarium/4/4/bu8i90/i3213g",
    "https://puzz.link/p?aquarium/4/4/bu8i90/i3213gz",          # a redundant trailing skip
    "https://puzz.link/p?aquarium/4/4/bu8i90/i3213g#somewhere",  # a fragment
    "https://puzz.link/p?aquarium/4/4/bu8i90/i3213g3",          # a clue past the last place
    "https://puzz.link/p?type=player&aquarium/4/4/bu8i90/i3213g",
    "https://puzz.link/p?aquarium_play/4/4/bu8i90/i3213g/",
])
def test_urls_read_as_leniently_as_pzprjs_reads_them(url):
    p = loads(url)
    assert (p.rule, p.rows, p.cols) == ("pool", (2, 1, 3, None), (None, None, None, 3))


@pytest.mark.parametrize("url, message", [
    ("https://puzz.link/p?aquarium/4/4/bu8i9/i3213g", "border part has 5 characters"),
    ("https://puzz.link/p?aquarium/v:x/4/4/bu8i90/i3213g", "variant"),
    ("https://puzz.link/p?aquarium/4/4/bu8i90/i32!3g", "not a clue character"),
    ("https://puzz.link/p?aquarium/4/٤/bu8i90/i3213g", "digits 0-9"),
])
def test_urls_pzprjs_cannot_read_are_clear_errors(url, message):
    with pytest.raises(PuzzleError, match=message):
        loads(url)
