"""PuLP 3.x and 4.x both work: status reading, CBC's class, no removed API.

``.ci/run`` runs this file (and every ``pulp`` case of the others) a second
time in a Python 3.12 venv with PuLP 4, so both branches run on real PuLP.
"""

from __future__ import annotations

import warnings

import pytest

from thermomilp.backends.engines import native_options
from thermomilp.backends.pulp_backend import pulp_solver, read_status
from thermomilp.core.settings import DRIVES, Backend, Settings, Solver
from thermomilp.formats import load
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.model.formulation import formulate
from thermomilp.model.pulp_model import add_nogood, build_pulp

from helpers import INSTANCES
from solver_pairs import use_pair

PULP_MAJOR = int(__import__("pulp").__version__.split(".")[0])


PULP_ENGINES = [str(s) for s in Solver if s in DRIVES[Backend.PULP]]
"""Every engine PuLP drives (the records' ``backends``)."""


def board(name):
    return load(INSTANCES / "thermometers" / name)


def solver_for(solver, settings=None, time_limit=None):
    chosen = (settings or Settings()).replace(backend="pulp", solver=solver)
    return pulp_solver(chosen, time_limit, native_options(chosen))


@pytest.mark.parametrize("solver", PULP_ENGINES)
def test_pulp_read_status_on_installed_pulp(solver):
    use_pair("pulp", solver)
    unique, none = board("t03_6x6.txt"), board("t08_4x4_no_solution.txt")
    prob, _ = build_pulp(formulate(unique))
    assert read_status(prob.solve(solver_for(solver)), prob) == (
        "optimal", True)
    prob, _ = build_pulp(formulate(none))
    word, has_solution = read_status(prob.solve(solver_for(solver)), prob)
    assert (word, has_solution) == ("infeasible", False)


def test_pulp_model_and_cuts_use_no_api_pulp4_removed():
    """PuLP 3.3 warns (DeprecationWarning) on every call 4.0 removes: make them errors."""
    use_pair("pulp", "highs")
    puzzle = board("t07_5x5_two_solutions.txt")
    first = next(brute_force_solutions(puzzle))
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        prob, x = build_pulp(formulate(puzzle))
        add_nogood(prob, x, {cell for cell in x if first[cell[0]][cell[1]] == "#"}, "nogood_0")
        returned = prob.solve(solver_for("highs"))
    assert read_status(returned, prob) == ("optimal", True)


def test_pulp_cbc_class_matches_pulp_version():
    import pulp

    use_pair("pulp", "cbc")
    solver = solver_for("cbc")
    if PULP_MAJOR >= 4:
        assert not hasattr(pulp, "PULP_CBC_CMD")
        assert type(solver).__name__ == "COIN_CMD"
    else:
        assert type(solver).__name__ in ("COIN_CMD", "PULP_CBC_CMD")


def test_pulp_options_reach_each_engine_under_its_own_name():
    options = Settings(time_limit=None, threads=2, seed=7, verbose=True)
    highs = solver_for("highs", options, 12.5)
    assert (highs.msg, highs.timeLimit) == (True, 12.5)
    assert highs.optionsDict["random_seed"] == 7 and highs.threads == 2
    use_pair("pulp", "cbc")
    cbc = solver_for("cbc", options, 12.5)
    assert (cbc.msg, cbc.timeLimit) == (True, 12.5)
    assert "randomCbcSeed 7" in cbc.options and "threads 2" in cbc.options
    use_pair("pulp", "glpk")
    glpk = solver_for("glpk", options, 13)  # glpsol: whole seconds (the skeleton rounds up)
    assert glpk.timeLimit == 13
    use_pair("pulp", "scip")
    scip = solver_for("scip", options, 12.5)
    assert scip.timeLimit == 12.5 and scip.options == ["randomization/randomseedshift", 7]


@pytest.mark.parametrize("solver", PULP_ENGINES)
def test_pulp_pair_solves_with_every_common_option_set(solver):
    """Options mapped to the engine's names must be names it accepts."""
    from thermomilp.solving import solve

    use_pair("pulp", solver)
    puzzle = board("t05_8x8.txt")
    result = solve(puzzle, backend="pulp", solver=solver, time_limit=60, threads=1, seed=3)
    assert (result.status, result.grid) == ("unique", puzzle.solution)


def test_pulp_read_status_pulp4_shape():
    """The LpSolveStats branch, fed the 4.x shape (real on 4.x, a stand-in on 3.x)."""
    import enum
    from dataclasses import dataclass

    Status = enum.Enum("LpSolveStatus", "Optimal Infeasible TimeLimit NotSolved")

    @dataclass
    class Stats:
        status: Status
        has_solution: bool

    assert read_status(Stats(Status.Optimal, True), None) == ("optimal", True)
    assert read_status(Stats(Status.Infeasible, False), None) == ("infeasible", False)
    assert read_status(Stats(Status.TimeLimit, True), None) == ("timeout", True)
    assert read_status(Stats(Status.NotSolved, False), None) == ("NotSolved", False)


def test_infeasible_said_at_the_time_limit_is_a_timeout(monkeypatch):
    """CBC stopped by its clock once said "Infeasible" on a feasible board (under load):
    a verdict that arrives at the limit is a timeout; one well inside it stands."""
    import time

    from thermomilp.backends import pulp_backend
    from thermomilp.backends.base import Raw
    from thermomilp.core.status import Status
    from thermomilp.solving import solve

    use_pair("pulp", "cbc")
    assert solve(board("t08_4x4_no_solution.txt"), backend="pulp", solver="cbc",
                 logic="none", time_limit=60).status == "infeasible"

    def late_infeasible(self, time_limit, extra):
        time.sleep(time_limit)
        return Raw(Status.INFEASIBLE, said="Infeasible")

    monkeypatch.setattr(pulp_backend.PulpSession, "_run", late_infeasible)
    result = solve(board("t03_6x6.txt"), backend="pulp", solver="cbc", logic="none",
                   time_limit=0.5)
    assert result.status == "timeout" and "time limit" in result.error


def test_pulp_session_resolves_on_the_live_highs_model_and_counts_like_brute_force():
    """After the first solve the session keeps PuLP's HiGHS model (PuLP 3: columns by
    ``var.index``, PuLP 4: by name) and each cut re-solves there; enumerating by cuts
    finds exactly brute force's solutions."""
    from thermomilp.core.settings import Settings
    from thermomilp.solving.engine import Engine

    for name in ("t02_5x5.txt", "t07_5x5_two_solutions.txt", "t03_6x6.txt"):
        puzzle = board(name)
        engine = Engine(puzzle, Settings().replace(backend="pulp", logic="none"))
        try:
            found = set(engine.solutions())
            assert engine.session._live is not None, "the re-solve fell back to a rebuild"
            cols = engine.session._cols  # PuLP 3 may add a dummy column of its own
            assert len(set(cols)) == len(cols) == puzzle.height * puzzle.width
        finally:
            engine.close()
        assert found == set(brute_force_solutions(puzzle)), name
