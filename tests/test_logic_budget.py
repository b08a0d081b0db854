"""The logic's budgets are counted in work, not seconds: a record never depends on the
machine's load (``engine_called``, ``proof`` and ``confirmed_by`` included)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from thermomilp import solve
from thermomilp.core.errors import OutOfBudget
from thermomilp.formats import load
from thermomilp.logic import presolve, propagation
from thermomilp.logic.budget import Work
from thermomilp.logic.presolve import BoardLogic

ROOT = Path(__file__).resolve().parents[1]
BOARDS = [ROOT / "instances" / "thermometers" / "t08_4x4_no_solution.txt",
          ROOT / "instances" / "thermometers" / "t07_5x5_two_solutions.txt",
          ROOT / "instances" / "thermometers" / "generated" / "g14_15x15_hard.txt"]


def test_work_counts_its_calls_and_stops_after_its_limit():
    work = Work(3)
    assert [work() for _ in range(3)] == [False] * 3 and work.used == 3
    with pytest.raises(OutOfBudget):
        work()


def test_the_deadline_is_asked_first_and_its_answer_passed_on():
    work = Work(0, lambda: True)
    assert work() is True and work.used == 0  # the propagators raise TimeUp on True


def _record(board: Path) -> dict:
    record = solve(load(board), time_limit=None).to_json(str(board))
    record.pop("time_s")
    return record


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.stem)
def test_a_record_is_the_same_on_a_machine_a_thousand_times_slower(board, monkeypatch):
    normal = _record(board)
    real = time.perf_counter
    start = real()
    monkeypatch.setattr(time, "perf_counter", lambda: start + 1000 * (real() - start))
    assert _record(board) == normal


def test_the_search_budget_follows_the_work_of_probing_the_board():
    puzzle = load(BOARDS[2])
    board = BoardLogic(puzzle)
    board.probed_root()
    assert board.root_work > 0
    times = presolve.SEARCH_TIMES_PROBING[propagation.kernel_for(board.tables())]
    assert board.search_work == times * board.root_work + presolve.SEARCH_FLOOR_WORK
    assert presolve.search_decides(puzzle, 10**6, work=1, board=board) is None  # out of work
    assert board.search_gave_up


def test_the_reference_kernel_searches_for_the_budget_it_affords(monkeypatch):
    """The budget is in ticks of the kernel that runs the board: the reference, many
    times slower per tick, gets its own (smaller) multiple of the probing's work."""
    monkeypatch.setattr(propagation, "KERNEL", "python")
    board = BoardLogic(load(BOARDS[2]))
    board.probed_root()
    assert propagation.kernel_for(board.tables()) == "python"
    assert board.search_work == (presolve.SEARCH_TIMES_PROBING["python"]
                                 * board.root_work + presolve.SEARCH_FLOOR_WORK)
    assert presolve.SEARCH_TIMES_PROBING["python"] < presolve.SEARCH_TIMES_PROBING["compiled"]
