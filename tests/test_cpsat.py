"""CP-SAT behind the same solver flag: ``--solver cpsat`` gives HiGHS's answers.

The engine runs OR-Tools CP-SAT on the same linear model through the one solve
layer. Cross-checked against HiGHS on every shipped board and against the
independent brute force on property-generated boards; its settings (time limit,
workers, options) and its absence checked on their own. The pair is skipped
with its install step when OR-Tools is missing -- and fails instead under
``THERMOMILP_REQUIRE_ALL_SOLVERS=1`` (``.ci/run``). The agreement suite of
tests/solvers/ runs the cpsat pair too (it is one of ``KNOWN_PAIRS``).
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import thermomilp
from thermomilp.backends import matrix
from thermomilp.core.errors import ConfigError, SolverUnavailable
from thermomilp.core.install import pip_install
from thermomilp.core.settings import BACKEND_FOR, DRIVES, Backend, Settings, Solver
from thermomilp.core.verify import solution_problems
from thermomilp.formats import load
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.brute import brute_force_count, brute_force_solutions
from thermomilp.solving import enumerate_solutions, solve
from thermomilp.solving.engine import Engine

from helpers import INSTANCES, ROOT, expected_status, random_aquarium, shipped_boards, use_pair

CAP = 3
BOARDS = shipped_boards()


@pytest.fixture
def cpsat() -> str:
    """The cpsat solver name, once the pair is installed (skip, or fail in CI)."""
    use_pair("cpsat", "cpsat")
    return "cpsat"


@functools.lru_cache(maxsize=None)
def highs_answer(path, logic: str):
    """HiGHS's answer on a shipped board (once per board and logic)."""
    return solve(load(path), solver="highs", logic=logic)


def _rel(path) -> str:
    return path.relative_to(INSTANCES).as_posix()


# -- the rule and the settings ---------------------------------------------------


def test_cpsat_is_one_more_engine_with_its_own_layer():
    assert BACKEND_FOR[Solver.CPSAT] is Backend.CPSAT
    assert DRIVES[Backend.CPSAT] == {Solver.CPSAT}
    assert (Backend.CPSAT, Solver.CPSAT) in matrix.KNOWN_PAIRS
    assert not any(s is Solver.CPSAT for b, s in matrix.KNOWN_PAIRS if b is not Backend.CPSAT)
    chosen = Settings(solver="cpsat")
    assert (chosen.backend, chosen.solver, chosen.backend_chosen) == ("cpsat", "cpsat", True)
    assert Settings(solver="CP-SAT").pair == "cpsat/cpsat"


@pytest.mark.parametrize("layer", ["pulp", "pyomo", "highs"])
def test_another_layer_cannot_drive_cpsat_and_says_which_can(layer):
    """Neither PuLP nor Pyomo has an interface to CP-SAT: refused, never swapped."""
    with pytest.raises(ConfigError, match=f"backend {layer} cannot drive solver cpsat.*"
                                          "or choose backend cpsat$"):
        Settings(backend=layer, solver="cpsat")
    with pytest.raises(ConfigError, match="backend cpsat cannot drive solver highs.*"
                                          "choose backend highs or pulp or pyomo"):
        Settings(backend="cpsat", solver="highs")


def test_pair_info_of_a_pair_that_does_not_exist_names_the_layer_that_does():
    info = matrix.pair_info("pulp", "cpsat")
    assert not info.available and "use --backend cpsat for cpsat" in info.detail


# -- every shipped board: the same answers as HiGHS ---------------------------------


