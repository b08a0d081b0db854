"""Numbers and glyphs as the puzzle sites use them (issue 27 part 5, issue 36).

Rows, columns, cells and thermometers are counted from 1 in pictures, hints and
explanations, and a janko.at file keeps its own numbers; list indices in JSON stay
0-based. Marks are written as the solution grids are: ``#`` filled, ``.`` empty, ``?``
undecided, in every form of ``--marks`` (thermomilp.core.notation). The text picture
says which glyph is the bulb.
"""

from __future__ import annotations

import json
import re

import pytest

from thermomilp.cli.main import main
from thermomilp.core.errors import PuzzleError
from thermomilp.core.notation import (
    EMPTY,
    FILLED,
    UNDECIDED,
    cell_name,
    cells_name,
    column_name,
    glyph,
    line_name,
    row_name,
)
from thermomilp.formats import dumps, load, loads
from thermomilp.logic.marks import marks_grid, parse_marks
from thermomilp.pictures.svg import board_svg
from thermomilp.pictures.text import GLYPH_LEGEND, render_board

# janko.at's thermometer 2 is the top row, its thermometer 1 the middle row: the file's
# numbers do not follow the bulbs' reading order, so a count from 0 or by position
# shows up at once.
JANKO = """\
[setup]
puzzle = thermometer
size = 3
[clabels]
3 2 1
[rlabels]
2 1 3
[labels]
2.1 2.2 2.3
1.1 1.2 1.3
3.1 3.2 3.3
[solution]
x x -
x - -
x x x
[moves]
[end]
"""


@pytest.fixture
def janko_file(tmp_path):
    path = tmp_path / "three.txt"
    path.write_text(JANKO, encoding="utf-8")
    return path


