"""Golden model files: the LP file of one small board per (formulation, layer, PuLP major).

A new PuLP, Pyomo or highspy that builds a different model -- another
coefficient, a lost row, a renamed variable -- changes the file and fails
here. The PuLP files are kept per major version (``cell-pulp3.lp``,
``cell-pulp4.lp``): ``.ci/run`` runs the suite under PuLP 3 and PuLP 4, so
both are compared on every CI run. The first line (a comment naming the
library version) is left out of the comparison.

A deliberate change of the model: regenerate with
``THERMOMILP_UPDATE_GOLDEN=1 python -m pytest tests/test_golden_models.py``
(under each PuLP major) and review the diff.
"""

from __future__ import annotations

import os

import pytest

from thermomilp.cli.main import main
from thermomilp.formats import load
from thermomilp.teach.export import export

from helpers import INSTANCES, ROOT

GOLDEN = ROOT / "tests" / "golden"
BOARD = INSTANCES / "aquarium" / "a01_6x6.txt"  # 6x6, tanks with ties and precedence
PULP_MAJOR = int(__import__("pulp").__version__.split(".")[0])
CASES = [(f, b) for f in ("cell", "compact", "level") for b in ("pulp", "pyomo", "highs")]
ARTEFACTS = ("__dummy", "ONE_VAR_CONSTANT", "c_e_", "c_u_", "c_l_", "x(", "_C1", "_C2")


def golden_name(formulation: str, backend: str) -> str:
    layer = f"pulp{PULP_MAJOR}" if backend == "pulp" else backend
    return f"{formulation}-{layer}.lp"


def body(text: str) -> str:
    first, _, rest = text.partition("\n")
    assert first.startswith("\\ "), first  # the comment naming the formulation and library
    return rest


@pytest.mark.parametrize("formulation, backend", CASES)
def test_lp_file_matches_the_golden_file(formulation, backend):
    text = export(load(BOARD), "lp", backend, formulation)
    path = GOLDEN / golden_name(formulation, backend)
    if os.environ.get("THERMOMILP_UPDATE_GOLDEN") == "1":
        path.write_text(text)
    assert path.exists(), (f"no golden file {path.name} for this library version; "
                           "regenerate with THERMOMILP_UPDATE_GOLDEN=1 and review it")
    assert body(text) == body(path.read_text()), (
        f"{formulation}/{backend} builds another model than {path.name}: "
        "diff the export against the golden file")


@pytest.mark.parametrize("formulation", ["cell", "compact", "level"])
def test_every_layer_builds_the_same_model(formulation):
    """Same formulation, same rows: PuLP, Pyomo and highspy agree line for line."""
    puzzle = load(BOARD)
    texts = {b: body(export(puzzle, "lp", b, formulation)) for f, b in CASES if f == formulation}
    assert len(set(texts.values())) == 1, sorted(texts)


@pytest.mark.parametrize("fmt", ["lp", "mps"])
@pytest.mark.parametrize("formulation, backend", CASES)
def test_exports_carry_no_writer_artefacts(formulation, backend, fmt):
    text = export(load(BOARD), fmt, backend, formulation)
    assert [a for a in ARTEFACTS if a in text] == []
    names = {"cell": ("row_5", "col_3", "prec_0_0_1_0", "tie_5_4_5_3", "x_5_5"),
             "compact": ("row_5", "col_3", "prec_y_0_0_y_1_0", "y_5_3"),
             "level": ("level_0", "row_5", "col_4", "z_1_5")}[formulation]
    assert [n for n in names if n not in text] == []


def test_golden_files_are_the_models_of_docs_formulation():
    """The committed cell file has exactly the rows (1)-(4) of the formulation."""
    from thermomilp.model.formulation import formulate

    form = formulate(load(BOARD))
    text = (GOLDEN / "cell-pyomo.lp").read_text()
    rows = [line for line in text.splitlines() if ":" in line and not line.startswith("obj")
            and not line.startswith("\\")]
    assert len(rows) == (len(form.row_clues) + len(form.col_clues) + len(form.arcs)
                         + len(form.ties))
    assert sum(line.startswith("tie_") for line in rows) == len(form.ties)


def test_fixed_cells_are_bounds_in_every_layer():
    """The presolve's fixed cells reach the model as bounds (PuLP 3 once dropped them)."""
    from thermomilp.model import lpfile
    from thermomilp.model.formulation import formulate
    from thermomilp.model.pulp_model import build_pulp

    form = formulate(load(BOARD), fixed={(5, 0): 1, (0, 0): 0})
    prob, x = build_pulp(form)
    model = lpfile.from_pulp(prob, [x[c] for c in form.cells], "fixed")
    bounds = {c.name: (c.lower, c.upper) for c in model.columns}
    assert bounds["x_5_0"] == (1, 1) and bounds["x_0_0"] == (0, 0) and bounds["x_1_1"] == (0, 1)
    text = lpfile.to_lp(model)
    assert "\nx_5_0 = 1\n" in text and "\nx_0_0 = 0\n" in text


def test_cli_export_formulation_flag(tmp_path, capsys):
    out = tmp_path / "level.lp"
    assert main(["export", str(BOARD), "--to", "lp", "--backend", "pyomo",
                 "--formulation", "level", "-o", str(out)]) == 0
    assert body(out.read_text()) == body((GOLDEN / "level-pyomo.lp").read_text())
    # the settings' default layer (highs) writes the level model too, the same rows
    assert main(["export", str(BOARD), "--to", "lp", "--formulation", "level"]) == 0
    assert body(capsys.readouterr().out) == body((GOLDEN / "level-highs.lp").read_text())
