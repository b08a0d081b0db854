"""Exports: LP/MPS from every modelling layer read back by HiGHS give the package's answer."""

from __future__ import annotations

import pytest

from thermomilp.cli.main import main
from thermomilp.formats import load
from thermomilp.model.highs_model import new_highs
from thermomilp.solve import solve
from thermomilp.teach.export import ExportError, export, to_latex

from helpers import INSTANCES

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
