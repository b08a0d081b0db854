"""The solve layer's facade (thermomilp.solving.engine): settings, guards, cuts, deadlines."""

from __future__ import annotations

import json
import random
import time

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from thermomilp import load, solve
from thermomilp.backends.base import Raw, Session
from thermomilp.cli.main import main
from thermomilp.core.deadline import Deadline
from thermomilp.core.errors import ConfigError
from thermomilp.core.puzzle import ones_of, thermometers
from thermomilp.core.settings import Backend, FormulationKind, Logic, Settings, Solver
from thermomilp.core.status import Status
from thermomilp.core.verify import solution_problems
from thermomilp.logic.brute import brute_force_count, brute_force_solutions
from thermomilp.model.formulation import formulate
from thermomilp.solving.confirm import CONFIRMED, UNDECIDED, confirm_infeasible
from thermomilp.solving.engine import Engine

from helpers import INSTANCES, use_pair

T01 = INSTANCES / "thermometers" / "t01_4x4.txt"
TWO = INSTANCES / "thermometers" / "t07_5x5_two_solutions.txt"
NONE = INSTANCES / "thermometers" / "t08_4x4_no_solution.txt"
EMPTY = {"puzzle": "thermometers", "rows": [None], "cols": [None], "thermometers": [[[0, 0]]]}


# -- settings ---------------------------------------------------------------


def test_settings_turn_strings_into_enums_once():
    s = Settings(backend="PuLP", solver="cbc", logic="none", formulation="level",
                 time_limit="2.5", threads=2, seed=7)
    assert (s.backend, s.solver, s.logic, s.formulation) == (
        Backend.PULP, Solver.CBC, Logic.NONE, FormulationKind.LEVEL)
    assert s.time_limit == 2.5 and s.values["backend"] == "pulp"
    with pytest.raises(ValueError):
        Solver("gurobi")  # the list is closed: no name passes through to a layer


@pytest.mark.parametrize("field, value", [
    ("backend", "cplex"), ("formulation", "tiles"), ("logic", "max"),
    ("threads", 100000), ("threads", 0), ("threads", float("inf")), ("seed", 10**400),
    ("seed", float("inf")), ("time_limit", True), ("time_limit", -1), ("time_limit", "nan"),
    ("solver", "rm -rf"),
])
def test_bad_settings_are_config_errors(field, value):
    with pytest.raises(ConfigError):
        Settings(**{field: value})


def test_settings_pickle_unchanged():
    import pickle

    s = Settings(backend="pyomo", solver="glpk", time_limit=3, engine_options={"tmlim": 2})
    assert pickle.loads(pickle.dumps(s)) == s


@pytest.mark.parametrize("line", ["seed = 1e400", "threads = 1e400", "time_limit = true",
                                  "threads = 100000", 'formulation = "x"'])
def test_bad_config_file_values_exit_2(tmp_path, monkeypatch, capsys, line):
    (tmp_path / "thermomilp.toml").write_text(line + "\n")
    monkeypatch.chdir(tmp_path)
    assert main(["solve", str(T01)]) == 2
    err = capsys.readouterr().err
    assert "thermomilp.toml" in err and "Traceback" not in err


def test_threads_flag_has_an_upper_bound(capsys):
    assert main(["solve", str(T01), "--threads", "100000"]) == 2
    assert "threads" in capsys.readouterr().err


class _Recorder(Session):
    """Records the time limit each engine run is given; answers with a real solution.
    Only the engine run is faked: the skeleton (time limit, verdict rules) is the real one."""

    backend = Backend.HIGHS

    def __init__(self, form, settings, deadline, grid):
        self.ones = ones_of(grid)
        self.limits = []
        self.extras = []
        self.cut = False
        super().__init__(form, settings, deadline)

    def _has_rows(self):
        return True

    def _add_row(self, cols, coefs, lower, name):
        self.cut = True

    def _point(self):
        on = self.form.vars_of(self.ones)
        return Raw(Status.FEASIBLE, [1.0 if k in on else 0.0 for k in range(self.form.n_vars)],
                   "Optimal")

    def _run(self, time_limit, extra):
        self.limits.append(time_limit)
        self.extras.append(extra)
        return Raw(Status.INFEASIBLE, said="Infeasible") if self.cut else self._point()


