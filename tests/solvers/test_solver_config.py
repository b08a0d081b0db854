"""The solver is chosen by flag, environment, thermomilp.toml or pyproject.toml -- in that order.

In-process checks of :func:`thermomilp.core.config.resolve` cover every route and
each precedence step; subprocess runs check that ``thermomilp solve`` really
uses the pair so chosen and that ``thermomilp config`` prints values and
sources.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from thermomilp.core.config import resolve
from thermomilp.core.errors import ConfigError

from helpers import INSTANCES, ROOT
from solver_pairs import use_pair

BOARD = str(INSTANCES / "thermometers" / "t03_6x6.txt")


def write_toml(folder, text):
    (folder / "thermomilp.toml").write_text(text)


def write_pyproject(folder, text):
    (folder / "pyproject.toml").write_text("[project]\nname = 'x'\n\n[tool.thermomilp]\n" + text)


def test_defaults(tmp_path):
    s = resolve({}, env={}, cwd=tmp_path)
    assert (s.backend, s.solver, s.verbose, s.logic) == ("highs", "highs", False, "probing")
    assert s.backend_chosen and s.origins["backend"].startswith("chosen for solver highs")
    assert {v for k, v in s.origins.items() if k != "backend"} == {"default"}


@pytest.mark.parametrize("route", ["flag", "env", "toml", "pyproject"])
def test_each_route_sets_backend_and_solver(tmp_path, route):
    flags, env = {}, {}
    if route == "flag":
        flags = {"backend": "pyomo", "solver": "glpk"}
    elif route == "env":
        env = {"THERMOMILP_BACKEND": "pyomo", "THERMOMILP_SOLVER": "glpk"}
    elif route == "toml":
        write_toml(tmp_path, 'backend = "pyomo"\nsolver = "glpk"\n')
    else:
        write_pyproject(tmp_path, 'backend = "pyomo"\nsolver = "glpk"\n')
    s = resolve(flags, env=env, cwd=tmp_path)
    assert (s.backend, s.solver) == ("pyomo", "glpk")
    expected_origin = {"flag": "command line", "env": "environment THERMOMILP_SOLVER",
                       "toml": "thermomilp.toml", "pyproject": "[tool.thermomilp]"}[route]
    assert expected_origin in s.origins["solver"]


def test_precedence_flag_over_env_over_toml_over_pyproject(tmp_path):
    write_pyproject(tmp_path, 'solver = "scip"\nthreads = 3\nseed = 5\ntime_limit = 9\n')
    assert resolve({}, env={}, cwd=tmp_path).solver == "scip"
    write_toml(tmp_path, 'solver = "cbc"\nseed = 4\n')
    s = resolve({}, env={}, cwd=tmp_path)
    # thermomilp.toml wins over pyproject.toml whole: pyproject's keys are not merged in
    assert (s.solver, s.seed, s.threads) == ("cbc", 4, None)
    env = {"THERMOMILP_SOLVER": "glpk", "THERMOMILP_VERBOSE": "on"}
    s = resolve({}, env=env, cwd=tmp_path)
    assert (s.solver, s.seed, s.verbose) == ("glpk", 4, True)
    s = resolve({"solver": "highs", "seed": 1}, env=env, cwd=tmp_path)
    assert (s.solver, s.seed) == ("highs", 1)
    assert s.origins["solver"] == "command line"
    assert s.origins["verbose"] == "environment THERMOMILP_VERBOSE"


@pytest.mark.parametrize("bad", ['threads = 0', 'verbose = "maybe"', 'colour = "red"'])
def test_bad_config_values_are_config_errors(tmp_path, bad):
    write_toml(tmp_path, bad + "\n")
    with pytest.raises(ConfigError, match="thermomilp.toml|threads|verbose"):
        resolve({}, env={}, cwd=tmp_path)


def thermomilp_in(folder, *args, env=None) -> subprocess.CompletedProcess:
    """Run the CLI in ``folder`` with no THERMOMILP_* settings but those in ``env``."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("THERMOMILP_")}
    full_env["PYTHONPATH"] = str(ROOT)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "thermomilp", *args], capture_output=True,
                          text=True, env=full_env, cwd=folder, timeout=300)


def _solve_in(tmp_path, *flags, env=None):
    done = thermomilp_in(tmp_path, "solve", BOARD, "--format", "json", "--logic", "none",
                         *flags, env=env)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["status"] == "unique" and record["proof"] == "milp"
    return record["backend"], record["solver"]


def test_cli_uses_the_pair_from_each_route_with_precedence(tmp_path):
    for pair in (("pulp", "glpk"), ("pyomo", "cbc"), ("pulp", "cbc"), ("pyomo", "highs")):
        use_pair(*pair)
    write_pyproject(tmp_path, 'backend = "pulp"\nsolver = "glpk"\n')
    assert _solve_in(tmp_path) == ("pulp", "glpk")
    write_toml(tmp_path, 'backend = "pyomo"\nsolver = "cbc"\n')
    assert _solve_in(tmp_path) == ("pyomo", "cbc")
    env = {"THERMOMILP_BACKEND": "pulp", "THERMOMILP_SOLVER": "cbc"}
    assert _solve_in(tmp_path, env=env) == ("pulp", "cbc")
    assert _solve_in(tmp_path, "--backend", "pyomo", "--solver", "highs", env=env) == (
        "pyomo", "highs")


def test_config_command_prints_values_and_sources(tmp_path):
    write_toml(tmp_path, 'solver = "cbc"\nthreads = 2\n')
    done = thermomilp_in(tmp_path, "config", "--backend", "pulp", env={"THERMOMILP_SEED": "11"})
    assert done.returncode == 0, done.stderr
    lines = {line.split()[0]: line for line in done.stdout.splitlines()}
    assert "pulp" in lines["backend"] and "(command line)" in lines["backend"]
    assert "cbc" in lines["solver"] and "thermomilp.toml" in lines["solver"]
    assert " 2 " in lines["threads"] and "thermomilp.toml" in lines["threads"]
    assert "11" in lines["seed"] and "THERMOMILP_SEED" in lines["seed"]
    assert "(default)" in lines["time_limit"] and "(default)" in lines["verbose"]