@pytest.mark.parametrize("logic", ["none", "probing"])
@pytest.mark.parametrize("path", BOARDS, ids=_rel)
def test_cpsat_gives_highs_answers_on_every_shipped_board(cpsat, path, logic):
    """Status, grid and second: a unique board has the same grid; a board with several
    solutions gives two real, different ones; the status is what expected.json says."""
    puzzle = load(path)
    mine, theirs = solve(puzzle, solver=cpsat, logic=logic), highs_answer(path, logic)
    assert (mine.backend, mine.solver, mine.error) == ("cpsat", "cpsat", None)
    assert mine.status == theirs.status == expected_status(path)
    if mine.status == "unique":
        assert mine.grid == theirs.grid
        assert mine.second is None
    if mine.status == "multiple":
        assert mine.grid != mine.second
        for grid in (mine.grid, mine.second):
            assert solution_problems(puzzle, grid) == []
    if logic == "none" and mine.status in ("unique", "infeasible"):
        assert mine.proof == "milp" and mine.engine_called


def test_cpsat_enumerates_the_multiple_board_like_the_brute_force(cpsat):
    path = INSTANCES / "thermometers" / "t07_5x5_two_solutions.txt"
    puzzle = load(path)
    found = list(enumerate_solutions(puzzle, 10, solver=cpsat))
    assert len(found) == len(set(found))
    assert set(found) == set(brute_force_solutions(puzzle, None))


# -- property-generated boards: the brute force's counts ----------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(height=st.integers(2, 5), width=st.integers(2, 5), seed=st.integers(0, 10**6),
       missing=st.sampled_from([0.0, 0.3, 0.7]), formulation=st.sampled_from(["cell",
                                                                             "compact"]))
def test_cpsat_counts_random_thermometers_like_the_brute_force(height, width, seed, missing,
                                                               formulation):
    use_pair("cpsat", "cpsat")
    puzzle = planted_board(height, width, random.Random(seed), missing=missing)
    found = list(enumerate_solutions(puzzle, CAP, solver="cpsat", formulation=formulation))
    assert len(found) == len(set(found)) == brute_force_count(puzzle, CAP)
    assert all(solution_problems(puzzle, grid) == [] for grid in found)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(height=st.integers(2, 5), width=st.integers(2, 5), seed=st.integers(0, 10**6),
       formulation=st.sampled_from(["cell", "compact", "level"]))
def test_cpsat_counts_random_aquariums_like_the_brute_force(height, width, seed, formulation):
    use_pair("cpsat", "cpsat")
    puzzle = random_aquarium(height, width, random.Random(seed))
    found = list(enumerate_solutions(puzzle, CAP, solver="cpsat", formulation=formulation))
    assert len(found) == len(set(found)) == brute_force_count(puzzle, CAP)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.integers(6, 12), seed=st.integers(0, 10**6),
       missing=st.sampled_from([0.0, 0.3]))
def test_cpsat_and_highs_agree_on_larger_random_boards(size, seed, missing):
    use_pair("cpsat", "cpsat")
    puzzle = planted_board(size, size, random.Random(seed), missing=missing)
    mine = solve(puzzle, solver="cpsat", logic="none")
    theirs = solve(puzzle, solver="highs", logic="none")
    assert mine.status == theirs.status
    if mine.status == "unique":
        assert mine.grid == theirs.grid == puzzle.solution


# -- infeasible boards, fixed cells, the same confirmation ----------------------------


def test_infeasible_board_is_confirmed_and_explained(cpsat):
    result = solve(load(INSTANCES / "thermometers" / "t08_4x4_no_solution.txt"),
                   solver=cpsat, logic="none")
    assert (result.status, result.confirmed_by) == ("infeasible", "logic")
    assert result.conflict  # the conflict finder ran on the same engine


def test_infeasible_when_the_logic_cannot_confirm_is_the_engines_verdict(cpsat, monkeypatch):
    """CP-SAT needs no second opinion in another configuration: when the logic search
    is undecided its "infeasible" stands, and the record says the engine confirmed it."""
    from thermomilp.solving import confirm as confirm_module

    monkeypatch.setattr(confirm_module, "confirm_infeasible",
                        lambda *a, **k: confirm_module.UNDECIDED)
    result = solve(load(INSTANCES / "thermometers" / "t03_6x6.txt"), solver=cpsat,
                   logic="none")
    assert (result.status, result.confirmed_by) == ("unique", "engine")  # "no other"
    result = solve(load(INSTANCES / "thermometers" / "t08_4x4_no_solution.txt"),
                   solver=cpsat, logic="none", explain=False)
    assert (result.status, result.confirmed_by) == ("infeasible", "engine")


