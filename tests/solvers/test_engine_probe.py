"""Engines count as installed when they solve a tiny model, whatever banner they print.

The cbcbox wheel (``pulp[cbc]``) prints ``CBC devel (git:...)`` where
Debian's cbc prints ``Version: 2.10.8``; an engine is judged by the answer
it gives to ``matrix.PROBE_LP``, so fake engines here print one banner or
the other and answer right or wrong. What to run, and where to look, is the
engine's record (``ENGINES[...].probe``); the matrix holds only the mechanism.
"""

from __future__ import annotations

import dataclasses
import stat
import sys

import pytest

from thermomilp.backends import matrix
from thermomilp.core.engines import ENGINES, Backend, Need, Solver

from helpers import fake_engine

# A stand-in cbc: prints BANNER, writes SOLUTION to the file after -solution.
FAKE_CBC = """#!{python}
import sys
print({banner!r})
args = sys.argv[1:]
if "-solution" in args:
    with open(args[args.index("-solution") + 1], "w") as handle:
        handle.write({solution!r})
"""
RIGHT = "Optimal - objective value 0.00000000\n      1 b  1  0\n"
# the same answer under -printingOptions all: every row from 0, then every column from 0
# (what Pyomo reads; the cbcbox build leaves out the rows of an answer bound tightening
# decided, and PROBE_LP is decided so)
ALL = ("Optimal - objective value 0.00000000\n      0 one  1  0\n      1 two  2  0\n"
       "      0 a  0  1\n      1 b  1  0\n      2 c  1  0\n")
WRONG = "Optimal - objective value 1.00000000\n      0 a  1  1\n"


def fake_cbc(tmp_path, banner: str, solution: str) -> str:
    path = tmp_path / "cbc"
    path.write_text(FAKE_CBC.format(python=sys.executable, banner=banner, solution=solution))
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


@pytest.fixture
def only_candidate(monkeypatch):
    """Make one binary the only cbc this machine offers; clear the per-process cache."""
    def use(path):
        monkeypatch.setattr(matrix, "program_candidates",
                            lambda engine, explicit=None: [(path, "a test binary")])
        matrix.probe_engine.cache_clear()
    yield use
    matrix.probe_engine.cache_clear()


@pytest.mark.parametrize("banner, version", [
    ("CBC devel (git:146ce89) — COIN-OR Branch and Cut", "devel (git:146ce89)"),
    ("Welcome to the CBC MILP Solver\nVersion: 2.10.8", "2.10.8"),
    ("some build that names no version", "?"),
])
def test_a_cbc_that_solves_is_available_whatever_its_banner(tmp_path, only_candidate,
                                                            banner, version):
    only_candidate(fake_cbc(tmp_path, banner, ALL))
    for backend in ("pulp", "pyomo"):
        info = matrix.pair_info(backend, "cbc")
        assert (info.available, info.version) == (True, version), info


def test_pyomo_runs_a_cbc_whose_answer_it_can_read(tmp_path, monkeypatch):
    """A build that writes the columns alone serves PuLP but not Pyomo, which reads the
    rows first and would find no value: Pyomo runs the next binary that writes both, and
    with none its pair is not available."""
    from thermomilp.core.settings import Settings

    (tmp_path / "cbcbox").mkdir()
    (tmp_path / "debian").mkdir()
    columns = fake_cbc(tmp_path / "cbcbox", "CBC devel (git:146ce89)", RIGHT)
    both = fake_cbc(tmp_path / "debian", "Version: 2.10.8", ALL)
    offered = [(columns, "cbc on PATH"), (both, "the CBC bundled with PuLP 3")]
    monkeypatch.setattr(matrix, "program_candidates", lambda engine, explicit=None: offered)
    matrix.probe_engine.cache_clear()
    try:
        assert matrix.program_path(Solver.CBC, Settings(backend="pulp", solver="cbc")) == columns
        assert matrix.program_path(Solver.CBC, Settings(backend="pyomo", solver="cbc")) == both
        assert matrix.pair_info("pyomo", "cbc").version == "2.10.8"
        offered.pop()
        matrix.probe_engine.cache_clear()
        assert matrix.pair_info("pulp", "cbc").available
        info = matrix.pair_info("pyomo", "cbc")
        assert not info.available and columns in info.detail, info
        assert "read as the pyomo layer reads it" in info.detail, info
    finally:
        matrix.probe_engine.cache_clear()


