"""Engine options by allowlist (issue 34): no option, from any source, can write a file,
print among the records, crash or hang an engine, or change an answer.

An option may come from a config file found in a parent folder (untrusted). Each
engine's record (``thermomilp.core.engines.ENGINES``) lists the options a user may
set, with types and ranges; everything else is refused when the settings are made,
without asking the engine's program. The attacks here each worked on the code
before the allowlist (the denylist let them through): CBC's ``basisOut`` overwrote a
file, HiGHS's ``objective_bound`` / ``mip_feasibility_tolerance``, CBC's ``cutoff``,
GLPK's ``objbnd`` and SCIP's ``numerics/hugeval`` made a board with solutions
"infeasible", SCIP's ``constraints/countsols/active`` crashed every solve and CP-SAT's
``use_probing_search`` never returned.

The fuzz at the end runs every allowed option at the edges and inside its range on
every installed engine, on a unique board, an infeasible one and a pool-rule board
with three solutions: the answer is the brute-force counter's, nothing is printed on
standard output and no file appears.
"""

from __future__ import annotations

import json
import os

import pytest

from thermomilp.cli.main import main
from thermomilp.core.engines import ENGINES
from thermomilp.core.errors import ConfigError
from thermomilp.core.puzzle import aquarium
from thermomilp.core.settings import BACKEND_FOR, Settings, Solver
from thermomilp.formats import load
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.solving import solve

from helpers import INSTANCES, use_pair

BOARD = INSTANCES / "thermometers" / "t03_6x6.txt"
UNIQUE = INSTANCES / "thermometers" / "t01_4x4.txt"
NONE = INSTANCES / "thermometers" / "t08_4x4_no_solution.txt"


def three_solution_pool_board():
    """A 2x3 pool-rule Aquarium board with three solutions (the attack's board)."""
    return aquarium([None, None], [None, 1, None], [["b", "b", "b"], ["a", "a", "b"]],
                    rule="pool")


REFUSED = {
    Solver.HIGHS: ["solution_file", "write_solution_to_file", "log_file", "write_model_file",
                   "read_solution_file", "log_to_console", "output_flag", "objective_bound",
                   "small_matrix_value", "mip_feasibility_tolerance", "mip_max_nodes",
                   "primal_feasibility_tolerance", "objective_target"],
    Solver.CPSAT: ["log_to_stdout", "log_prefix", "log_search_progress", "output_drat_proof",
                   "debug_crash_on_bad_hint", "use_probing_search", "max_number_of_conflicts",
                   "enumerate_all_solutions", "search_branching"],
    Solver.SCIP: ["visual/vbcfilename", "display/verblevel", "write/allconss",
                  "concurrent/paramsetprefix", "constraints/countsols/active",
                  "numerics/hugeval", "numerics/feastol", "limits/nodes",
                  "limits/objectivestop"],
    Solver.CBC: ["export", "basisOut", "basisIn", "priorityIn", "parametrics",
                 "nextBestSolution", "cutoff", "increment", "solution", "directory", "maxNodes",
                 "import", "stdin", "quit"],
    Solver.GLPK: ["o", "output", "log", "wlp", "wmps", "w", "display", "minisat", "objbnd",
                  "check", "data", "model", "exact"],
}


@pytest.mark.parametrize("solver,name", [(s, n) for s, names in REFUSED.items() for n in names])
def test_an_option_off_the_allowlist_is_refused_with_the_allowed_ones(solver, name):
    with pytest.raises(ConfigError) as refused:
        Settings(solver=solver, engine_options={name: 1})
    message = str(refused.value)
    assert f"option {name} is not one thermomilp lets {ENGINES[solver].label} take" in message
    assert all(allowed in message for allowed in ENGINES[solver].allowed_names())


def test_the_check_never_runs_the_engine(monkeypatch):
    import subprocess

    def no_program(*args, **kwargs):
        raise AssertionError("an engine's program was run to check an option")

    monkeypatch.setattr(subprocess, "run", no_program)
    monkeypatch.setattr(subprocess, "Popen", no_program)
    for solver in (Solver.CBC, Solver.GLPK):
        with pytest.raises(ConfigError):
            Settings(solver=solver, engine_options={"basisOut": "x"})
        Settings(solver=solver, engine_options={"cuts": "on"})


