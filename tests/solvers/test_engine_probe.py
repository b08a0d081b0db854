"""Engines count as installed when they solve a tiny model, whatever banner they print.

The cbcbox wheel (``pulp[cbc]``) prints ``CBC devel (git:...)`` where
Debian's cbc prints ``Version: 2.10.8``; an engine is judged by the answer
it gives to ``matrix.PROBE_LP``, so fake engines here print one banner or
the other and answer right or wrong.
"""

from __future__ import annotations

import stat
import sys

import pytest

from thermomilp.backends import matrix

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
        monkeypatch.setattr(matrix, "cbc_candidates", lambda: [(path, "a test binary")])
        matrix.cbc_probe.cache_clear()
    yield use
    matrix.cbc_probe.cache_clear()


@pytest.mark.parametrize("banner, version", [
    ("CBC devel (git:146ce89) — COIN-OR Branch and Cut", "devel (git:146ce89)"),
    ("Welcome to the CBC MILP Solver\nVersion: 2.10.8", "2.10.8"),
    ("some build that names no version", "?"),
])
def test_a_cbc_that_solves_is_available_whatever_its_banner(tmp_path, only_candidate,
                                                            banner, version):
    only_candidate(fake_cbc(tmp_path, banner, RIGHT))
    for backend in ("pulp", "pyomo"):
        info = matrix.pair_info(backend, "cbc")
        assert (info.available, info.version) == (True, version), info


def test_a_cbc_with_a_good_banner_but_a_wrong_answer_is_not(tmp_path, only_candidate):
    path = fake_cbc(tmp_path, "Version: 2.10.8", WRONG)
    only_candidate(path)
    info = matrix.pair_info("pulp", "cbc")
    assert not info.available
    assert path in info.detail and "did not solve" in info.detail
    assert info.install == matrix.BROKEN  # it is installed: no install command


def test_no_cbc_anywhere_says_where_it_looked(monkeypatch):
    monkeypatch.setattr(matrix, "cbc_candidates", list)
    matrix.cbc_probe.cache_clear()
    try:
        info = matrix.pair_info("pyomo", "cbc")
        assert not info.available and "cbcbox" in info.detail and "PATH" in info.detail
    finally:
        matrix.cbc_probe.cache_clear()


def test_the_real_engines_solve_the_probe():
    """Every engine found here solved the probe; the parsers read real solution files."""
    path, probe = matrix.cbc_probe()
    if path is not None:
        assert probe.works and probe.version
    glpk = matrix.glpk_probe()
    if matrix.on_path("glpsol") is None:
        assert not glpk.works and "glpsol" in glpk.detail
    else:  # a glpsol on PATH must solve the probe (Debian's glpk-utils does)
        assert glpk.works and glpk.version and glpk.version[0].isdigit(), glpk


def test_solution_readers():
    assert matrix._cbc_solution(RIGHT) == {"a": 0.0, "b": 1.0}
    assert matrix._cbc_solution("Infeasible - objective value 0\n") is None
    glpk = "c Status: INTEGER OPTIMAL\ns mip 1 2 o 0\ni 1 1\nj 1 0\nj 2 1\ne o f\n"
    assert matrix._glpk_solution(glpk) == {"a": 0.0, "b": 1.0}
    assert matrix._glpk_solution(glpk.replace(" o 0", " n 0")) is None


def test_an_installed_engine_that_fails_is_not_told_to_install_it(tmp_path, monkeypatch):
    """A cbc that is there but does not solve gets no "apt-get install coinor-cbc" hint."""
    broken = tmp_path / "cbc"
    broken.write_text("#!/bin/sh\nexit 1\n")
    broken.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(matrix, "cbc_candidates", lambda: [(str(broken), "cbc on PATH")])
    matrix.cbc_probe.cache_clear()
    try:
        info = matrix.pair_info("pulp", "cbc")
    finally:
        matrix.cbc_probe.cache_clear()
    assert not info.available and "coinor-cbc" not in info.install
    assert "failed the test solve" in info.install and str(broken) in info.detail


def test_pyomo_scip_on_an_old_pyomo_names_the_pyomo_upgrade(monkeypatch):
    monkeypatch.setitem(matrix.PAIR_NEEDS, ("pyomo", "scip"),
                        (lambda: "Pyomo >= 6.10 is needed", 'pip install "pyomo>=6.10"'))
    monkeypatch.setitem(matrix.ENGINE_PROBE, "scip",
                        lambda explicit=None: matrix.Probe(True, "10.0"))
    info = matrix.pair_info("pyomo", "scip")
    assert not info.available and info.install == 'pip install "pyomo>=6.10"'