def _faking(monkeypatch, cls, grid):
    from thermomilp.solving import engine as engine_module

    made = []

    def fake(puzzle, settings, fixed=None, deadline=None):
        made.append(cls(formulate(puzzle), settings, deadline, grid))
        return made[-1]

    monkeypatch.setattr(engine_module, "open_session", fake)
    return made


def test_solver_options_time_limit_is_honoured(monkeypatch):
    # Settings(time_limit=5) used to be ignored: the engine ran with no limit
    p = load(T01)
    made = _faking(monkeypatch, _Recorder, p.solution)
    r = solve(p, settings=Settings(time_limit=5, threads=2, logic="none"))
    assert r.status == "unique"
    assert made[0].settings.threads == 2 and made[0].options["threads"] == 2
    assert made[0].limits and all(0 < t <= 5 for t in made[0].limits)


def test_the_session_reads_its_time_limit_from_the_boards_deadline(monkeypatch):
    from thermomilp.core.deadline import Deadline

    p = load(T01)
    session = _Recorder(formulate(p), Settings(time_limit=1000), Deadline(2.0), p.solution)
    assert session.solve().status is Status.FEASIBLE
    assert 0 < session.limits[0] <= 2.0  # the deadline's, not the settings' 1000 s


# -- the guards -------------------------------------------------------------


class _Liar(_Recorder):
    """Calls every model infeasible; its second opinion (run with presolve off) finds
    the true solution."""

    def _run(self, time_limit, extra):
        self.extras.append(extra)
        return self._point() if extra.get("presolve") == "off" else Raw(Status.INFEASIBLE)

    @property
    def second(self):
        return sum(1 for extra in self.extras if extra)


def test_a_false_infeasible_is_caught_by_the_logic_without_asking_again(monkeypatch):
    p = load(T01)
    made = _faking(monkeypatch, _Liar, p.solution)
    answer = Engine(p, Settings()).next_solution()
    assert answer.status == "feasible" and answer.grid == p.solution
    assert made[0].second == 0  # the logic search found the solution the engine missed


def test_when_the_logic_budget_runs_out_the_engine_is_asked_again(monkeypatch):
    from thermomilp.solving import confirm as confirm_module

    p = load(T01)
    made = _faking(monkeypatch, _Liar, p.solution)
    monkeypatch.setattr(confirm_module, "confirm_infeasible", lambda *a, **k: UNDECIDED)
    answer = Engine(p, Settings()).next_solution()
    assert answer.status == "feasible" and answer.grid == p.solution
    assert made[0].second == 1
    assert made[0].extras[-1] == {"presolve": "off", "random_seed": 1}


def test_an_engine_that_gets_no_second_opinion_keeps_its_verdict(monkeypatch):
    from thermomilp.solving import confirm as confirm_module

    p = load(T01)
    made = _faking(monkeypatch, _Liar, p.solution)
    monkeypatch.setattr(confirm_module, "confirm_infeasible", lambda *a, **k: UNDECIDED)
    answer = Engine(p, Settings(backend="pulp", solver="cbc")).next_solution()
    assert answer.status == "infeasible" and answer.confirmed_by == "engine"
    assert made[0].second == 0


def test_the_logic_confirmation_gets_the_board_deadline_and_a_work_budget(monkeypatch):
    from thermomilp.solving import confirm as confirm_module

    asked = []
    real = confirm_module.confirm_infeasible

    def spy(puzzle, fixed, cuts, deadline, *args, **kwargs):
        asked.append(deadline)
        return real(puzzle, fixed, cuts, deadline, *args, **kwargs)

    monkeypatch.setattr(confirm_module, "confirm_infeasible", spy)
    engine = Engine(load(NONE), Settings(backend="highs", logic="none"))
    answer = engine.next_solution()
    assert answer.status == "infeasible" and answer.confirmed_by == "logic"
    assert asked == [engine.deadline]  # the board's clock: it only ends the logic at the time limit


