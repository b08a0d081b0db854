"""One settings path: the Settings fields as keywords (plus ``settings=``), one default,
the solver alone choosing its layer, PuLP's and Pyomo's names at the boundary only."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest

import thermomilp
from thermomilp.core.errors import ConfigError
from thermomilp.core.settings import (
    BACKEND_FOR,
    FIELDS,
    Backend,
    Logic,
    Settings,
    Solver,
    check_engine_options,
    settings_from,
)
from thermomilp.formats import load
from thermomilp.solving import count_solutions, enumerate_solutions, is_unique, solve

from helpers import INSTANCES, ROOT

T03 = INSTANCES / "thermometers" / "t03_6x6.txt"
TWO = INSTANCES / "thermometers" / "t07_5x5_two_solutions.txt"


# -- one default, one way in ---------------------------------------------------


def test_solve_and_solve_with_default_settings_give_the_same_proof():
    """Before: solve(p) ran presolve none (proof milp) and Settings() probing (proof logic)."""
    p = load(T03)
    plain, with_settings = solve(p), solve(p, settings=Settings())
    assert plain.proof == with_settings.proof == "logic"
    assert (plain.status, plain.engine_called) == (with_settings.status, False)


def test_logic_none_lets_the_milp_do_the_work():
    result = solve(load(T03), logic="none")
    assert (result.status, result.proof, result.engine_called) == ("unique", "milp", True)


def test_settings_object_is_used_not_dropped():
    """Before: options=Settings(presolve="probing") ran with the logic off."""
    p = load(T03)
    assert solve(p, settings=Settings(logic="none")).proof == "milp"
    assert solve(p, settings=Settings(logic="none"), logic="probing").proof == "logic"


def test_keywords_override_the_settings_object_field_by_field():
    base = Settings(threads=2, seed=5, time_limit=9)
    s = settings_from(base, seed=7, time_limit=None)
    assert (s.threads, s.seed, s.time_limit) == (2, 7, 9.0)


@pytest.mark.parametrize("call", [solve, is_unique, count_solutions,
                                  lambda p, **k: list(enumerate_solutions(p, **k))])
def test_an_unknown_keyword_is_a_type_error(call):
    p = load(T03)
    with pytest.raises(TypeError, match="options"):
        call(p, options=Settings())
    with pytest.raises(TypeError, match="logic"):  # the old name says the new one
        call(p, presolve="none")


def test_backend_and_solver_are_keywords_only():
    with pytest.raises(TypeError):
        solve(load(T03), "highs")  # type: ignore[misc]


def test_is_unique_follows_solve():
    assert is_unique(load(T03)) and not is_unique(load(TWO))
    assert is_unique(load(T03), logic="none")


def test_presolve_is_no_settings_field():
    assert "presolve" not in FIELDS and "logic" in FIELDS
    with pytest.raises(TypeError):
        Settings(presolve="none")  # type: ignore[call-arg]
    assert Settings().logic is Logic.PROBING


# -- the one-flag rule ---------------------------------------------------------


@pytest.mark.parametrize("solver, backend", [("highs", "highs"), ("cbc", "pulp"),
                                             ("glpk", "pulp"), ("scip", "pulp")])
def test_the_solver_alone_picks_its_layer(solver, backend):
    s = Settings(solver=solver)
    assert (s.backend, s.solver, s.backend_chosen) == (backend, solver, True)
    assert BACKEND_FOR[Solver(solver)] is Backend(backend)
    assert f"chosen for solver {solver}" in s.origins["backend"]


def test_a_chosen_backend_is_chosen_again_for_a_new_solver():
    assert Settings().replace(solver="cbc").pair == "pulp/cbc"
    assert Settings(solver="cbc").replace(solver="highs").pair == "highs/highs"
    assert settings_from(Settings(), solver="glpk").pair == "pulp/glpk"
    # a backend that was given stays given
    assert Settings(backend="pyomo").replace(solver="cbc").pair == "pyomo/cbc"
    assert Settings(backend="pyomo", solver="cbc") == Settings(backend="pyomo", solver="cbc")


def test_a_given_backend_that_cannot_drive_the_solver_names_the_rule():
    with pytest.raises(ConfigError, match="backend highs cannot drive solver cbc.*"
                                          "solver cbc alone is driven by pulp"):
        Settings(backend="highs", solver="cbc")


@pytest.mark.parametrize("name, pair", [
    ("PULP_CBC_CMD", "pulp/cbc"), ("COIN_CMD", "pulp/cbc"), ("HiGHS_CMD", "pulp/highs"),
    ("GLPK_CMD", "pulp/glpk"), ("SCIP_PY", "pulp/scip"), ("SCIP_CMD", "pulp/scip"),
    ("appsi_highs", "pyomo/highs"), ("HiGHS", "highs/highs"), (" CBC ", "pulp/cbc"),
])
def test_pulp_and_pyomo_names_map_to_the_closed_list(name, pair):
    assert Settings(solver=name).pair == pair


def test_an_alias_with_a_given_backend_keeps_the_backend():
    assert Settings(backend="pyomo", solver="PULP_CBC_CMD").pair == "pyomo/cbc"


@pytest.mark.parametrize("name", ["pwn", "./pwn", "/bin/sh", "gurobi", "GUROBI_CMD",
                                  "CPLEX_CMD", "FSCIP_CMD", "", "highs; rm -rf /"])
def test_a_name_outside_the_closed_list_is_refused(name):
    with pytest.raises(ConfigError, match="not an engine thermomilp runs|choose one of"):
        Settings(solver=name)


def test_pulp_solver_objects_mean_their_engine_through_pulp():
    pulp = pytest.importorskip("pulp")
    assert Settings(solver=pulp.HiGHS(msg=False)).pair == "pulp/highs"
    assert Settings(solver=pulp.GLPK_CMD(msg=False)).pair == "pulp/glpk"
    assert Settings(solver=pulp.COIN_CMD(msg=False)).pair == "pulp/cbc"
    # identity only: the object itself is not kept (Settings stays hashable and pickles)
    s = Settings(solver=pulp.HiGHS(msg=False)).replace(time_limit=3)
    assert s.pair == "pulp/highs" and pickle.loads(pickle.dumps(s)) == s


def test_pulp_solver_objects_with_options_are_refused_not_dropped():
    pulp = pytest.importorskip("pulp")
    with pytest.raises(ConfigError, match="time_limit="):
        Settings(solver=pulp.HiGHS(msg=False, timeLimit=5))
    with pytest.raises(ConfigError, match="engine_path="):
        Settings(solver=pulp.COIN_CMD(msg=False, path="/bin/true"))
    with pytest.raises(ConfigError, match="engine_options="):
        Settings(solver=pulp.GLPK_CMD(msg=False, options=["--nomip"]))
    with pytest.raises(ConfigError, match="not an engine"):
        Settings(solver=pulp.CPLEX_CMD(msg=False))


def test_other_objects_are_refused():
    with pytest.raises(ConfigError, match="PuLP solver object"):
        Settings(solver=object())


def test_solve_takes_a_pulp_solver_object():
    pulp = pytest.importorskip("pulp")
    result = solve(load(T03), solver=pulp.HiGHS(msg=False), logic="none")
    assert (result.status, result.backend, result.solver) == ("unique", "pulp", "highs")


# -- engine options ------------------------------------------------------------


def test_engine_options_from_every_shape():
    assert check_engine_options({"mip_rel_gap": 0, "presolve": "off"}) == (
        ("mip_rel_gap", 0), ("presolve", "off"))
    assert check_engine_options(["threads=2", "mip_rel_gap=0.5", "x=true", "name=a b"]) == (
        ("mip_rel_gap", 0.5), ("name", "a b"), ("threads", 2), ("x", True))
    assert check_engine_options("presolve=off, threads=4") == (
        ("presolve", "off"), ("threads", 4))
    assert Settings(engine_options={"presolve": "off", "mip_rel_gap": 1}).engine_options == (
        ("mip_rel_gap", 1.0), ("presolve", "off"))


@pytest.mark.parametrize("bad", [["novalue"], {"": 1}, {"a b": 1}, {"x": [1]},
                                 {"x": float("nan")}, 5])
def test_bad_engine_options_are_config_errors(bad):
    with pytest.raises(ConfigError):
        Settings(engine_options=bad)


def test_engine_path_must_be_an_absolute_executable(tmp_path):
    with pytest.raises(ConfigError, match="absolute"):
        Settings(engine_path="cbc")
    with pytest.raises(ConfigError, match="no executable"):
        Settings(engine_path=str(tmp_path / "missing"))
    assert Settings(engine_path="/bin/sh").engine_path == "/bin/sh"


# -- the package's names -------------------------------------------------------


def test_all_is_the_public_api_and_dir_shows_it():
    names = set(thermomilp.__all__)
    assert {"build_model", "render_board", "solve", "Settings", "Logic", "Solver",
            "Backend", "FormulationKind"} <= names
    assert names <= set(dir(thermomilp))
    for name in names:
        assert getattr(thermomilp, name) is not None, name
    assert "TimeUp" not in names and not hasattr(thermomilp, "TimeUp")
    assert "Presolve" not in names and "SolverOptions" not in names


def test_the_module_docstring_example_loads_a_file_that_exists():
    paths = re.findall(r'load\("([^"]+)"\)', thermomilp.__doc__ or "")
    assert paths
    for path in paths:
        assert (ROOT / path).is_file(), path


def test_docs_and_settings_show_the_same_rule():
    text = (ROOT / "docs" / "solvers.md").read_text()
    for solver, backend in BACKEND_FOR.items():
        assert re.search(rf"\|\s*`{solver}`\s*\|\s*`{backend}`", text), (solver, backend)


def test_settings_compare_names_only_in_the_settings_module():
    """Strings of solver/backend/formulation names are compared only in core/settings.py
    (in the files of this area)."""
    pattern = re.compile(r"""(solver|backend|formulation)\w*\s*(==|!=|in)\s*\(?["']""")
    for rel in ("thermomilp/core/config.py", "thermomilp/cli/main.py",
                "thermomilp/cli/config_cmd.py", "thermomilp/cli/solvers_cmd.py",
                "thermomilp/solving/api.py", "thermomilp/__init__.py"):
        text = Path(ROOT / rel).read_text()
        assert not pattern.search(text), rel


def test_a_backend_alone_picks_the_only_engine_it_drives(tmp_path):
    """`--backend cpsat` alone used to say it cannot drive highs (the default solver):
    a backend given without a solver takes the engine it drives when it drives one."""
    from thermomilp.core.config import resolve
    from thermomilp.core.settings import DRIVES

    s = Settings(backend="cpsat")
    assert (s.backend, s.solver, s.solver_chosen) == (Backend.CPSAT, Solver.CPSAT, True)
    assert "only engine it drives" in s.origins["solver"]
    s = resolve({"backend": "cpsat"}, env={}, cwd=tmp_path)
    assert (s.backend, s.solver) == (Backend.CPSAT, Solver.CPSAT)
    # a backend that drives several engines keeps the default, HiGHS
    for layer in ("pulp", "pyomo", "highs"):
        assert len(DRIVES[Backend(layer)]) > 1 or layer == "highs"
        assert Settings(backend=layer).solver is Solver.HIGHS
    # the chosen solver is chosen again for another backend; a given one is never replaced
    assert Settings(backend="cpsat").replace(backend="pulp").solver is Solver.HIGHS
    assert Settings().replace(backend="cpsat").solver is Solver.CPSAT
    assert settings_from(backend="cpsat").solver is Solver.CPSAT
    for given in ({"solver": "highs"}, {"solver": "cbc"}):
        with pytest.raises(ConfigError, match="backend cpsat cannot drive solver"):
            Settings(backend="cpsat", **given)
    with pytest.raises(ConfigError, match="solver from environment THERMOMILP_SOLVER"):
        resolve({"backend": "cpsat"}, env={"THERMOMILP_SOLVER": "glpk"}, cwd=tmp_path)
    with pytest.raises(ConfigError, match="cannot drive"):
        Settings(backend="cpsat", solver="highs").replace(threads=2)
    assert Settings() == Settings(solver="highs") and Settings().solver_chosen
