"""The interval propagation obeys its deadline: ``stop`` is asked, TimeUp ends it early."""

from __future__ import annotations

import random

import pytest

from thermomilp.core.deadline import Deadline, TimeUp
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.domains import full_domains, line_tables
from thermomilp.logic.presolve import presolve_cells
from thermomilp.logic.propagation import STOP_EVERY, propagate
from thermomilp.solving import solve


class CountingStop:
    """A clock that says "time is up" on its ``after``-th question."""

    def __init__(self, after: int):
        self.after = after
        self.asked = 0

    def __call__(self) -> bool:
        self.asked += 1
        return self.asked >= self.after


def board(size: int, seed: int = 1):
    return planted_board(size, size, random.Random(seed))


def test_propagation_asks_stop_and_raises_time_up():
    tables = line_tables(board(40))
    stop = CountingStop(after=1)
    with pytest.raises(TimeUp):
        propagate(tables, full_domains(tables), stop=stop)
    assert stop.asked == 1


def test_stopped_propagation_keeps_only_sound_deductions():
    puzzle = board(30, seed=3)
    tables = line_tables(puzzle)
    dom = full_domains(tables)
    try:
        propagate(tables, dom, stop=CountingStop(after=2))
    except TimeUp:
        pass
    finished = full_domains(tables)
    assert propagate(tables, finished)
    # every level the full fixpoint keeps, the interrupted run kept too
    assert all(f & d == f for f, d in zip(finished, dom, strict=True))


def test_a_stop_that_never_fires_changes_nothing():
    tables = line_tables(board(30, seed=5))
    plain, asked = full_domains(tables), full_domains(tables)
    stop = CountingStop(after=10**9)
    assert propagate(tables, plain) == propagate(tables, asked, stop=stop)
    assert plain == asked
    assert stop.asked >= 1 or len(tables.clues) < STOP_EVERY


def test_presolve_intervals_passes_stop_on():
    with pytest.raises(TimeUp):
        presolve_cells(board(40), "intervals", CountingStop(after=1))


def test_solve_reports_timeout_when_the_interval_presolve_runs_out():
    expired = Deadline(0.0)
    result = solve(board(40), logic="intervals", deadline=expired)
    assert result.status == "timeout"
    assert result.time_s >= 0.0


def test_table_building_asks_stop():
    fresh = board(40, seed=4041)  # a board no other test built tables of
    stop = CountingStop(after=1)
    with pytest.raises(TimeUp):
        line_tables(fresh, stop)
    assert stop.asked == 1
    # nothing half-built is kept: the next call builds the tables, asking its own stop
    again = CountingStop(after=10**9)
    tables = line_tables(fresh, again)
    assert again.asked >= 1
    assert len(tables.depths) == len(fresh.vessels)


def test_a_solves_board_logic_builds_its_tables_once_whatever_stop_is_given():
    from thermomilp.logic.presolve import BoardLogic

    fresh = BoardLogic(board(12, seed=4042))
    first = fresh.tables(CountingStop(after=10**9))
    stop = CountingStop(after=1)  # would raise if the tables were built again
    assert fresh.tables(stop) is first
    assert fresh.tables() is first
    assert stop.asked == 0


class WatchedDeadline(Deadline):
    """A real deadline that counts its questions and those answered "time is up"; with
    ``after``, a work budget too: "time is up" from the ``after``-th question on."""

    def __init__(self, seconds: float, after: int | None = None):
        super().__init__(seconds)
        self.after = after
        self.asked = self.late = 0

    def expired(self) -> bool:
        self.asked += 1
        done = super().expired() or (self.after is not None and self.asked >= self.after)
        self.late += done
        return done


def test_a_short_limit_on_a_large_board_ends_near_the_limit():
    # Unlimited, tables + propagation on 200x200 take about a second; with a 0.05 s
    # deadline the presolve gives up at the first question answered "time is up" --
    # counted, not timed, so a loaded machine cannot make it fail.
    puzzle = board(200, seed=7)
    clock = WatchedDeadline(0.05)
    result = solve(puzzle, logic="intervals", deadline=clock)
    assert result.status == "timeout"
    assert result.time_s >= 0.05
    assert clock.late <= 1, clock.late  # no work went on past the deadline
    # the same as a work budget: the presolve asks as it goes and ends at the first "yes"
    budget = WatchedDeadline(3600.0, after=5)
    result = solve(puzzle, logic="intervals", deadline=budget)
    assert result.status == "timeout"
    assert (budget.asked, budget.late) == (5, 1)


def test_no_table_outlives_its_solve():
    from thermomilp.logic.presolve import BoardLogic

    fresh = board(12, seed=4043)
    first = BoardLogic(fresh).tables()
    assert BoardLogic(fresh).tables() is not first  # a second solve builds its own
    assert line_tables(fresh) is not first