def test_a_cbc_with_a_good_banner_but_a_wrong_answer_is_not(tmp_path, only_candidate):
    path = fake_cbc(tmp_path, "Version: 2.10.8", WRONG)
    only_candidate(path)
    info = matrix.pair_info("pulp", "cbc")
    assert not info.available
    assert path in info.detail and "did not solve" in info.detail
    assert info.install == matrix.BROKEN  # it is installed: no install command


def test_no_cbc_anywhere_says_where_it_looked(monkeypatch):
    monkeypatch.setattr(matrix, "program_candidates", lambda engine, explicit=None: [])
    matrix.probe_engine.cache_clear()
    try:
        info = matrix.pair_info("pyomo", "cbc")
        assert not info.available and "cbcbox" in info.detail and "PATH" in info.detail
    finally:
        matrix.probe_engine.cache_clear()


@pytest.mark.parametrize("solver", list(ENGINES))
def test_every_record_names_a_probe_the_matrix_runs(solver):
    """Adding an engine is its record: the probe it names is data the matrix can run."""
    record = ENGINES[solver]
    rule = record.probe
    if rule.kind == "program":
        assert record.program and rule.solution in matrix.SOLUTION_READERS
        assert {"{program}", "{model}", "{solution}"} <= set(rule.argv)
        assert rule.module is None and rule.missing
    else:
        assert rule.kind in matrix.IN_PROCESS_PROBES and rule.module and not record.program
    assert all(need.backend in record.backends for need in record.needs)


@pytest.mark.parametrize("solver", list(ENGINES))
def test_the_real_engines_solve_the_probe(solver):
    """Every engine found here solves the probe (the parsers read real solution files);
    one that is not found says where it was looked for."""
    path, probe = matrix.probe_engine(solver)
    if not matrix.engine_found(solver):
        assert not probe.works and probe.detail == ENGINES[solver].probe.not_found()
    else:  # e.g. a glpsol on PATH must solve the probe (Debian's glpk-utils does)
        assert probe.works and probe.version, probe
        assert (path is not None) == (ENGINES[solver].program is not None)


def test_solution_readers():
    assert matrix._coin_solution(RIGHT) == {"a": 0.0, "b": 1.0}
    assert matrix._coin_solution("Infeasible - objective value 0\n") is None
    assert matrix._coin_solution(ALL) == matrix._coin_rows_solution(ALL) == {"a": 0.0, "b": 1.0}
    assert matrix._coin_rows_solution(RIGHT) is None  # no rows: Pyomo reads nothing
    glpk = "c Status: INTEGER OPTIMAL\ns mip 2 3 o 0\ni 1 1\ni 2 2\nj 1 0\nj 2 1\nj 3 1\ne o f\n"
    assert matrix._glpk_solution(glpk) == {"a": 0.0, "b": 1.0}
    assert matrix._glpk_solution(glpk.replace(" o 0", " n 0")) is None


def test_an_installed_engine_that_fails_is_not_told_to_install_it(tmp_path, monkeypatch):
    """A cbc that is there but does not solve gets no "apt-get install coinor-cbc" hint."""
    broken = tmp_path / "cbc"
    broken.write_text("#!/bin/sh\nexit 1\n")
    broken.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(matrix, "program_candidates",
                        lambda engine, explicit=None: [(str(broken), "cbc on PATH")])
    matrix.probe_engine.cache_clear()
    try:
        info = matrix.pair_info("pulp", "cbc")
    finally:
        matrix.probe_engine.cache_clear()
    assert not info.available and "coinor-cbc" not in info.install
    assert "failed the test solve" in info.install and str(broken) in info.detail


def test_pyomo_scip_on_an_old_pyomo_names_the_pyomo_upgrade(monkeypatch):
    old_pyomo = Need(Backend.PYOMO, "pyomo", "no_such_interface", "Pyomo >= 6.10 is needed",
                     'pip install "pyomo>=6.10"')
    monkeypatch.setitem(ENGINES, Solver.SCIP,
                        dataclasses.replace(ENGINES[Solver.SCIP], needs=(old_pyomo,)))
    fake_engine(monkeypatch, "scip", matrix.Probe(True, "10.0"))
    info = matrix.pair_info("pyomo", "scip")
    assert not info.available and info.install == 'pip install "pyomo>=6.10"'
    assert info.detail == "Pyomo >= 6.10 is needed"
    assert matrix.pair_info("pulp", "scip").available  # the need is Pyomo's alone
    # the check before a board does not take a pair with a need of its own as found
    assert not matrix.pair_info("pyomo", "scip", probe=False).available