@pytest.mark.parametrize("solver,name,value,accepted", [
    (Solver.GLPK, "cuts", "maybe", "on or off (true/false, yes/no, 1/0)"),
    (Solver.HIGHS, "mip_rel_gap", "lots", "a number from 0 to"),
    (Solver.HIGHS, "mip_heuristic_effort", 2, "a number from 0 to 1"),
    (Solver.HIGHS, "presolve", "maybe", "one of off, choose, on"),
    (Solver.CPSAT, "linearization_level", 1.5, "a whole number from 0 to 2"),
    (Solver.CBC, "cuts", "sometimes", "one of off, on, root, ifmove, forceOn"),
    (Solver.SCIP, "presolving/maxrounds", -2, "a whole number from -1 to 1000"),
    (Solver.HIGHS, "time_limit", 0, "above 0"),
])
def test_a_value_outside_its_type_names_the_accepted_forms(solver, name, value, accepted):
    with pytest.raises(ConfigError, match="is refused for") as refused:
        Settings(solver=solver, engine_options={name: value})
    assert accepted in str(refused.value)


def test_values_take_the_engines_own_syntax():
    assert Settings(solver="glpk", engine_options={"cuts": "on"}).engine_options == (
        ("cuts", True),)  # a glpsol switch: --cuts
    assert Settings(solver="glpk", engine_options={"cuts": "off"}).engine_options == ()
    assert Settings(solver="cbc", engine_options={"heuristics": True}).engine_options == (
        ("heuristics", "on"),)  # CBC says on/off
    assert Settings(engine_options={"presolve": "OFF"}).engine_options == (("presolve", "off"),)


@pytest.mark.parametrize("solver", list(Solver))
def test_the_native_time_limit_is_the_time_limit_and_the_smaller_wins(solver):
    native = ENGINES[solver].time_options[0]
    settings = Settings(solver=solver, time_limit=30, engine_options={native: 5})
    assert settings.time_limit == 5 and settings.engine_options == ()  # passed once
    assert "engine_options" in settings.origins["time_limit"]
    assert Settings(solver=solver, time_limit=2, engine_options={native: 5}).time_limit == 2


def test_a_native_thread_count_or_seed_given_twice_is_refused():
    assert Settings(engine_options={"threads": 2}).threads == 2
    assert Settings(engine_options={"random_seed": 7}).seed == 7
    with pytest.raises(ConfigError, match="threads is given twice"):
        Settings(threads=3, engine_options={"threads": 2})
    with pytest.raises(ConfigError, match="seed is given twice"):
        Settings(solver="cbc", seed=1, engine_options={"randomCbcSeed": 2})


# -- the attacks, end to end, from a config file in a parent folder -------------------


def _solve_below(tmp_path, monkeypatch, capsys, config: str, *files,
                 name: str = "thermomilp.toml") -> tuple[int, str, str]:
    (tmp_path / name).write_text(config, encoding="utf-8")
    below = tmp_path / "project" / "sub"
    below.mkdir(parents=True)
    monkeypatch.chdir(below)
    code = main(["solve", "--logic", "none", "--format", "json", *map(str, files or [BOARD])])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_parent_folders_config_cannot_make_cbc_overwrite_a_file(tmp_path, monkeypatch,
                                                                  capsys):
    use_pair("pulp", "cbc")
    victim = tmp_path / "thesis.tex"
    victim.write_text("precious\n")
    code, out, err = _solve_below(tmp_path, monkeypatch, capsys,
                                  'solver = "cbc"\nlogic = "none"\n[engine_options]\n'
                                  f'basisOut = "{victim}"\n')
    assert code == 2 and out == "" and victim.read_text() == "precious\n"
    assert f"engine_options from {tmp_path / 'thermomilp.toml'}" in err
    assert "allowed: " in err and "Traceback" not in err


@pytest.mark.parametrize("solver,option", [
    ("highs", "objective_bound = -1"), ("highs", "small_matrix_value = 2"),
    ("highs", "mip_feasibility_tolerance = 2"), ("cbc", "cutoff = -1"),
    ("glpk", "minisat = true\nobjbnd = -1"), ("scip", '"numerics/hugeval" = 0'),
    ("scip", '"constraints/countsols/active" = true'), ("cpsat", "use_probing_search = true"),
])
def test_a_parent_pyproject_cannot_make_a_board_with_solutions_infeasible(
        solver, option, tmp_path, monkeypatch, capsys):
    use_pair(str(BACKEND_FOR[Solver(solver)]), solver)
    board = tmp_path / "pool.json"
    from thermomilp.formats import dumps
    board.write_text(dumps(three_solution_pool_board(), "json"))
    code, out, err = _solve_below(
        tmp_path, monkeypatch, capsys,
        f'[tool.thermomilp]\nsolver = "{solver}"\n[tool.thermomilp.engine_options]\n{option}\n',
        board, name="pyproject.toml")
    assert code == 2 and out == "" and "is not one thermomilp lets" in err


