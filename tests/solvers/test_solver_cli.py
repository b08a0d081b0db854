"""Acceptance: ``python -m thermomilp solve FILE --backend B --solver S`` agrees for every pair.

One subprocess per pair solves every instance (and the janko corpus when it
is there) as JSON Lines; each pair must give the status and grid that
``instances/expected.json`` / the published janko solution say, and the same
as highspy direct. Also: ``thermomilp solvers`` and the unavailable-pair error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from thermomilp.backends.matrix import KNOWN_PAIRS
from thermomilp.formats import load

from helpers import INSTANCES, ROOT, corpus_dir, fake_engine
from solver_pairs import use_pair

INSTANCE_FILES = sorted(str(p) for p in (INSTANCES / "thermometers").glob("*.txt"))
EXPECTED = json.loads((INSTANCES / "expected.json").read_text())


def run_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = dict(os.environ, PYTHONPATH=str(ROOT))
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "thermomilp", *args], capture_output=True,
                          text=True, env=full_env, cwd=ROOT, timeout=600)


def solve_records(backend: str, solver: str, files: list[str]) -> dict[str, dict]:
    # --logic none: the logic presolve (the CLI default) would decide most boards alone
    # and the pair under test would never see them.
    done = run_cli("solve", *files, "--backend", backend, "--solver", solver, "--format", "json",
                   "--logic", "none")
    assert "Traceback" not in done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["file"] for r in records] == files
    statuses = {r["status"] for r in records}
    assert done.returncode == (1 if statuses & {"infeasible", "timeout", "error"} else 0)
    return {r["file"]: r for r in records}


@pytest.fixture(scope="module")
def reference() -> dict[str, dict]:
    """highspy direct on the same files, the run every pair is compared with."""
    return solve_records("highs", "highs", _all_files())


def _all_files() -> list[str]:
    folder = corpus_dir()
    janko = sorted(str(p) for p in folder.glob("*.txt")) if folder else []
    return INSTANCE_FILES + janko


def test_reference_matches_expected_and_published_solutions(reference):
    for path, record in reference.items():
        assert record["backend"] == "highs" and record["solver"] == "highs"
        rel = os.path.relpath(path, INSTANCES)
        if rel in EXPECTED:
            assert record["status"] == EXPECTED[rel]["status"], path
        else:  # janko: published puzzles are unique and carry their solution
            assert record["status"] == "unique", path
            assert tuple(record["grid"]) == load(path).solution, path


def test_janko_corpus_present_or_skipped():
    if corpus_dir() is None:
        pytest.skip("janko corpus not found beside the repo or at $THERMOMILP_CORPUS")
    assert len(list(corpus_dir().glob("*.txt"))) >= 1


@pytest.mark.parametrize("pair", KNOWN_PAIRS, ids=[f"{b}-{s}" for b, s in KNOWN_PAIRS])
def test_cli_pair_gives_same_status_and_grid(pair, reference):
    backend, solver = use_pair(*pair)
    records = solve_records(backend, solver, list(reference))
    for path, record in records.items():
        ref = reference[path]
        assert (record["backend"], record["solver"]) == (backend, solver)
        assert record.get("proof") in (None, "milp"), path  # the engine decided, not the logic
        assert record["status"] == ref["status"], (path, record.get("error"))
        if ref["status"] == "unique":
            assert record["grid"] == ref["grid"], path
            assert record["levels"] == ref["levels"], path
        if ref["status"] == "multiple":  # both solutions real and different
            assert record["grid"] != record["second"]
            assert {tuple(record["grid"]), tuple(record["second"])} <= set(
                _brute_all(path)), path


def _brute_all(path: str) -> list[tuple[str, ...]]:
    from thermomilp.logic.brute import brute_force_solutions

    return list(brute_force_solutions(load(path)))


def test_unknown_engine_is_exit_2_naming_the_closed_list():
    done = run_cli("solve", INSTANCE_FILES[0], "--backend", "pulp", "--solver", "nosuchsolver")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    # not a member of the closed list: refused before PuLP or Pyomo sees the name
    assert "'nosuchsolver' is not an engine thermomilp runs" in done.stderr
    done = run_cli("solve", INSTANCE_FILES[0], "--backend", "highs", "--solver", "cbc")
    assert done.returncode == 2 and "backend highs cannot drive solver cbc" in done.stderr
    assert "solver cbc alone is driven by pulp" in done.stderr


def test_unavailable_pair_names_the_installed_pairs(monkeypatch):
    from thermomilp.backends import matrix
    from thermomilp.core.errors import SolverUnavailable

    fake_engine(monkeypatch, "glpk", matrix.Probe(False))
    with pytest.raises(SolverUnavailable, match="Installed pairs: highs/highs"):
        matrix.require_pair("pyomo", "glpk")


def test_solvers_command_lists_every_pair_text_and_json():
    text = run_cli("solvers")
    assert text.returncode == 0, text.stderr
    for backend, solver in KNOWN_PAIRS:
        assert any(line.split()[:2] == [backend, solver] for line in text.stdout.splitlines())
    data = json.loads(run_cli("solvers", "--format", "json").stdout)
    pairs = {(p["backend"], p["solver"]): p for p in data["pairs"]}
    assert set(pairs) == set(KNOWN_PAIRS)
    assert pairs["highs", "highs"]["available"] and pairs["highs", "highs"]["version"]
    for p in pairs.values():
        # an available pair names its engine version; a missing one names its install step
        assert (p["version"] if p["available"] else p["install"]), p


def test_unavailable_pair_fails_even_when_logic_would_decide_the_board():
    """The default logic decides t01 alone; a missing pair is still an error, up front."""
    done = run_cli("solve", INSTANCE_FILES[0], "--backend", "pyomo", "--solver", "glpk",
                   "--logic", "probing", env={"PATH": "/nonexistent"})
    assert done.returncode == 2 and done.stdout == ""
    assert "pyomo/glpk is not available" in done.stderr
    assert "Traceback" not in done.stderr and "WARNING" not in done.stderr  # Pyomo kept quiet