def test_an_engine_error_is_retried_once(monkeypatch):
    p = load(T01)

    class Flaky(_Recorder):
        def _run(self, time_limit, extra):
            if not self.limits:
                self.limits.append(time_limit)
                raise RuntimeError("hiccup")
            return super()._run(time_limit, extra)

    _faking(monkeypatch, Flaky, p.solution)
    r = solve(p)
    assert r.status == "unique" and r.grid == p.solution


def test_a_solve_error_is_retried_with_presolve_off_by_the_skeleton():
    p = load(T01)

    class SolveError(_Recorder):
        def _run(self, time_limit, extra):
            self.extras.append(extra)
            if extra.get("presolve") != "off":
                return Raw(Status.ERROR, said="Solve error", engine_error=True)
            return self._point()

    session = SolveError(formulate(p), Settings(), None, p.solution)
    assert session.solve().status is Status.FEASIBLE
    assert session.extras == [{}, {"presolve": "off"}]


def test_infeasible_at_the_time_limit_is_a_timeout(monkeypatch):
    import time as time_module

    from thermomilp.core.deadline import Deadline

    p = load(T01)

    class Slow(_Recorder):
        def _run(self, time_limit, extra):
            time_module.sleep(time_limit)
            return Raw(Status.INFEASIBLE, said="Infeasible")

    session = Slow(formulate(p), Settings(), Deadline(0.2), p.solution)
    outcome = session.solve()
    assert outcome.status is Status.TIMEOUT and "time limit" in outcome.message


def test_a_grid_already_cut_off_is_an_error(monkeypatch):
    p = load(TWO)
    grid = next(brute_force_solutions(p, 1))

    class Stuck(_Recorder):  # returns the same solution after its cut
        def _run(self, time_limit, extra):
            return self._point()

    _faking(monkeypatch, Stuck, grid)
    engine = Engine(p, Settings())
    first = engine.next_solution()
    engine.exclude(first.grid)
    again = engine.next_solution()
    assert again.status == "error" and "excluded" in again.message


@pytest.mark.parametrize("path", [T01, TWO, NONE])
def test_the_logic_confirmation_agrees_with_brute_force(path):
    p = load(path)
    found = list(brute_force_solutions(p))
    cuts = [(frozenset((r, c) for r, row in enumerate(g) for c, ch in enumerate(row)
                       if ch == "#"), None) for g in found]
    assert confirm_infeasible(p, None, cuts, None) == CONFIRMED
    if found:  # all but one cut: the search hands back exactly the missing solution
        assert confirm_infeasible(p, None, cuts[1:], None) == found[0]


# -- cuts, formulations, registry -------------------------------------------


@pytest.mark.parametrize("backend", ["highs", "pulp", "pyomo"])
@pytest.mark.parametrize("formulation", ["cell", "compact", "level"])
def test_every_formulation_counts_like_brute_force(backend, formulation):
    for path in (T01, TWO, NONE, INSTANCES / "aquarium" / "a01_6x6.txt"):
        p = load(path)
        s = Settings(backend=backend, formulation=formulation, logic="none")
        assert sum(1 for _ in Engine(p, s).solutions(5)) == brute_force_count(p, 5)


@pytest.mark.parametrize("formulation", ["cell", "compact"])
def test_a_cut_over_a_subset_removes_every_solution_agreeing_there(formulation):
    p = load(TWO)
    first, second = list(brute_force_solutions(p))
    differ = frozenset((r, c) for r in range(p.height) for c in range(p.width)
                       if first[r][c] != second[r][c])
    engine = Engine(p, Settings(formulation=formulation))
    engine.exclude(first, over=differ)
    answer = engine.next_solution()
    assert answer.status == "feasible" and answer.grid == second
    same = frozenset((r, c) for r in range(p.height) for c in range(p.width)) - differ
    engine = Engine(p, Settings(formulation=formulation))
    engine.exclude(first, over=same)  # both solutions agree on these cells
    assert engine.next_solution().status == "infeasible"