# -- the confirmation never runs with the user's options ------------------------------


def _lying(monkeypatch):
    """Every engine run says "infeasible"; the options each run had are recorded."""
    from thermomilp.backends.base import Outcome, Session
    from thermomilp.core.status import Status

    said = []

    def lie(self):
        said.append(self.settings.engine_options)
        return Outcome(Status.INFEASIBLE)

    monkeypatch.setattr(Session, "solve", lie)
    monkeypatch.setattr(Session, "second_opinion", lie)
    return said


@pytest.mark.parametrize("logic", ["none", "probing"])
def test_a_pool_board_with_three_solutions_is_multiple_when_the_engine_lies(logic,
                                                                           monkeypatch):
    board = three_solution_pool_board()
    assert len(list(brute_force_solutions(board))) == 3
    _lying(monkeypatch)
    result = solve(board, logic=logic)
    assert result.status == "multiple", (result.status, result.error)
    # and the count, every grid of it found by the independent tree search
    from thermomilp.solving import count_solutions
    assert count_solutions(board, logic="none") == 3


def test_a_unique_board_is_never_infeasible_when_the_engine_lies(monkeypatch):
    board = load(UNIQUE)
    _lying(monkeypatch)
    result = solve(board, logic="none", engine_options={"mip_rel_gap": 0.5})
    assert result.status == "unique" and result.grid == board.solution


def test_the_engines_second_opinion_runs_without_the_users_options(monkeypatch):
    from thermomilp.solving import confirm as confirm_module
    from thermomilp.solving.confirm import UNDECIDED

    said = _lying(monkeypatch)
    monkeypatch.setattr(confirm_module, "confirm_infeasible", lambda *a, **k: UNDECIDED)
    from thermomilp.solving.engine import Engine

    engine = Engine(load(UNIQUE), Settings(logic="none", engine_options={"mip_rel_gap": 0.5}))
    answer = engine.next_solution()
    engine.close()
    assert answer.status == "infeasible" and answer.confirmed_by == "engine"  # all lie here
    # the user's run, then a new session without the options: its solve, its second opinion
    assert said == [(("mip_rel_gap", 0.5),), (), ()]


# -- the fuzz: every allowed option and value on every installed engine ----------------


def _cases():
    for solver, record in ENGINES.items():
        for name, option in sorted(record.options.items()):
            for value in option.samples():
                yield pytest.param(solver, name, value, id=f"{solver}-{name}={value}")


@pytest.fixture(scope="module")
def references():
    boards = {"unique": load(UNIQUE), "none": load(NONE), "pool": three_solution_pool_board()}
    return {key: (board, len(list(brute_force_solutions(board))))
            for key, board in boards.items()}


@pytest.mark.parametrize("solver,name,value", list(_cases()))
def test_no_allowed_option_changes_an_answer_prints_or_writes(solver, name, value, references,
                                                              tmp_path, monkeypatch, capfd):
    use_pair(str(BACKEND_FOR[solver]), str(solver))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    want = {0: "infeasible", 1: "unique"}
    for key, (board, count) in references.items():
        result = solve(board, solver=solver, logic="none", time_limit=60,
                       engine_options={name: value})
        assert result.status == want.get(count, "multiple"), (key, result.status, result.error)
    assert capfd.readouterr().out == ""
    assert sorted(os.listdir(tmp_path)) == []


def test_the_fuzz_covers_every_allowed_option():
    covered = {(str(p.values[0]), p.values[1]) for p in _cases()}
    assert covered == {(str(s), n) for s, r in ENGINES.items() for n in r.options}


def test_records_print_nothing_but_json(tmp_path, monkeypatch, capsys):
    """The JSON Lines output stays one record per board under allowed options."""
    monkeypatch.chdir(tmp_path)
    code = main(["solve", "--logic", "none", "--format", "json", "--engine-option",
                 "mip_heuristic_effort=1", "--engine-option", "parallel=on", str(BOARD)])
    out = capsys.readouterr().out
    assert code == 0 and [json.loads(line)["status"] for line in out.splitlines()] == ["unique"]
