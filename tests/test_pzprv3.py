"""pzprv3 files (pzprjs's editor format) for Aquarium: the forms pzprjs writes, errors."""

from __future__ import annotations

import re

import pytest

from thermomilp.core.errors import PuzzleError
from thermomilp.formats import detect, dumps, loads

# pzprjs test/script/aquarium.js, in its one-line test form and as the file it saves
ONE_LINE = ("pzprv3/aquarium/4/4/0 1 0 /1 1 1 /1 1 1 /0 0 1 /1 0 0 1 /0 0 1 0 /0 1 0 0 /"
            ". . . . 3 /2 . . # # /1 . . # . /3 # . # # /. # # # # /")
FILE = ONE_LINE.replace("/", "\n")


def test_one_line_and_file_forms_are_the_same_board():
    a, b = loads(ONE_LINE), loads(FILE, "board.pzpr")
    assert detect(FILE).name == detect(ONE_LINE).name == "pzprv3"
    assert a == b and a.solution == b.solution == ("..##", "..#.", "#.##", "####")
    assert (a.rule, a.rows, a.cols) == ("pool", (2, 1, 3, None), (None, None, None, 3))
    assert dumps(a, "pzprv3") == FILE.rstrip("\n") + "\n" or loads(dumps(a, "pzprv3")) == a


def test_written_file_is_pzprjs_layout():
    text = dumps(loads(ONE_LINE), "pzprv3")
    assert text.splitlines()[:4] == ["pzprv3", "aquarium", "4", "4"]
    assert text.splitlines()[4] == "0 1 0 "  # a token and a space, as pzprjs writes
    tank = loads(ONE_LINE.replace("aquarium/4/4/", "aquarium/4/4/r/"))
    assert tank.rule == "tank" and dumps(tank, "pzprv3").splitlines()[4] == "r"


def test_a_game_in_progress_is_not_a_solution_and_extras_are_read_past():
    partial = FILE.replace("3 # . # #", "3 # + . .") + "info:{\n \"metadata\": {}\n}\n"
    p = loads(partial)
    assert p.solution is None and p.cols == (None, None, None, 3)
    ticked = FILE.replace(". . . . 3", ". . . . c3").replace("\n2 ", "\n-2 ")
    assert loads(ticked).cols[3] == 3 and loads(ticked).rows[0] is None


@pytest.mark.parametrize("text, message", [
    ("pzprv3\nsudoku\n4\n4\n", "holds a 'sudoku' puzzle"),
    ("v:x\n" + FILE, "variant"),
    (FILE.replace("0 1 0 \n1 1 1", "0 1 \n1 1 1", 1), "has 2 entries"),
    (FILE.replace("0 1 0 \n1 1 1", "0 7 0 \n1 1 1", 1), "is not 0 or 1"),
    (FILE.replace("2 . . # #", "2 . . x #"), "is not '#', '+' or '.'"),
    ("\n".join(FILE.splitlines()[:10]), "ends early"),
    (FILE.replace("\n4\n4\n", "\n4\nfour\n", 1), "not a whole number"),
    (FILE.replace("\n4\n4\n", "\n0\n4\n", 1), "needs a row and a column"),
])
def test_errors_name_the_problem(text, message):
    with pytest.raises(PuzzleError, match=re.escape(message)):
        loads(text, "board.pzpr")


def test_thermometers_have_no_pzprv3_form():
    with pytest.raises(PuzzleError, match="Aquarium only"):
        dumps(loads("thermometers\n 1 1\n1 > o\n1 o o\n"), "pzprv3")


@pytest.mark.parametrize("head, tank", [("", False), ("\n\n", False), ("", True), ("\n", True)])
def test_errors_name_the_line_of_the_file(head, tank):
    """Every error names its line in the file as written: blank lines before the
    header and the optional tank-rule line ``r`` count."""
    text = head + (FILE.replace("\n4\n4\n", "\n4\n4\nr\n", 1) if tank else FILE)
    lines = text.split("\n")
    for number, old, new, message in [
            (7, "1 1 1 ", "1 7 1 ", "is not 0 or 1"),      # a vertical wall
            (10, "0 0 1 0 ", "0 0 x 0 ", "is not 0 or 1"),  # a horizontal wall
            (13, "2 . . # # ", "2 . . x # ", "is not '#', '+' or '.'"),
            (12, ". . . . 3 ", ". . . . x ", "not a whole number")]:
        at = number - 1 + len(head) + tank  # 0-based, in this text
        broken = lines.copy()
        assert broken[at] == old
        broken[at] = new
        with pytest.raises(PuzzleError, match=re.escape(message)) as raised:
            loads("\n".join(broken), "board.pzpr")
        assert raised.value.line == at + 1