def test_fixed_cells_from_the_logic_bound_the_model(cpsat):
    """A cell fixed against the unique solution leaves no solution; fixed with it, the
    same solution: the fixed map reaches the CP-SAT model as bounds."""
    puzzle = load(INSTANCES / "thermometers" / "t05_8x8.txt")
    solution = solve(puzzle, solver="highs").grid
    cell = (3, 4)
    right = 1 if solution[3][4] == "#" else 0
    engine = Engine(puzzle, Settings(solver=cpsat), fixed={cell: right})
    assert engine.next_solution().grid == solution
    engine = Engine(puzzle, Settings(solver=cpsat), fixed={cell: 1 - right})
    assert engine.next_solution().status == "infeasible"


def test_a_wrong_grid_from_cp_sat_is_an_error_never_an_answer(cpsat, monkeypatch):
    """The same checker as every engine: a point that breaks a rule is status error."""
    from thermomilp.backends import cpsat_backend
    from thermomilp.backends.base import Raw
    from thermomilp.core.status import Status

    monkeypatch.setattr(cpsat_backend, "run_cpsat",
                        lambda model, variables, *a, **k: Raw(Status.FEASIBLE,
                                                              [1.0] * len(variables)))
    result = solve(load(INSTANCES / "thermometers" / "t03_6x6.txt"), solver=cpsat,
                   logic="none")
    assert result.status == "error" and "not a solution" in result.error


# -- time limit, workers, seed, options ------------------------------------------------


def test_each_call_gets_what_is_left_of_the_deadline_and_one_worker(cpsat, monkeypatch):
    from ortools.sat.python import cp_model

    seen: list[tuple[float, int, int]] = []
    real = cp_model.CpSolver.solve

    def spy(self, model, *args, **kwargs):
        p = self.parameters
        seen.append((p.max_time_in_seconds, p.num_workers, p.random_seed))
        return real(self, model, *args, **kwargs)

    monkeypatch.setattr(cp_model.CpSolver, "solve", spy)
    puzzle = load(INSTANCES / "thermometers" / "t05_8x8.txt")
    assert solve(puzzle, solver=cpsat, logic="none", time_limit=30).status == "unique"
    assert len(seen) >= 2  # the solve and the uniqueness question
    assert all(0 < limit <= 30 for limit, _, _ in seen)
    assert [workers for _, workers, _ in seen] == [1] * len(seen)  # deterministic default
    seen.clear()
    solve(puzzle, solver=cpsat, logic="none", threads=2, seed=9)
    assert {(workers, seed) for _, workers, seed in seen} == {(2, 9)}
    assert all(limit == 0 or limit > 10**6 for limit, _, _ in seen)  # no limit: CP-SAT's own


def test_the_default_is_reproducible_on_a_board_with_many_solutions(cpsat):
    puzzle = planted_board(12, 12, random.Random(3), missing=0.6)
    first = solve(puzzle, solver=cpsat, logic="none")
    assert first.status == "multiple"
    for _ in range(2):
        again = solve(puzzle, solver=cpsat, logic="none")
        assert (again.grid, again.second) == (first.grid, first.second)


def test_a_real_time_limit_is_a_timeout_or_a_checked_answer(cpsat):
    puzzle = planted_board(40, 40, random.Random(11), missing=0.5)
    result = solve(puzzle, solver=cpsat, logic="none", time_limit=0.02)
    assert result.status in ("timeout", "unique", "multiple"), result.error
    if result.grid is not None:
        assert solution_problems(puzzle, result.grid) == []
    if result.status == "timeout":
        assert "time limit" in result.error


