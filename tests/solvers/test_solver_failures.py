"""A failing engine gives status error/timeout with its words -- never a wrong answer.

Engines are made to misbehave by replacing one call at the boundary: PuLP's
``solve`` raising, a Pyomo shell solver raising, a session returning a grid
that breaks the rules, a solve reporting a timeout. The CLI must then print
the status (exit 1), never a traceback.
"""

from __future__ import annotations

import json

import pytest

from thermomilp.backends.base import Raw
from thermomilp.cli.main import main
from thermomilp.core.errors import SolverUnavailable
from thermomilp.core.install import pip_install
from thermomilp.core.status import Status
from thermomilp.formats import load
from thermomilp.solving import solve

from helpers import INSTANCES, fake_engine
from solver_pairs import solver_pair, use_pair  # noqa: F401 - the fixture

BOARD = str(INSTANCES / "thermometers" / "t03_6x6.txt")


@pytest.fixture
def puzzle():
    return load(BOARD)


def cli_json(capsys, *args):
    code = main(["solve", BOARD, "--format", "json", "--logic", "none", *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, json.loads(out)


def test_pulp_engine_crash_is_error_status(monkeypatch, capsys, puzzle):
    import pulp

    use_pair("pulp", "cbc")

    def explode(self, *args, **kwargs):
        raise pulp.PulpSolverError("cbc exploded on purpose")

    monkeypatch.setattr(pulp.LpProblem, "solve", explode)
    result = solve(puzzle, backend="pulp", solver="cbc", logic="none")
    assert result.status == "error" and result.grid is None
    assert "cbc exploded on purpose" in result.error
    code, record = cli_json(capsys, "--backend", "pulp", "--solver", "cbc")
    assert code == 1 and record["status"] == "error" and "exploded" in record["error"]


def test_pyomo_shell_engine_crash_is_error_status(monkeypatch, puzzle):
    from thermomilp.backends import pyomo_backend

    use_pair("pyomo", "glpk")

    def explode(self, model, time_limit, extra):
        raise RuntimeError("glpsol: segmentation fault (simulated)")

    monkeypatch.setattr(pyomo_backend._Shell, "solve", explode)
    result = solve(puzzle, backend="pyomo", solver="glpk", logic="none")
    assert result.status == "error"
    assert "GLPK via Pyomo failed" in result.error and "segmentation" in result.error


@pytest.mark.parametrize("backend", ["pulp", "pyomo"])
def test_grid_the_checker_rejects_is_error_not_answer(monkeypatch, capsys, puzzle, backend):
    """An engine claiming the empty grid solves a board with clues is caught by verify."""
    from thermomilp.backends.pulp_backend import PulpSession
    from thermomilp.backends.pyomo_backend import PyomoSession

    use_pair(backend, "highs")
    session = {"pulp": PulpSession, "pyomo": PyomoSession}[backend]
    monkeypatch.setattr(session, "_run", lambda self, limit, extra: Raw(
        Status.FEASIBLE, [0.0] * self.form.n_vars, "Optimal"))
    result = solve(puzzle, backend=backend, solver="highs", logic="none")
    assert result.status == "error" and result.grid is None
    assert "not a solution" in result.error
    code, record = cli_json(capsys, "--backend", backend, "--solver", "highs")
    assert code == 1 and record["status"] == "error" and record["grid"] is None


def test_engine_timeout_is_timeout_status(monkeypatch, capsys, puzzle):
    from thermomilp.backends import pulp_backend

    use_pair("pulp", "glpk")
    monkeypatch.setattr(pulp_backend, "read_status", lambda returned, prob: ("timeout", False))
    result = solve(puzzle, backend="pulp", solver="glpk", time_limit=5, logic="none")
    assert result.status == "timeout" and result.grid is None
    assert "time limit" in result.error
    code, record = cli_json(capsys, "--backend", "pulp", "--solver", "glpk", "--time-limit", "5")
    assert code == 1 and record["status"] == "timeout"


def test_timeout_after_first_solution_keeps_no_uniqueness_claim(monkeypatch, puzzle):
    """First solve fine, the uniqueness solve times out: status timeout, not unique."""
    from thermomilp.backends import pulp_backend

    use_pair("pulp", "highs")
    real = pulp_backend.read_status
    calls = []

    def second_times_out(returned, prob):
        calls.append(1)
        return real(returned, prob) if len(calls) == 1 else ("timeout", False)

    monkeypatch.setattr(pulp_backend, "read_status", second_times_out)
    # the re-solve after the cut runs on the HiGHS model PuLP built (no read_status)
    monkeypatch.setattr(pulp_backend, "run_highs", lambda *args: Raw(Status.TIMEOUT,
                                                                      said="Time limit"))
    result = solve(puzzle, backend="pulp", solver="highs", time_limit=5, logic="none")
    assert result.status == "timeout" and result.grid == puzzle.solution


def test_unavailable_pair_names_installed_pairs_and_install_step(monkeypatch, puzzle):
    from thermomilp.backends import matrix

    fake_engine(monkeypatch, "glpk", matrix.Probe(False), found=False)
    with pytest.raises(SolverUnavailable) as info:
        solve(puzzle, backend="pyomo", solver="glpk")
    message = str(info.value)
    assert "pyomo/glpk is not available" in message
    assert "apt-get install glpk-utils" in message
    assert "Installed pairs: highs/highs" in message and "glpk" not in message.split(
        "Installed pairs:")[1]


def test_an_engine_found_but_broken_is_refused_when_its_session_opens(monkeypatch, puzzle):
    """The check before a board only looks the engine up (a board the logic decides
    never runs it); the probe runs when a session opens, and refuses it there."""
    from thermomilp.backends import matrix

    fake_engine(monkeypatch, "glpk", matrix.Probe(
        False, None, "it did not solve a two-variable test model", present=True), found=True)
    with pytest.raises(SolverUnavailable, match="pyomo/glpk is not available.*test model"):
        solve(puzzle, backend="pyomo", solver="glpk", logic="none")


def test_solvers_command_shows_install_step_for_missing_pair(monkeypatch, capsys):
    from thermomilp.backends import matrix

    fake_engine(monkeypatch, "scip", matrix.Probe(False))
    assert main(["solvers"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if " scip " in line
             and not line.startswith("--solver alone")]
    assert len(lines) == 2
    for line in lines:
        assert line.split()[2] == "no" and pip_install("scip") in line
    assert main(["solvers", "--format", "json"]) == 0
    pairs = json.loads(capsys.readouterr().out)["pairs"]
    scip = [p for p in pairs if p["solver"] == "scip"]
    assert all(not p["available"] and p["install"] == pip_install("scip")
               for p in scip)


def test_verbose_engine_log_stays_off_stdout(capfd, solver_pair):
    """--verbose shows the engine's log on stderr; stdout stays valid JSON Lines (the
    highspy layer's HiGHS once wrote its log to stdout)."""
    backend, solver = solver_pair
    code = main(["solve", BOARD, "--format", "json", "--verbose", "--logic", "none",
                 "--backend", backend, "--solver", solver])
    out, err = capfd.readouterr()
    assert code == 0
    assert json.loads(out)["status"] == "unique"  # one clean JSON line
    assert err.strip()  # the engine did talk


def test_overlapping_verbose_runs_on_two_threads_give_stdout_back():
    """The server solves on two threads: two engine runs that log may overlap, A entering
    before B and leaving first. Each saving and restoring stdout on its own left fd 1 and
    sys.stdout pointing at stderr for good; the runs share one redirect instead."""
    import os
    import sys
    import threading

    from thermomilp.backends.base import engine_log_to_stderr

    before, before_object = os.fstat(1), sys.stdout
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    inside = []

    def first():
        with engine_log_to_stderr(True):
            a_in.set()
            b_in.wait(10)
            inside.append(os.path.sameopenfile(1, 2))
        a_out.set()

    def second():
        a_in.wait(10)
        with engine_log_to_stderr(True):
            b_in.set()
            a_out.wait(10)
            inside.append(os.path.sameopenfile(1, 2) and sys.stdout is sys.stderr)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = os.fstat(1)
    assert inside == [True, True]  # stderr while either run logs
    assert (after.st_dev, after.st_ino) == (before.st_dev, before.st_ino)
    assert sys.stdout is before_object


def test_real_time_limit_gives_timeout_or_checked_answer_never_error(solver_pair):
    """A 25x25 board with 0.05 s: each engine runs out of time its own way; all say timeout."""
    import random

    from thermomilp.core.verify import solution_problems
    from thermomilp.generate.random_board import planted_board

    backend, solver = solver_pair
    puzzle = planted_board(25, 25, random.Random(5), missing=0.3)
    result = solve(puzzle, backend=backend, solver=solver, time_limit=0.05)
    assert result.status in ("timeout", "unique", "multiple"), result.error
    if result.grid is not None:
        assert solution_problems(puzzle, result.grid) == []
    if result.status == "timeout":
        assert "time limit" in result.error
