"""Pyomo engines get the common options under their own names, and accept them."""

from __future__ import annotations

import pytest

from thermomilp.core.install import pip_install
from thermomilp.core.settings import DRIVES, Backend, Settings, Solver
from thermomilp.formats import load
from thermomilp.model.formulation import formulate
from thermomilp.solving import solve

from helpers import INSTANCES
from solver_pairs import use_pair

OPTIONS = Settings(time_limit=None, threads=2, seed=7, verbose=False)


def _pyomo_session(solver, settings=OPTIONS):
    from thermomilp.backends.pyomo_backend import PyomoSession

    use_pair("pyomo", solver)
    puzzle = load(INSTANCES / "thermometers" / "t03_6x6.txt")
    return PyomoSession(formulate(puzzle), settings.replace(backend="pyomo", solver=solver))


def test_pyomo_persistent_engines_option_names():
    highs = _pyomo_session("highs").engine.engine.config
    assert highs.solver_options["threads"] == 2 and highs.solver_options["random_seed"] == 7
    scip = _pyomo_session("scip").engine.engine.config
    assert scip.solver_options["randomization/randomseedshift"] == 7


def test_pyomo_shell_engines_option_names():
    cbc = _pyomo_session("cbc").engine.engine.options
    assert (cbc["threads"], cbc["randomCbcSeed"]) == (2, 7)
    assert dict(_pyomo_session("glpk").engine.engine.options) == {}  # GLPK: one thread, no seed


@pytest.mark.parametrize("solver", [str(s) for s in Solver if s in DRIVES[Backend.PYOMO]])
def test_pyomo_pair_solves_with_every_common_option_set(solver):
    use_pair("pyomo", solver)
    puzzle = load(INSTANCES / "thermometers" / "t05_8x8.txt")
    result = solve(puzzle, backend="pyomo", solver=solver, time_limit=60, threads=1, seed=3)
    assert (result.status, result.grid) == ("unique", puzzle.solution)


def _pulp_cbc_class() -> str:
    """The PuLP class that reaches a CBC here by itself: COIN_CMD (a cbc on PATH,
    PuLP 4's cbcbox) or PuLP 3's PULP_CBC_CMD (its bundled binary)."""
    import warnings

    import pulp


    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in ("COIN_CMD", "PULP_CBC_CMD"):
            cls = getattr(pulp, name, None)
            if cls is not None and cls(msg=False).available():
                return name.lower()
    pytest.skip("no CBC that PuLP's COIN_CMD or PULP_CBC_CMD reaches by itself; install: "
                + pip_install("cbc"))


PASS_THROUGH = INSTANCES / "thermometers" / "t07_5x5_two_solutions.txt"


def test_pass_through_cbc_class_reaches_pulp():
    """PuLP's own class name means its engine, through PuLP."""
    use_pair("pulp", "cbc")
    name = _pulp_cbc_class()
    assert solve(load(PASS_THROUGH), backend="pulp", solver=name,
                 time_limit=60).status == "multiple"


def test_pass_through_glpk_class_reaches_pulp():
    use_pair("pulp", "glpk")
    assert solve(load(PASS_THROUGH), backend="pulp", solver="glpk_cmd",
                 time_limit=60).status == "multiple"


def test_pass_through_name_reaches_pyomo():
    assert solve(load(PASS_THROUGH), backend="pyomo", solver="appsi_highs",
                 time_limit=60).status == "multiple"


def test_pyomo_borrows_cbc_from_the_python_layer_when_none_on_path(monkeypatch):
    """No cbc on PATH: Pyomo runs the CBC that PuLP brings (bundled in 3.x, cbcbox in 4.x)."""
    from thermomilp.backends import matrix

    monkeypatch.setattr(matrix, "on_path", lambda name: None)
    matrix.probe_engine.cache_clear()
    try:
        path = matrix.program_path(Solver.CBC)
        if path is None:
            pytest.skip("this PuLP brings no CBC of its own (PuLP 4 without pulp[cbc]); "
                        "install: " + pip_install("cbc"))
        assert "pulp" in path or "cbcbox" in path
        puzzle = load(INSTANCES / "thermometers" / "t03_6x6.txt")
        assert solve(puzzle, backend="pyomo", solver="cbc").grid == puzzle.solution
    finally:
        matrix.probe_engine.cache_clear()
