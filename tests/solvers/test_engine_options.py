"""Native engine options (``Settings.engine_options``) reach the engine, checked first."""

from __future__ import annotations

import pytest

from thermomilp.backends.matrix import KNOWN_PAIRS
from thermomilp.core.engines import ENGINES
from thermomilp.core.errors import ConfigError
from thermomilp.core.settings import Settings
from thermomilp.formats import load
from thermomilp.solving import solve
from thermomilp.solving.engine import Engine

from helpers import INSTANCES, use_pair

BOARD = INSTANCES / "thermometers" / "t05_8x8.txt"


def _solved_engine(backend: str, solver: str, options: dict) -> Engine:
    use_pair(backend, solver)
    puzzle = load(BOARD)
    engine = Engine(puzzle, Settings(backend=backend, solver=solver, logic="none",
                                     engine_options=options))
    answer = engine.next_solution()
    assert answer.status == "feasible" and answer.grid == puzzle.solution
    return engine


def _highs_object(engine: Engine, backend: str):
    session = engine.session
    if backend == "highs":
        return session.built.model
    if backend == "pulp":
        return session.prob.solverModel  # the Highs object PuLP built and ran
    return session.engine.engine._solver_model  # Pyomo's contrib HiGHS interface


@pytest.mark.parametrize("backend", ["highs", "pulp", "pyomo"])
def test_mip_rel_gap_is_read_back_from_the_highs_engine(backend):
    engine = _solved_engine(backend, "highs", {"mip_rel_gap": 0, "mip_heuristic_effort": 0.2})
    try:
        h = _highs_object(engine, backend)
        assert h.getOptionValue("mip_rel_gap")[1] == 0.0  # HiGHS's default is 1e-4
        assert h.getOptionValue("mip_heuristic_effort")[1] == 0.2
    finally:
        engine.close()


@pytest.mark.parametrize("backend, solver, option", [
    ("pulp", "cbc", {"ratioGap": 0}), ("pyomo", "cbc", {"ratioGap": 0}),
    ("pulp", "glpk", {"mipgap": 0}), ("pyomo", "glpk", {"mipgap": 0}),
    ("pulp", "scip", {"limits/gap": 0.0}), ("pyomo", "scip", {"limits/gap": 0.0}),
    ("cpsat", "cpsat", {"linearization_level": 2}),
])
def test_a_known_native_option_solves_on_every_engine(backend, solver, option):
    _solved_engine(backend, solver, option).close()


def test_scip_option_reaches_the_scip_model():
    engine = _solved_engine("pulp", "scip", {"limits/gap": 0.25})
    try:
        assert engine.session.prob.solverModel.getParam("limits/gap") == 0.25
    finally:
        engine.close()


@pytest.mark.parametrize("backend, solver, label", [
    (str(backend), str(solver), ENGINES[solver].label) for backend, solver in KNOWN_PAIRS])
def test_an_unknown_option_is_a_config_error_before_solving(backend, solver, label, capfd):
    use_pair(backend, solver)
    with pytest.raises(ConfigError, match=f"option no_such_option is not one thermomilp lets "
                                          f"{label} take; allowed: "):
        solve(load(BOARD), settings=Settings(backend=backend, solver=solver, logic="none",
                                             engine_options={"no_such_option": 1}))
    assert "no_such_option" not in capfd.readouterr().out  # HiGHS's own refusal stays quiet


def test_a_refused_value_is_a_config_error():
    with pytest.raises(ConfigError, match="mip_rel_gap = 'lots' is refused for HiGHS"):
        solve(load(BOARD), settings=Settings(logic="none",
                                             engine_options={"mip_rel_gap": "lots"}))


def test_an_unknown_option_is_refused_even_when_the_logic_decides_the_board():
    # refused when the settings are made, before the logic could decide the board
    with pytest.raises(ConfigError, match="option cutz is not one thermomilp lets CBC take"):
        solve(load(INSTANCES / "thermometers" / "t01_4x4.txt"), solver="cbc",
              logic="probing", engine_options={"cutz": 1})
