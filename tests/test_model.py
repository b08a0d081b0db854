"""The three builders: one model, readable names, the classroom five lines."""

from __future__ import annotations

import os
import re

import pytest

from thermomilp.formats import load
from thermomilp.model import build_model
from thermomilp.model.formulation import formulate

from helpers import INSTANCES, ROOT

P = load(INSTANCES / "thermometers" / "t01_4x4.txt")


def _expected_rows(p) -> int:
    form = formulate(p)
    return len(form.row_clues) + len(form.col_clues) + len(form.arcs) + len(form.ties)


def test_pulp_lp_file_has_readable_names(tmp_path):
    prob = build_model(P, "pulp")
    path = tmp_path / "m.lp"
    prob.writeLP(str(path))
    text = path.read_text()
    for name in ("row_0:", "col_3:", "x_0_0"):
        assert name in text
    assert re.search(r"prec_\d+_\d+_\d+_\d+:", text)
    assert prob.numConstraints() == _expected_rows(P)


def test_pyomo_model_has_the_documented_blocks():
    m = build_model(P, "pyomo")
    assert len(m.row) == sum(v is not None for v in P.rows)
    assert len(m.col) == sum(v is not None for v in P.cols)
    assert len(m.prec) == len(formulate(P).arcs)
    assert len(m.x) == P.height * P.width


def test_highs_model_has_named_rows_and_same_size():
    h = build_model(P, "highs")
    assert h.getNumRow() == _expected_rows(P)
    assert h.getNumCol() == P.height * P.width
    assert h.getRowName(0)[1] == "row_0"


def test_unknown_backend():
    with pytest.raises(ValueError, match="unknown backend"):
        build_model(P, "gurobipy")


def test_readme_python_block_runs(capsys):
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(block, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert "status: unique" in capsys.readouterr().out
