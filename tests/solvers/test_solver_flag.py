"""The solver flag alone swaps the engine: ``--solver cbc`` (or THERMOMILP_SOLVER, or a
config file) with no backend is driven by the layer of the rule (docs/solvers.md).

A pair not installed here is skipped with the install step (``THERMOMILP_REQUIRE_ALL_SOLVERS=1``
turns the skip into a failure): cbc and glpk are ``apt-get install coinor-cbc glpk-utils``,
scip is ``pip install "thermomilp[scip]"``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from thermomilp.core.settings import BACKEND_FOR, Settings, Solver
from thermomilp.formats import load
from thermomilp.solving import solve

from helpers import INSTANCES, ROOT, use_pair

BOARD = str(INSTANCES / "thermometers" / "t03_6x6.txt")


def run_in(folder, *args, env=None) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("THERMOMILP_")}
    full_env["PYTHONPATH"] = str(ROOT)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "thermomilp", *args], capture_output=True,
                          text=True, env=full_env, cwd=folder, timeout=300)


@pytest.mark.parametrize("route", ["flag", "environment", "config file"])
@pytest.mark.parametrize("solver", [str(s) for s in Solver if s is not Settings().solver])
def test_the_solver_alone_solves_the_board(tmp_path, solver, route):
    backend = str(BACKEND_FOR[Solver(solver)])
    use_pair(backend, solver)
    args, env = ["solve", BOARD, "--format", "json", "--logic", "none"], None
    if route == "flag":
        args += ["--solver", solver]
    elif route == "environment":
        env = {"THERMOMILP_SOLVER": solver}
    else:
        (tmp_path / "thermomilp.toml").write_text(f'solver = "{solver}"\n')
    done = run_in(tmp_path, *args, env=env)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert (record["status"], record["proof"]) == ("unique", "milp")
    assert (record["backend"], record["solver"]) == (backend, solver)
    assert record["grid"] == list(load(BOARD).solution)


def test_pulp_cbc_name_works_in_the_api():
    use_pair("pulp", "cbc")
    puzzle = load(BOARD)
    result = solve(puzzle, solver="PULP_CBC_CMD", logic="none")
    assert (result.status, result.backend, result.solver) == ("unique", "pulp", "cbc")
    assert result.grid == puzzle.solution


def test_pulp_highs_object_works_in_the_api():
    pulp = pytest.importorskip("pulp")
    use_pair("pulp", "highs")
    puzzle = load(BOARD)
    result = solve(puzzle, solver=pulp.HiGHS(msg=False), logic="none")
    assert (result.status, result.backend, result.solver) == ("unique", "pulp", "highs")
    assert result.grid == puzzle.solution


def test_check_and_batch_take_the_solver_alone(tmp_path):
    use_pair("pulp", "glpk")
    done = run_in(tmp_path, "check", BOARD, "--solver", "glpk", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "unique"
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "t03.txt").write_text(open(BOARD).read())
    done = run_in(tmp_path, "batch", "boards", "--solver", "glpk", "--logic", "none",
                  "--jobs", "1", "--no-progress", "--out", "out.jsonl")
    assert done.returncode == 0, done.stderr
    record = json.loads((tmp_path / "out.jsonl").read_text().splitlines()[0])
    assert (record["status"], record["backend"], record["solver"]) == ("unique", "pulp", "glpk")
