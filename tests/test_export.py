"""Exports: LP/MPS from every modelling layer read back by HiGHS give the package's answer."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from thermomilp.cli.main import main
from thermomilp.formats import load
from thermomilp.model.highs_model import new_highs
from thermomilp.pictures.svg import board_svg
from thermomilp.solving import solve
from thermomilp.teach.export import ExportError, export, to_latex

from helpers import INSTANCES, ROOT

T01 = INSTANCES / "thermometers" / "t01_4x4.txt"
T04 = INSTANCES / "thermometers" / "t04_6x6_missing.txt"


def solve_file(path, puzzle) -> tuple[str, ...] | None:
    """Read an LP/MPS file with HiGHS, solve it, map columns back by their names."""
    import highspy

    h = new_highs()
    assert h.readModel(str(path)) == highspy.HighsStatus.kOk
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    values = h.getSolution().col_value
    lp = h.getLp()
    value_of = {}
    for name, value in zip(lp.col_names_, values, strict=True):
        # pulp/highs write x_3_1; pyomo writes x(3_1)
        digits = name.replace("x(", "x_").rstrip(")").split("_")
        if digits[0] == "x" and len(digits) == 3:
            value_of[int(digits[1]), int(digits[2])] = value
    return tuple("".join("#" if value_of.get((r, c), 0) > 0.5 else "."
                         for c in range(puzzle.width)) for r in range(puzzle.height))


@pytest.mark.parametrize("backend", ["pulp", "pyomo", "highs"])
@pytest.mark.parametrize("fmt", ["lp", "mps"])
def test_exported_model_solves_to_the_package_answer(backend, fmt, tmp_path):
    puzzle = load(T04)  # unique, with missing clues
    path = tmp_path / f"model.{fmt}"
    path.write_text(export(puzzle, fmt, backend))
    assert solve_file(path, puzzle) == solve(puzzle).grid


@pytest.mark.parametrize("backend", ["pulp", "highs"])
def test_lp_file_has_readable_names(backend):
    text = export(load(T01), "lp", backend)
    for name in ("row_0", "col_3", "prec_1_0_0_0", "x_2_1"):
        assert name in text


def test_infeasible_board_exports_an_infeasible_model(tmp_path):
    puzzle = load(INSTANCES / "thermometers" / "t08_4x4_no_solution.txt")
    path = tmp_path / "model.lp"
    path.write_text(export(puzzle, "lp", "highs"))
    assert solve_file(path, puzzle) is None


def test_latex_lists_every_constraint_and_refuses_large_boards(capsys):
    puzzle = load(T01)
    text = to_latex(puzzle)
    assert text.count("\\\\\n") == len(puzzle.rows) + len(puzzle.cols) + sum(
        len(v.cells) - 1 for v in puzzle.vessels)
    assert "\\begin{align*}" in text and "x_{1,0} &\\le x_{0,0}" in text
    with pytest.raises(ExportError, match="64 cells"):
        to_latex(load(INSTANCES / "thermometers" / "t06_10x10.txt"))
    assert main(["export", str(INSTANCES / "thermometers" / "t06_10x10.txt"), "--to", "latex"]) == 2
    assert "limited to 64 cells" in capsys.readouterr().err


def test_cli_export_writes_a_file(tmp_path):
    out = tmp_path / "t01.mps"
    assert main(["export", str(T01), "--to", "mps", "--backend", "highs", "-o", str(out)]) == 0
    assert "ROWS" in out.read_text()


# --------------------------------------------------------------------------
# Untrusted names and labels cannot steer an export (issue 25 part 3)
# --------------------------------------------------------------------------

MODELS = next((p for p in (ROOT / "models", ROOT / "course") if (p / "thermometers.mod").exists()),
              ROOT / "course")
INJECTED = "\nSubject To\n evil: x_0_0 + x_0_1 >= 2\nEnd\n"
HOSTILE = [
    "t" + INJECTED,                                         # an LP model after the comment
    "x */ param H := 1; data; param W := 1; end; /*",       # GMPL: close the comment
    "\r* ROWS\r E  evil\r",                                 # MPS: CR line ends
    "a\\b}{\\input{/etc/passwd}",
    "\\write18{touch /tmp/pwned}",
    "$ % & # ^ _ ~ { } \\",
    "<script>alert(1)</script>",
    "\x1b]0;title\x07\x1b[2J",
    "nul\x00byte",
    "lone \ud800 surrogate",
    "\u202eevil",
    "*" * 40 + "long" * 5000,
]
ENGINES = {"glpsol": "glpk-utils", "cbc": "coinor-cbc"}


def needs(program):
    return pytest.mark.skipif(shutil.which(program) is None,
                              reason=f"{program} not installed (apt-get install -y "
                                     f"{ENGINES[program]})")


def hostile_board(path, name: str):
    """The board of ``path`` with the hostile ``name`` and every label made hostile too."""
    puzzle = load(path)
    vessels = tuple(dataclasses.replace(v, label=f"{name}{k}")
                    for k, v in enumerate(puzzle.vessels))
    return dataclasses.replace(puzzle, name=name, vessels=vessels)


def _benign(path):
    return hostile_board(path, "plain")


A01 = INSTANCES / "aquarium" / "a01_6x6.txt"


def _structure(text: str) -> list[str]:
    """The export without its comment lines: what an engine reads."""
    return [line for line in text.splitlines()
            if not line.startswith(("\\", "*", "/*", "%"))]


@pytest.mark.parametrize("board", [T04, A01], ids=["thermometers", "aquarium"])
@pytest.mark.parametrize("fmt", ["lp", "mps", "dat", "latex"])
@pytest.mark.parametrize("name", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_name_changes_nothing_but_an_inert_comment(board, fmt, name):
    hostile, benign = export(hostile_board(board, name), fmt), export(_benign(board), fmt)
    if fmt == "latex":  # the labels are in the formulas: compare with them blanked
        hostile = re.sub(r"\\text\{(tank|thermometer) [^\n]*?\}\\\\$", "L", hostile,
                         flags=re.M)
        benign = re.sub(r"\\text\{(tank|thermometer) [^\n]*?\}\\\\$", "L", benign, flags=re.M)
    assert _structure(hostile) == _structure(benign)
    assert len(hostile.splitlines()) == len(benign.splitlines())
    assert hostile.isascii() or fmt == "latex"
    for line in hostile.splitlines():
        assert line.isprintable() or line == ""
    assert "evil" not in _structure(hostile) and "\r" not in hostile and "\x00" not in hostile
    if fmt == "dat":
        assert hostile.count("*/") == 1  # the comment closes where we close it


@pytest.mark.parametrize("name", HOSTILE, ids=range(len(HOSTILE)))
def test_latex_carries_no_control_sequence_from_a_name_or_label(name):
    text = export(hostile_board(INSTANCES / "aquarium" / "a01_6x6.txt", name), "latex")
    ours = {"begin", "end", "le", "text", "tag", "in", "textbackslash", "textasciitilde",
            "textasciicircum"}
    # every control word in the output is one of the writer's own
    assert set(re.findall(r"(?<!\\)\\([A-Za-z]+)", text)) <= ours
    assert "\\input" not in text and "\\write18" not in text
    assert "\x1b" not in text and "\x00" not in text and "\ud800" not in text


@pytest.mark.parametrize("name", HOSTILE, ids=range(len(HOSTILE)))
@pytest.mark.parametrize("board", [T04, A01], ids=["thermometers", "aquarium"])
def test_svg_of_a_hostile_board_is_well_formed_with_no_foreign_element(board, name):
    text = board_svg(hostile_board(board, name))
    root = ET.fromstring(text.encode("utf-8", "backslashreplace"))
    tags = {el.tag.split("}")[-1] for el in root.iter()}
    assert tags <= {"svg", "title", "rect", "g", "line", "text", "path", "circle"}
    assert "<script" not in text


def _glpsol_columns(report: str) -> dict[str, float]:
    """Column name -> value from glpsol's ``-o`` report of a MIP."""
    values: dict[str, float] = {}
    lines = report.splitlines()
    start = next(k for k, line in enumerate(lines) if "Column name" in line)
    for line in lines[start + 2:]:
        match = re.match(r"\s*\d+\s+(\S+)\s+\*?\s*(-?[\d.e+-]+)", line)
        if match:
            values[match.group(1)] = float(match.group(2))
        elif not line.strip():
            break
    return values


