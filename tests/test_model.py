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
    prob, x = build_model(P, "pulp")
    assert set(x) == set(formulate(P).cells) and x[0, 0].name == "x_0_0"
    path = tmp_path / "m.lp"
    prob.writeLP(str(path))
    text = path.read_text()
    for name in ("row_0:", "col_3:", "x_0_0"):
        assert name in text
    assert re.search(r"prec_\d+_\d+_\d+_\d+:", text)
    assert prob.numConstraints() == _expected_rows(P)


def test_pyomo_model_has_the_documented_blocks():
    m = build_model(P, "pyomo").model
    assert len(m.row) == sum(v is not None for v in P.rows)
    assert len(m.col) == sum(v is not None for v in P.cols)
    assert len(m.prec) == len(formulate(P).arcs)
    assert len(m.x) == P.height * P.width


def test_highs_model_has_named_rows_and_same_size():
    built = build_model(P, "highs")
    h = built.model
    assert built.x[1, 2] == 1 * P.width + 2  # cell -> its column
    assert h.getNumRow() == _expected_rows(P)
    assert h.getNumCol() == P.height * P.width
    assert h.getRowName(0)[1] == "row_0"


def test_unknown_backend_or_formulation_is_the_packages_config_error():
    from thermomilp.core.errors import ConfigError

    with pytest.raises(ConfigError, match="backend 'gurobipy' is unknown"):
        build_model(P, "gurobipy")
    with pytest.raises(ConfigError, match="formulation"):
        build_model(P, "pulp", formulation="tight")


@pytest.mark.parametrize("backend", ["highs", "pulp", "pyomo"])
@pytest.mark.parametrize("formulation", ["cell", "compact", "level"])
def test_build_model_returns_the_variable_map_in_formulation_order(backend, formulation):
    from thermomilp.model.registry import formulation_for

    built = build_model(P, backend, formulation)
    form = formulation_for(P, formulation)
    assert len(built.variables) == len(built.x) == form.n_vars
    model, x = built
    assert model is built.model and x is built.x


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
