"""No engine program is ever run from the working folder (issue 25, critical).

A downloaded puzzle folder may hold a script named like an engine. Pyomo's
SolverFactory looks for a program in the current folder before PATH, and
``shutil.which`` takes an empty or relative PATH entry as the current folder;
every engine program goes through ``backends/executables.py`` instead.
"""

from __future__ import annotations

import os
import stat

import pytest

from thermomilp.backends import matrix
from thermomilp.backends.executables import on_path
from thermomilp.core.errors import ConfigError, SolverUnavailable
from thermomilp.core.settings import Settings, Solver
from thermomilp.formats import load
from thermomilp.solving import solve

from helpers import INSTANCES, use_pair

PROGRAM_NAMES = ("glpsol", "cbc", "scip", "highs", "cbc.exe", "glpsol.exe")


def _plant(folder, marker) -> None:
    """Executable scripts named like every engine; running any of them leaves a marker."""
    for name in PROGRAM_NAMES:
        path = folder / name
        path.write_text(f"#!/bin/sh\necho ran >> {marker}\nexit 0\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


@pytest.fixture(params=["plain", "dot", "empty"])
def hostile_folder(request, tmp_path, monkeypatch):
    """The working folder is full of fake engines; PATH as is, with "." or with an empty entry."""
    folder = tmp_path / "downloaded"
    folder.mkdir()
    marker = tmp_path / "MARKER"
    _plant(folder, marker)
    monkeypatch.chdir(folder)
    path = os.environ.get("PATH", "")
    if request.param == "dot":
        monkeypatch.setenv("PATH", "." + os.pathsep + path)
    elif request.param == "empty":
        monkeypatch.setenv("PATH", os.pathsep + path)
    matrix.probe_engine.cache_clear()
    yield marker
    matrix.probe_engine.cache_clear()


PAIR_IDS = [f"{b}-{s}" for b, s in matrix.KNOWN_PAIRS]


@pytest.mark.parametrize("pair", matrix.KNOWN_PAIRS, ids=PAIR_IDS)
def test_no_pair_runs_a_program_from_the_working_folder(pair, hostile_folder):
    backend, solver = use_pair(*pair)
    puzzle = load(INSTANCES / "thermometers" / "t05_8x8.txt")
    result = solve(puzzle, backend=backend, solver=solver, logic="none", time_limit=60)
    assert not hostile_folder.exists(), "an engine program ran from the working folder"
    assert (result.status, result.grid) == ("unique", puzzle.solution)


def test_the_matrix_never_finds_a_program_in_the_working_folder(hostile_folder):
    for row in matrix.matrix():
        assert row.solver in Solver
    assert not hostile_folder.exists()
    for program in {*matrix.PROGRAMS.values(), *map(str, Solver)}:
        found = on_path(program)
        assert found is None or (os.path.isabs(found)
                                 and os.path.dirname(found) != os.getcwd())


def test_an_engine_path_must_be_absolute_and_is_used_as_given(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="absolute"):
        Settings(solver="glpk", engine_path="glpsol")
    glpsol = on_path("glpsol")
    if glpsol is None:
        pytest.skip("no glpsol on PATH; install: apt-get install glpk-utils")
    settings = Settings(backend="pulp", solver="glpk", engine_path=glpsol, logic="none")
    assert matrix.program_path(Solver.GLPK, settings) == glpsol
    puzzle = load(INSTANCES / "thermometers" / "t03_6x6.txt")
    assert solve(puzzle, settings=settings).grid == puzzle.solution


def test_an_engine_path_that_is_no_engine_is_refused(tmp_path):
    fake = tmp_path / "fake-cbc"
    marker = tmp_path / "MARKER"
    fake.write_text(f"#!/bin/sh\necho ran >> {marker}\n")
    fake.chmod(0o755)
    settings = Settings(backend="pulp", solver="cbc", engine_path=str(fake))
    with pytest.raises(SolverUnavailable, match="fake-cbc"):
        matrix.require_pair(settings.backend, settings.solver, settings.engine_path)


def test_an_engine_path_for_an_in_process_engine_is_refused():
    with pytest.raises(ConfigError, match="inside Python"):
        matrix.require_pair("pulp", "highs", "/bin/true")


def test_other_engine_names_do_not_pass_through():
    with pytest.raises(ConfigError):
        Settings(backend="pyomo", solver="pwn")
    with pytest.raises(ConfigError):
        matrix.pair_info("pulp", "gurobi")


def test_the_solvers_command_advertises_no_pass_through(capsys):
    from thermomilp.cli.main import main

    assert main(["solvers"]) == 0
    out = capsys.readouterr().out
    assert "pass through" not in out and "gurobi" not in out