def test_a_limit_that_stops_cp_sat_undecided_is_a_timeout_not_unique(cpsat):
    """UNKNOWN (a limit stopped it before deciding) is never read as "no other solution"."""
    puzzle = load(INSTANCES / "thermometers" / "generated" / "g14_15x15_hard.txt")
    result = solve(puzzle, solver=cpsat, logic="none",
                   engine_options={"max_time_in_seconds": 0.001, "cp_model_presolve": False})
    assert result.status == "timeout", (result.status, result.error)
    if result.grid is not None:
        assert solution_problems(puzzle, result.grid) == []


def test_engine_options_are_sat_parameters_by_name_and_type(cpsat):
    puzzle = load(INSTANCES / "thermometers" / "t05_8x8.txt")
    options = {"linearization_level": 2, "symmetry_level": 1,
               "cp_model_presolve": False, "max_time_in_seconds": 20.0}
    assert solve(puzzle, solver=cpsat, logic="none", engine_options=options).status == "unique"
    with pytest.raises(ConfigError, match="option mip_rel_gap is not one thermomilp lets "
                                          "CP-SAT take; allowed: cp_model_presolve"):
        solve(puzzle, solver=cpsat, engine_options={"mip_rel_gap": 0})
    for name, value in (("num_workers", "abc"), ("cp_model_presolve", 7),
                        ("linearization_level", 1.5), ("linearization_level", 3)):
        with pytest.raises(ConfigError, match=f"option {name} = .* is refused for CP-SAT"):
            solve(puzzle, solver=cpsat, engine_options={name: value})
    # an option may come from a config file in a folder: none that writes a file (a proof),
    # prints on our output or ends the process (tests/solvers/test_engine_option_files.py)
    for name in ("output_drat_proof", "output_lrat_proof", "debug_crash_on_bad_hint",
                 "log_to_stdout", "search_branching", "restart_algorithms"):
        with pytest.raises(ConfigError, match=f"option {name} is not one thermomilp lets"):
            solve(puzzle, solver=cpsat, engine_options={name: True})


def test_compact_and_level_models_give_the_same_answers(cpsat):
    for path in sorted((INSTANCES / "aquarium").glob("*.txt"))[:4]:
        puzzle = load(path)
        for formulation in ("compact", "level"):
            result = solve(puzzle, solver=cpsat, logic="none", formulation=formulation)
            assert (result.status, result.grid) == ("unique", puzzle.solution), (path,
                                                                                  formulation)


def test_an_lp_file_of_the_cpsat_layer_is_a_clear_error():
    from thermomilp.core.errors import ExportError
    from thermomilp.teach.export import export

    puzzle = load(INSTANCES / "thermometers" / "t01_4x4.txt")
    with pytest.raises(ExportError, match="the cpsat model is not a MILP file"):
        export(puzzle, "lp", "cpsat")


def test_build_model_gives_the_cp_model_with_the_named_rows(cpsat):
    puzzle = load(INSTANCES / "thermometers" / "t03_6x6.txt")
    built = thermomilp.build_model(puzzle, backend="cpsat")
    highs = thermomilp.build_model(puzzle, backend="highs")
    names = [row.name for row in built.model.proto.constraints]
    assert len(names) == highs.model.getNumRow() and len(built.variables) == 36
    assert names[0] == "row_0" and any(name.startswith("prec_") for name in names)
    assert built.x[0, 0] is built.variables[0]


# -- the command line -----------------------------------------------------------------


def run_cli(*args: str, code: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "thermomilp",
                                                             *args]
    return subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