def _cbc_columns(solution: str) -> dict[str, float]:
    values: dict[str, float] = {}
    for line in solution.splitlines()[1:]:
        parts = line.replace("**", " ").split()
        if len(parts) >= 3:
            values[parts[1]] = float(parts[2])
    return values


def _grid(values: dict[str, float], puzzle) -> tuple[str, ...]:
    return tuple("".join("#" if values.get(f"x_{r}_{c}", 0) > 0.5 else "."
                         for c in range(puzzle.width)) for r in range(puzzle.height))


HOSTILE_SOLVED = [HOSTILE[0], HOSTILE[1], HOSTILE[2], HOSTILE[3], HOSTILE[-1]]


@needs("glpsol")
@pytest.mark.parametrize("board", [T04, A01], ids=["thermometers", "aquarium"])
@pytest.mark.parametrize("fmt", ["lp", "mps"])
@pytest.mark.parametrize("name", HOSTILE_SOLVED, ids=range(len(HOSTILE_SOLVED)))
def test_glpsol_solves_the_hostile_export_to_the_board(board, fmt, name, tmp_path):
    puzzle = hostile_board(board, name)
    model, report = tmp_path / f"m.{fmt}", tmp_path / "report.txt"
    model.write_text(export(puzzle, fmt), encoding="utf-8")
    flag = "--lp" if fmt == "lp" else "--freemps"
    run = subprocess.run(["glpsol", flag, str(model), "-o", str(report)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "INTEGER OPTIMAL SOLUTION FOUND" in run.stdout, run.stdout
    assert _grid(_glpsol_columns(report.read_text()), puzzle) == solve(load(board)).grid


@needs("cbc")
@pytest.mark.parametrize("board", [T04, A01], ids=["thermometers", "aquarium"])
@pytest.mark.parametrize("fmt", ["lp", "mps"])
@pytest.mark.parametrize("name", HOSTILE_SOLVED, ids=range(len(HOSTILE_SOLVED)))
def test_cbc_solves_the_hostile_export_to_the_board(board, fmt, name, tmp_path):
    puzzle = hostile_board(board, name)
    model, out = tmp_path / f"m.{fmt}", tmp_path / "solution.txt"
    model.write_text(export(puzzle, fmt), encoding="utf-8")
    # dashes: CBC 2.10 also takes bare words, newer CBC (the cbcbox wheel) only dashes
    run = subprocess.run(["cbc", str(model), "-solve", "-solution", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and out.is_file(), run.stdout + run.stderr
    assert out.read_text().startswith("Optimal"), out.read_text()
    assert _grid(_cbc_columns(out.read_text()), puzzle) == solve(load(board)).grid


@needs("glpsol")
@pytest.mark.parametrize("board, mod", [(T04, "thermometers.mod"), (A01, "aquarium.mod")],
                         ids=["thermometers", "aquarium"])
@pytest.mark.parametrize("name", HOSTILE_SOLVED, ids=range(len(HOSTILE_SOLVED)))
def test_glpsol_math_solves_the_hostile_dat_to_the_board(board, mod, name, tmp_path):
    puzzle = hostile_board(board, name)
    dat = tmp_path / "board.dat"
    dat.write_text(export(puzzle, "dat"), encoding="utf-8")
    run = subprocess.run(["glpsol", "--math", "-m", str(MODELS / mod), "-d", str(dat)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    grid = tuple(line[5:] for line in run.stdout.splitlines() if line.startswith("GRID "))
    assert grid == solve(load(board)).grid


@needs("glpsol")
def test_mps_export_says_it_is_free_mps_and_glpsol_reads_it_so(tmp_path):
    text = export(load(T01), "mps")
    assert "* free MPS: glpsol --freemps" in text.splitlines()[1]
    model = tmp_path / "m.mps"
    model.write_text(text)
    run = subprocess.run(["glpsol", "--freemps", str(model)], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0 and "INTEGER OPTIMAL SOLUTION FOUND" in run.stdout


def test_cli_export_of_a_hostile_json_board_is_inert(tmp_path):
    """The whole path: a board file whose name and tank ids carry a model."""
    import json

    from thermomilp.formats import dumps

    data = json.loads(dumps(load(A01), "json"))
    data["name"] = "a" + INJECTED
    data["regions"] = [[r, c, f"{label}{INJECTED}" if isinstance(label, str) else
                        f"{label}{INJECTED}"] for r, c, label in data["regions"]]
    board = tmp_path / "hostile.json"
    board.write_text(json.dumps(data))
    out = tmp_path / "m.lp"
    assert main(["export", str(board), "--to", "lp", "-o", str(out)]) == 0
    assert _structure(out.read_text()) == _structure(export(load(A01), "lp"))


def test_formulation_is_honoured_or_refused_by_every_export(capsys):
    """--formulation level used to be accepted and ignored by latex and dat (the cell
    model, byte for byte): latex now lists the chosen model, dat refuses it (exit 2)."""
    cell = export(load(T01), "latex")
    level = export(load(T01), "latex", formulation="level")
    compact = export(load(T01), "latex", "highs", "compact")
    assert level != cell and "level formulation" in level and "z_{0,1}" in level
    assert "\\text{level\\_0}" in level and "x_{" not in level
    assert "compact formulation" in compact and compact != cell
    assert main(["export", str(T01), "--to", "dat", "--formulation", "level"]) == 2
    assert "--to dat writes the data of the cell model" in capsys.readouterr().err
    with pytest.raises(ExportError, match="cell model"):
        export(load(T01), "dat", formulation="compact")
    assert main(["export", str(T01), "--to", "dat", "--backend", "pyomo"]) == 2
    assert "--backend pyomo" in capsys.readouterr().err
    assert main(["export", str(T01), "--to", "latex", "--formulation", "level"]) == 0
    assert capsys.readouterr().out == level