def _run(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_picture_names_janko_thermometer_k_as_k(janko_file):
    puzzle = load(janko_file)
    legend = render_board(puzzle).splitlines()
    assert "thermometers (label at bulb):  1 (2,1)  2 (1,1)  3 (3,1)" in legend
    svg = board_svg(puzzle, None)
    labels = {text: float(y) for y, text in
              re.findall(r'class="vessel-label" x="[\d.]+" y="([\d.]+)"[^>]*>(\w+)<', svg)}
    # janko's 2 is drawn in the top row, its 1 in the middle row, its 3 at the bottom
    assert labels["2"] < labels["1"] < labels["3"]


def test_hint_names_janko_thermometer_k_as_k(janko_file, capsys):
    # a mark at the middle of the top row: the bookkeeping fills its bulb, in janko's
    # thermometer 2
    code, out = _run(capsys, "hint", str(janko_file), "--marks", "1,2=#")
    assert code == 0
    assert "[bookkeeping] thermometer 2:" in out and "filled (1,1)" in out
    code, out = _run(capsys, "hint", str(janko_file), "--marks", "2,2=# 2,1=.")
    assert "nearer the bulb of thermometer 1 " in out  # the middle row


def test_explain_names_janko_thermometer_k_as_k(janko_file, capsys):
    code, out = _run(capsys, "explain", str(janko_file), "--marks", "1,2=#")
    assert code == 0
    first = next(line for line in out.splitlines() if line.startswith("1. "))
    assert first.startswith("1. [bookkeeping] thermometer 2:")


def test_json_lists_stay_zero_based(janko_file):
    puzzle = load(janko_file)
    data = json.loads(dumps(puzzle, "json"))
    # list index 0 is janko's thermometer 1 (the middle row), bulb first
    assert data["thermometers"][0] == [[1, 0], [1, 1], [1, 2]]
    assert data["thermometers"][1] == [[0, 0], [0, 1], [0, 2]]


def test_text_format_counts_from_one_by_bulb_position():
    puzzle = loads("thermometers 2x2\n  ? ?\n? > o\n? > o\n", fmt="text")
    assert [v.label for v in puzzle.vessels] == ["1", "2"]
    assert "thermometers (label at bulb):  1 (1,1)  2 (2,1)" in render_board(puzzle)


def test_janko_round_trip_keeps_the_numbers_janko_means(janko_file):
    puzzle = load(janko_file)
    again = loads(dumps(puzzle, "janko"), fmt="janko")
    assert [v.cells for v in again.vessels] == [v.cells for v in puzzle.vessels]


def test_the_picture_says_which_glyph_is_the_bulb():
    puzzle = loads("thermometers 1x2\n  ? ?\n? > o\n", fmt="text")
    picture = render_board(puzzle)
    assert GLYPH_LEGEND in picture.splitlines()
    assert "○ bulb" in GLYPH_LEGEND and "o marks the tip" in GLYPH_LEGEND
    assert picture.splitlines()[2].count("○") == 1  # the bulb is the first cell, not the o


def test_marks_are_written_as_solution_grids_in_every_form(tmp_path):
    puzzle = loads("thermometers 2x2\n  ? ?\n? > o\n? > o\n", fmt="text")
    assert parse_marks("#./??", puzzle) == {(0, 0): 1, (0, 1): 0}
    assert parse_marks("1,1=# 2,2=.", puzzle) == {(0, 0): 1, (1, 1): 0}
    path = tmp_path / "marks.txt"
    path.write_text("# .\n? ?\n", encoding="utf-8")
    assert parse_marks(str(path), puzzle) == {(0, 0): 1, (0, 1): 0}
    # a solution grid is a complete board of marks
    assert parse_marks("#./##", puzzle) == {(0, 0): 1, (0, 1): 0, (1, 0): 1, (1, 1): 1}
    # what the program prints reads back as the same marks
    assert marks_grid(puzzle, {(0, 0): 1, (1, 1): 0}) == ("#?", "?.")
    assert parse_marks("/".join(marks_grid(puzzle, {(0, 0): 1, (1, 1): 0})), puzzle) == {
        (0, 0): 1, (1, 1): 0}


def test_the_old_spellings_are_read_only_where_unambiguous():
    puzzle = loads("thermometers 2x2\n  ? ?\n? > o\n? > o\n", fmt="text")
    # x always meant empty, and a grid's cells are their places: still read so in a grid
    assert parse_marks("#x/??", puzzle) == {(0, 0): 1, (0, 1): 0}
    assert parse_marks("#X/x#", puzzle) == {(0, 0): 1, (0, 1): 0, (1, 0): 0, (1, 1): 1}
    # a list item in the old spelling counted from 0: refused, with the cell it meant
    with pytest.raises(PuzzleError, match=r"mark '1,0=x' is in the old spelling, written when "
                                          r"rows and columns counted from 0; .* written for "
                                          r"the old count it is 2,1=\.$"):
        parse_marks("1,1=# 1,0=x", puzzle)
    for old, new in (("0,1=1", "1,2=#"), ("1,1=-", "2,2=."), ("0,0=0", "1,1=.")):
        with pytest.raises(PuzzleError, match=f"the old count it is {re.escape(new)}$"):
            parse_marks(old, puzzle)
    # x beside . is the old grid, where . meant undecided: refused, never misread
    with pytest.raises(PuzzleError, match=r"both x and \.: in the old notation \. meant "
                                          r"undecided, now it means empty"):
        parse_marks("#x/..", puzzle)
    # ? in a list marks nothing
    with pytest.raises(PuzzleError, match=r"'\?' means undecided, so it marks nothing; "
                                          r"write 1,2=\. for empty or 1,2=# for filled"):
        parse_marks("1,1=# 1,2=?", puzzle)
    # a 0 was written for the old count from 0
    with pytest.raises(PuzzleError, match=r"rows and columns count from 1, as the hints print "
                                          r"them \(the top-left cell is 1,1\)"):
        parse_marks("0,1=#", puzzle)
    with pytest.raises(PuzzleError, match=r"cell \(3,1\) is outside the 2x2 grid"):
        parse_marks("3,1=#", puzzle)


def test_a_zero_based_list_item_is_exit_2_with_a_message(janko_file, capsys):
    code = main(["hint", str(janko_file), "--marks", "0,2=."])
    err = capsys.readouterr().err
    assert code == 2
    assert "count from 1" in err and "1,1" in err
    # the old docs' example: row 3 of t03 counted from 0
    code = main(["hint", T03, "--marks", "3,0=x"])
    assert code == 2 and capsys.readouterr().err.endswith("the old count it is 4,1=.\n")


def test_rows_columns_and_cells_count_from_one_in_every_text(capsys):
    # the board: the hint about the fourth row names row 4
    code, out = _run(capsys, "hint", "instances/thermometers/t03_6x6.txt")
    assert code == 0
    assert out == ("[line_count] row 4 already has its 0 filled cells: "
                   "empty (4,1) (4,2) (4,3) (4,4) (4,5) (4,6)\n")
    code, out = _run(capsys, "solve", "instances/thermometers/t08_4x4_no_solution.txt")
    assert "conflict: row 1 (clue 3), row 2 (clue 1)," in out and "row 0" not in out
    assert "column 4 (clue 1) cannot all hold" in out


def test_notation_is_the_one_place_of_the_numbers_and_glyphs():
    assert (FILLED, EMPTY, UNDECIDED) == ("#", ".", "?")
    assert row_name(0) == "row 1" and column_name(2) == "column 3"
    assert line_name(3, 6) == "row 4" and line_name(6, 6) == "column 1"
    assert cell_name((0, 0)) == "(1,1)" and cells_name([(3, 0), (3, 1)]) == "(4,1) (4,2)"
    assert [glyph(v) for v in (1, 0, None, -1)] == ["#", ".", "?", "?"]


def test_a_board_keeps_its_name_beside_the_numbers():
    puzzle = loads("thermometers 1x2\nname: two cells\n  ? ?\n? > o\n", fmt="text")
    assert puzzle.name == "two cells" and puzzle.vessels[0].label == "1"


T03 = "instances/thermometers/t03_6x6.txt"
A01 = "instances/aquarium/a01_6x6.txt"


def test_a_hint_in_json_keeps_indices_and_writes_values_as_marks(capsys):
    code, out = _run(capsys, "hint", T03, "--format", "json")
    record = json.loads(out)
    assert code == 0 and record["line"] == "row 4"
    assert record["text"].startswith("row 4 already has its 0 filled cells: empty (4,1) (4,2)")
    assert record["cells"][:2] == [{"cell": [3, 0], "value": "."}, {"cell": [3, 1], "value": "."}]


def test_explain_prints_its_board_in_the_marks_notation(capsys):
    code, out = _run(capsys, "explain", T03, "--marks", "1,3=# 1,1=.", "--format", "json")
    assert code == 0
    assert json.loads(out)["grid"] == list(load(T03).solution)
    # a board left undecided by a wrong mark: ? where nothing is known, as --marks reads it
    code, out = _run(capsys, "explain", T03, "--marks", "4,1=#")
    assert code == 1
    lines = out.splitlines()
    assert "[mistake] (4,1) is filled but row 4's clue is 0" in lines
    assert lines[-6:] == ["??????", "??????", "??????", "#?????", "??????", "??????"]


def test_the_page_hint_counts_from_one_and_sends_indices():
    from thermomilp.web.hints import next_hint, page_json

    shown = page_json(next_hint(load(T03), ["??????"] * 6))
    assert shown["message"].startswith("row 4 already has its 0 filled cells: empty (4,1)")
    assert shown["cells"][0] == [3, 0] and shown["values"][0] == EMPTY


def test_aquarium_hints_name_cells_and_rows_from_one():
    from thermomilp.logic import aquarium_hints

    puzzle = load(A01)
    step = aquarium_hints.next_hint(puzzle, {(4, 4): 1})
    assert step.text == ("gravity in tank 6: water at (5,5) fills every cell of the tank in "
                         "row 5 and below")
    step = aquarium_hints.next_hint(puzzle, {(4, 4): 1, (5, 5): 0})
    assert step.text == ("tank 6: water at (5,5) cannot stand above or level with air at "
                         "(6,6); one of these marks is wrong")
    assert step.wrong == ((4, 4), (5, 5))
    assert "tanks (label at top-left cell):  1 (1,1)  2 (1,5)  3 (3,1)" in render_board(puzzle)


def test_the_page_script_uses_the_marks_notation_and_counts_from_one():
    import shutil
    import subprocess

    from helpers import ROOT

    script = (ROOT / "thermomilp" / "web" / "static" / "app.js").read_text(encoding="utf-8")
    assert f'const FILLED = "{FILLED}", EMPTY = "{EMPTY}", UNDECIDED = "{UNDECIDED}";' in script
    start = script.index("function cellName")
    body = script[start:script.index("\n}\n", start) + 3]
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    run = subprocess.run(["node", "-e", body + "console.log(cellName([0, 0]), cellName([3, 5]))"],
                         capture_output=True, text=True, timeout=30, check=True)
    assert run.stdout.split() == [cell_name((0, 0)), cell_name((3, 5))] == ["(1,1)", "(4,6)"]


def test_exports_count_from_one_where_a_person_reads(janko_file):
    from thermomilp.teach.export import export

    latex = export(load("instances/thermometers/t01_4x4.txt"), "latex")
    assert "&= 3 && \\text{row 1} \\tag{1.1}\\\\" in latex
    assert "&= 4 && \\text{column 4} \\tag{2.4}\\\\" in latex
    assert "x_{1,0} &\\le x_{0,0} && \\text{thermometer 1}" in latex  # the model's indices
    dat = export(load("instances/thermometers/t01_4x4.txt"), "dat")
    assert "set T := 1 2 3 4 5 6;" in dat and "param L := 1 3  2 2" in dat
    assert "# index i is row i+1 as the hints count" in dat
    assert "set RowsClued := 0 1 2 3;" in dat  # models/thermometers.mod: I := 0..H-1
    # janko's thermometer 2 is thermometer 2 of the data too
    janko = export(load(janko_file), "dat")
    assert "set T := 1 2 3;" in janko and "   2 1 0  2 2 0  2 3 0" in janko
    aquarium = export(load(A01), "dat")
    assert "   0  1 1 1 1 2 2" in aquarium  # tanks numbered from 1, rows the model's 0..H-1


def test_rows_columns_and_cells_are_numbered_in_one_place():
    """One concern, one place: only core/notation.py (and the page script's cellName)
    turns an index into the number a person reads."""
    from helpers import ROOT

    cell = re.compile(r"\(\{[^{}]+\},\s?\{[^{}]+\}\)")          # f"({r},{c})"
    line = re.compile(r"\b(row|column|col) \{(?!row_name|column_name)[^{}]+\}")  # f"row {i}"
    plus_one = re.compile(r"\{[a-z_\[\]0-9]+ \+ 1\},\{")          # f"{r + 1},{c + 1}"
    bad = []
    for path in sorted((ROOT / "thermomilp").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel == "thermomilp/core/notation.py":
            continue
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = text.split("#")[0]
            if ('f"' in code or "f'" in code) and (cell.search(code) or line.search(code)
                                                    or plus_one.search(code)):
                bad.append(f"{rel}:{n}: {text.strip()}")
    # not a board's row or cell: json's own column (from 1), a model's extra row, and a
    # cell of the grader's internal model data (its 0-based indices)
    allowed = ("invalid JSON: {exc.msg} (column {exc.colno})", "it breaks extra row {k}",
               "cell ({i}, {j}) appears twice")
    assert [b for b in bad if not any(a in b for a in allowed)] == []
    script = (ROOT / "thermomilp" / "web" / "static" / "app.js").read_text(encoding="utf-8")
    assert len(re.findall(r"\+ 1\}", script)) == 2  # the two of cellName