def test_cli_solver_cpsat_and_the_config_files_solver_key(cpsat, tmp_path):
    board = str(INSTANCES / "thermometers" / "t05_8x8.txt")
    done = run_cli("solve", board, "--solver", "cpsat", "--logic", "none", "--format", "json")
    record = json.loads(done.stdout)
    assert done.returncode == 0, done.stderr
    assert (record["status"], record["backend"], record["solver"]) == ("unique", "cpsat", "cpsat")
    text = run_cli("solve", board, "--solver", "cpsat", "--logic", "none")
    assert "status: unique (proven by milp)   [cpsat/cpsat" in text.stdout
    (tmp_path / "thermomilp.toml").write_text('solver = "cpsat"\n')
    done = subprocess.run([sys.executable, "-m", "thermomilp", "solve", board, "--logic", "none",
                           "--format", "json"], capture_output=True, text=True, cwd=tmp_path,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)
    assert json.loads(done.stdout)["solver"] == "cpsat", done.stderr


def test_cli_verbose_log_goes_to_stderr_and_json_stays_clean(cpsat):
    board = str(INSTANCES / "thermometers" / "t05_8x8.txt")
    done = run_cli("solve", board, "--solver", "cpsat", "--logic", "none", "--verbose",
                   "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "unique"  # one JSON line, nothing else
    assert "Starting CP-SAT solver" in done.stderr


def test_cli_refusals_are_one_line_and_exit_2(cpsat):
    board = str(INSTANCES / "thermometers" / "t05_8x8.txt")
    for args, words in ((["--backend", "pulp"], "backend pulp cannot drive solver cpsat"),
                        (["--engine-option", "nosuch=1"], "option nosuch is not one "
                                                          "thermomilp lets CP-SAT take")):
        done = run_cli("solve", board, "--solver", "cpsat", *args)
        assert done.returncode == 2 and done.stdout == ""
        assert words in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_solvers_lists_cpsat(cpsat):
    data = json.loads(run_cli("solvers", "--format", "json").stdout)
    pair = next(p for p in data["pairs"] if (p["backend"], p["solver"]) == ("cpsat", "cpsat"))
    assert pair["available"] and pair["version"].startswith("OR-Tools ")
    assert data["rule"]["cpsat"] == "cpsat"


# -- without OR-Tools -------------------------------------------------------------------

WITHOUT_ORTOOLS = """
import sys
sys.modules["ortools"] = None  # import ortools... raises ImportError, as on a bare install
from thermomilp.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_without_ortools_the_cli_says_how_to_install_it():
    board = str(INSTANCES / "thermometers" / "t01_4x4.txt")
    done = run_cli("solve", board, "--solver", "cpsat", code=WITHOUT_ORTOOLS)
    assert done.returncode == 2 and done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "solver pair cpsat/cpsat is not available (ortools is not installed)" in done.stderr
    assert pip_install("cpsat") in done.stderr
    listed = run_cli("solvers", "--format", "json", code=WITHOUT_ORTOOLS)
    assert listed.returncode == 0, listed.stderr
    pair = next(p for p in json.loads(listed.stdout)["pairs"] if p["solver"] == "cpsat")
    assert not pair["available"] and pair["install"] == pip_install("cpsat")
    assert pair["detail"] == "ortools is not installed"
    text = run_cli("solvers", code=WITHOUT_ORTOOLS).stdout
    assert any(line.split()[:3] == ["cpsat", "cpsat", "no"] for line in text.splitlines())


def test_without_ortools_the_api_raises_solver_unavailable(monkeypatch):
    for name in ["ortools", *(m for m in sys.modules if m.startswith("ortools."))]:
        monkeypatch.setitem(sys.modules, name, None)  # every import of it fails
    matrix.probe_engine.cache_clear()
    try:
        puzzle = load(INSTANCES / "thermometers" / "t01_4x4.txt")
        with pytest.raises(SolverUnavailable, match=re.escape(pip_install("cpsat"))):
            solve(puzzle, solver="cpsat")
        with pytest.raises(SolverUnavailable, match=re.escape(pip_install("cpsat"))):
            thermomilp.build_model(puzzle, backend="cpsat")
    finally:
        monkeypatch.undo()
        matrix.probe_engine.cache_clear()