def test_highs_proof_solves_run_without_sub_mip_heuristics():
    from thermomilp.backends.highs_backend import PROOF_OPTIONS

    p = load(INSTANCES / "thermometers" / "generated" / "g12_15x15_medium.txt")
    engine = Engine(p, Settings(backend="highs", logic="none"))
    h = engine.session.built.model

    def option(name):  # highspy 1.16 answers (status, value), older ones the value
        got = h.getOptionValue(name)
        return got[1] if isinstance(got, tuple) else got

    first = engine.next_solution()
    assert first.status == "feasible" and first.grid is not None
    assert all(option(name) != value for name, value in PROOF_OPTIONS.items())
    engine.exclude(first.grid)
    assert all(option(name) == value for name, value in PROOF_OPTIONS.items())
    assert engine.next_solution().status == "infeasible"  # the board is unique


@pytest.mark.parametrize("pair", [("highs", "highs"), ("pyomo", "highs"), ("pulp", "glpk"),
                                  ("pulp", "highs"), ("pyomo", "glpk")])
def test_a_board_without_any_rule_has_two_solutions(pair, tmp_path, capsys):
    use_pair(*pair)
    board = tmp_path / "empty.json"
    board.write_text(json.dumps(EMPTY))
    assert main(["solve", str(board), "--backend", pair[0], "--solver", pair[1],
                 "--logic", "none", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "multiple"


@given(st.integers(0, 10**6))
@hyp_settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_solve_agrees_with_brute_force_on_random_boards(seed):
    from thermomilp.generate.random_board import planted_board

    rng = random.Random(seed)
    p = planted_board(rng.randint(3, 6), rng.randint(3, 6), rng)
    if rng.random() < 0.5:  # hide clues: more solutions
        p = p.with_clues([c if rng.random() < 0.6 else None for c in p.rows],
                         [c if rng.random() < 0.6 else None for c in p.cols])
    count = brute_force_count(p, 2)
    r = solve(p, formulation=rng.choice(["cell", "compact", "level"]))
    assert r.status == {0: "infeasible", 1: "unique", 2: "multiple"}[count]
    if r.grid is not None:
        assert solution_problems(p, r.grid) == []


# -- saying what ran ----------------------------------------------------------


def test_a_board_decided_by_logic_says_no_engine_ran(capsys):
    use_pair("pyomo", "scip")  # the pair is checked before the logic runs
    assert main(["solve", str(T01), "--backend", "pyomo", "--solver", "scip"]) == 0
    out = capsys.readouterr().out
    assert "solution determined by the logic; pyomo/scip not called" in out
    assert "[pyomo/scip," not in out
    assert main(["solve", str(T01), "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["engine_called"] is False and record["proof"] == "logic"
    assert main(["solve", str(T01), "--format", "json", "--logic", "none"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["engine_called"] is True and record["proof"] == "milp"
    assert record["confirmed_by"] in ("logic", "engine")


# -- one deadline per board -------------------------------------------------


def _infeasible_board(n: int, seed: int = 1):
    from thermomilp.generate.random_board import planted_board

    p = planted_board(n, n, random.Random(seed))
    rows = list(p.rows)
    rows[0], rows[1] = rows[0] + 1 if rows[0] < n else rows[0] - 1, rows[1]
    return p.with_clues(rows, p.cols)  # the clue sums no longer match: no solution


class _BudgetClock(Deadline):
    """The board's clock, made a work budget: "time is up" from its ``after``-th question
    on, whatever the machine's speed; it counts the questions answered so."""

    after = 10**9
    made: list[_BudgetClock] = []

    def __init__(self, seconds: float | None = None):
        super().__init__(seconds)
        self.asked = self.late = 0
        _BudgetClock.made.append(self)

    def expired(self) -> bool:
        self.asked += 1
        done = self.asked >= self.after or super().expired()
        self.late += done
        return done


def test_the_conflict_search_obeys_the_board_deadline(tmp_path, capsys, monkeypatch):
    """Unlimited, the conflict search on this board makes hundreds of engine calls
    (about 12 s); it asks the board's clock before each and stops at its first "time is
    up" -- counted, not timed, so a loaded machine cannot fail it."""
    from thermomilp.formats import dumps
    from thermomilp.solving import pipeline

    board = tmp_path / "bad.txt"
    board.write_text(dumps(_infeasible_board(30)))
    start = time.perf_counter()
    code = main(["solve", str(board), "--logic", "none", "--time-limit", "1",
                 "--format", "json"])
    took = time.perf_counter() - start
    record = json.loads(capsys.readouterr().out)
    assert code == 1 and record["status"] in ("infeasible", "timeout")
    assert record["time_s"] <= took  # time_s covers the solve and the explanation

    monkeypatch.setattr(_BudgetClock, "made", [])
    monkeypatch.setattr(_BudgetClock, "after", 3)
    monkeypatch.setattr(pipeline, "Deadline", _BudgetClock)
    code = main(["solve", str(board), "--logic", "none", "--format", "json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 1 and record["status"] in ("infeasible", "timeout")
    (clock,) = _BudgetClock.made
    assert clock.asked == 3 and clock.late == 1  # stopped at the first "time is up"


def test_deadline_stops_probing():
    from thermomilp.core.deadline import TimeUp
    from thermomilp.logic.presolve import presolve_cells

    p = load(INSTANCES / "thermometers" / "t06_10x10.txt")
    with pytest.raises(TimeUp):
        presolve_cells(p, "probing", stop=lambda: True)
    assert Deadline(None).remaining() is None and not Deadline(None).expired()


def test_check_reports_timeout_not_error(tmp_path, capsys):
    from thermomilp.formats import dumps
    from thermomilp.generate.random_board import planted_board

    p = planted_board(60, 60, random.Random(2))
    p = p.with_clues([None] * 60, p.cols)  # many solutions: counting to 10 takes a while
    board = tmp_path / "big.txt"
    board.write_text(dumps(p))
    main(["check", str(board), "--time-limit", "0.05", "--format", "json"])
    record = json.loads(capsys.readouterr().out)
    assert record["status"] in ("timeout", "multiple")
    if record["status"] == "timeout":
        assert record["solutions"] is None and record["grade"] is None


def test_a_tiny_board_with_a_thermometer_but_no_clue():
    p = thermometers([None, None], [None], [[[0, 0], [1, 0]]])
    use_pair("pulp", "glpk")
    assert solve(p, backend="pulp", solver="glpk").status == "multiple"


def test_the_engine_opens_no_session_for_a_board_the_logic_decides(monkeypatch):
    """One Engine carries the whole solve: the logic first, the session only at the first
    question for an engine -- and the logic cannot run after it, whose fixed cells the
    open session would not have."""
    from thermomilp.solving import engine as engine_module

    opened = []
    real = engine_module.open_session
    monkeypatch.setattr(engine_module, "open_session",
                        lambda *args, **kwargs: opened.append(1) or real(*args, **kwargs))
    engine = Engine(load(T01), Settings())
    assert engine.presolve().status == "solved" and len(engine.logic_solutions()) == 1
    assert opened == []
    engine.exclude(engine.logic_solutions()[0])  # a question for the engine: it opens
    assert opened == [1]
    with pytest.raises(RuntimeError, match="before the first question"):
        engine.presolve()
    assert engine.next_solution().status == Status.INFEASIBLE
    engine.close()


def test_an_engine_left_by_an_exception_closes_its_session(monkeypatch):
    """`with Engine(...)` releases the engine however the block ends (the solve layer,
    the enumeration and the page's one-solution query all hold it so)."""
    from thermomilp.solving import engine as engine_module

    closed = []
    real = engine_module.open_session

    def opened(*args, **kwargs):
        session = real(*args, **kwargs)
        monkeypatch.setattr(session, "close", lambda: closed.append(session))
        return session

    monkeypatch.setattr(engine_module, "open_session", opened)
    with pytest.raises(KeyError), Engine(load(T01), Settings(logic="none")) as engine:
        assert engine.next_solution().status == Status.FEASIBLE
        raise KeyError("the caller's own error")
    assert len(closed) == 1
    with Engine(load(T01), Settings()) as engine:  # a board the logic decides: no session
        engine.presolve()
    assert len(closed) == 1
