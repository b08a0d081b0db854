"""Solving on every backend: instances, the janko corpus, agreement with brute force,
and the checker standing between a misbehaving engine and the user."""

from __future__ import annotations

import random

import pytest

from thermomilp.backends.base import Raw, Session
from thermomilp.core.puzzle import levels_from_grid, ones_of
from thermomilp.core.settings import Backend
from thermomilp.core.status import Status
from thermomilp.core.verify import solution_problems
from thermomilp.formats import load
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.brute import brute_force_count, brute_force_solutions
from thermomilp.solving import count_solutions, enumerate_solutions, is_unique, solve

from helpers import INSTANCES, janko_files, needs_corpus

BACKENDS = ["highs", "pulp", "pyomo"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_instances_give_their_expected_result(backend, expected):
    for rel, want in expected.items():
        if not rel.startswith("thermometers/"):
            continue
        p = load(INSTANCES / rel)
        r = solve(p, backend=backend)
        assert r.status == want["status"], rel
        if r.grid is not None:
            assert solution_problems(p, r.grid) == []
            assert r.levels == levels_from_grid(p, r.grid)
        if p.solution is not None and want["status"] == "unique":
            assert r.grid == p.solution, rel
        if want["status"] == "multiple":
            assert r.second is not None and r.second != r.grid
            assert solution_problems(p, r.second) == []
        if p.height * p.width <= 64:  # the brute force is exponential: small boards only
            assert brute_force_count(p, 5) == want["solutions"], rel


@needs_corpus
@pytest.mark.parametrize("backend", BACKENDS)
def test_janko_corpus_is_unique_and_matches_published_solution(backend):
    for path in janko_files():
        p = load(path)
        r = solve(p, backend=backend)
        assert r.status == "unique", path.name
        assert r.grid == p.solution, path.name


def _random_boards(count: int, seed: int):
    rng = random.Random(seed)
    for k in range(count):
        h, w = rng.randint(3, 8), rng.randint(3, 8)
        yield planted_board(h, w, rng, max_length=rng.randint(2, 6),
                            straight=rng.random() < 0.3, missing=0.0 if k % 2 else 0.25)


CAP = 4


@pytest.mark.slow  # 200 boards x 3 backends and the brute force: 12-19 s
def test_backends_agree_with_brute_force_on_200_random_boards():
    disagreements = []
    for k, p in enumerate(_random_boards(200, seed=20261129)):
        truth = brute_force_count(p, CAP)
        counts = {b: count_solutions(p, CAP, backend=b) for b in BACKENDS}
        if set(counts.values()) != {truth}:
            disagreements.append((k, truth, counts))
    assert disagreements == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_enumeration_finds_exactly_the_brute_force_solutions(backend):
    for p in _random_boards(12, seed=5):
        truth = set(brute_force_solutions(p, 30))
        if len(truth) >= 30:
            continue
        assert set(enumerate_solutions(p, None, backend=backend)) == truth


def test_is_unique_matches_status():
    for p in _random_boards(20, seed=9):
        r = solve(p)
        assert is_unique(p) == (r.status == "unique")


class _Fake(Session):
    """Only the engine run is faked; the session skeleton is the real one."""

    backend = Backend.HIGHS

    def _has_rows(self):
        return True

    def _add_row(self, cols, coefs, lower, name):
        pass

    def _values(self, ones):
        on = self.form.vars_of(frozenset(ones))
        return [1.0 if k in on else 0.0 for k in range(self.form.n_vars)]


class _LyingSession(_Fake):
    """An engine that reports a grid breaking the rules."""

    def _run(self, time_limit, extra):
        return Raw(Status.FEASIBLE, self._values({(0, 1)}))  # mercury without its bulb


def test_a_wrong_engine_answer_becomes_an_error(monkeypatch):
    import thermomilp.solving.api as solve_module
    from thermomilp.model.formulation import formulate
    from thermomilp.solving import engine as engine_module

    p = load(INSTANCES / "thermometers" / "t01_4x4.txt")
    monkeypatch.setattr(engine_module, "open_session",
                        lambda puzzle, settings, fixed=None, deadline=None:
                        _LyingSession(formulate(puzzle), settings, deadline))
    r = solve_module.solve(p, logic="none")
    assert r.status == "error" and r.grid is None
    assert "not a solution" in r.error


def test_no_unique_skips_the_second_solve():
    p = load(INSTANCES / "thermometers" / "t07_5x5_two_solutions.txt")
    r = solve(p, unique=False)
    assert r.status == "solved" and r.second is None


def test_result_json_contract():
    p = load(INSTANCES / "thermometers" / "t03_6x6.txt")
    record = solve(p).to_json("t03.txt")
    for key in ("file", "puzzle", "status", "grid", "levels", "second", "backend", "solver",
                "time_s"):
        assert key in record
    assert record["puzzle"] == "thermometers" and record["status"] == "unique"
    assert record["levels"] == list(levels_from_grid(p, tuple(record["grid"])))


@pytest.mark.parametrize("backend", ["highs", "pulp"])
def test_time_limit_gives_timeout_not_a_guess(backend):
    p = planted_board(100, 100, random.Random(3))
    r = solve(p, backend=backend, time_limit=0.01)
    assert r.status in ("timeout", "unique", "multiple")  # a very fast machine may finish
    if r.status == "timeout":
        assert r.second is None and r.error


@pytest.mark.parametrize("backend", BACKENDS)
def test_highs_presolve_solve_error_is_worked_around(backend):
    # HiGHS 1.16's presolve ends this feasible board in "Solve error"; the
    # sessions retry once without presolve, and the checker still stands guard.
    from helpers import ROOT

    p = load(ROOT / "benchmarks" / "highs_solve_error_8x8.json")
    r = solve(p, backend=backend)
    assert r.status == "unique"
    assert [r.grid] == list(brute_force_solutions(p, 2))


@pytest.mark.parametrize("backend", BACKENDS)
def test_highs_false_infeasible_is_caught_by_the_second_opinion(backend):
    # HiGHS 1.16 with default options calls this feasible board infeasible;
    # every "infeasible" verdict is re-asked in another configuration.
    from helpers import ROOT

    p = load(ROOT / "benchmarks" / "highs_wrong_infeasible_15x15.txt")
    r = solve(p, backend=backend)
    assert r.status == "unique"
    assert solution_problems(p, r.grid) == []


class _DoubtingSession(_Fake):
    """First says infeasible, then (second opinion) finds a solution."""

    def __init__(self, form, options, deadline, grid):
        self.ones = ones_of(grid)
        self.asked = 0
        super().__init__(form, options, deadline)

    def _run(self, time_limit, extra):
        if not extra:
            return Raw(Status.INFEASIBLE)
        self.asked += 1
        return Raw(Status.FEASIBLE, self._values(self.ones)) if self.asked == 1 else Raw(
            Status.INFEASIBLE)


def test_an_infeasible_verdict_is_always_re_asked(monkeypatch):
    import thermomilp.solving.api as solve_module
    from thermomilp.model.formulation import formulate
    from thermomilp.solving import engine as engine_module

    p = load(INSTANCES / "thermometers" / "t01_4x4.txt")
    monkeypatch.setattr(engine_module, "open_session",
                        lambda puzzle, settings, fixed=None, deadline=None:
                        _DoubtingSession(formulate(puzzle), settings, deadline, p.solution))
    r = solve_module.solve(p)
    assert r.status == "unique" and r.grid == p.solution
