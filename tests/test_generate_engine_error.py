"""The generator survives an engine error (issue 25 part 6).

HiGHS ends a rival question in ``Solve error`` with its presolve on
(benchmarks/highs_solve_error_8x8.json: every rival question; presolve off answers).
Here the error is also injected: the engine call behind
:func:`thermomilp.solving.engine.find_other` fails the first k times. k = 1: the
retry with presolve off (``ENGINES[Solver.HIGHS].presolve_off``, applied by
:func:`thermomilp.backends.highs_arrays.ask_cell_model`) answers. k = 2: the
question is undecided, the generator drops that board and the next
one is unique. Every board is checked by two counters that share no code with the
generator.
"""

from __future__ import annotations

import pytest

import thermomilp.backends.highs_arrays as highs_arrays
from thermomilp.backends.highs_arrays import ArrayOutcome
from thermomilp.core.engines import ENGINES
from thermomilp.core.errors import SolveError
from thermomilp.core.puzzle import thermometers
from thermomilp.core.settings import Solver
from thermomilp.core.verify import candidate_problems, solution_problems
from thermomilp.generate.aquarium_gen import generate_aquarium
from thermomilp.generate.rivals import find_rival
from thermomilp.generate.thermometers_gen import generate_thermometers, tiling_of
from thermomilp.logic.brute import brute_force_count
from thermomilp.model.formulation import Formulation, formulate
from thermomilp.solving import count_solutions
from thermomilp.solving.engine import find_other

pytest.importorskip("highspy")

TRIES = 2  # the question itself, then with presolve off


class Failing:
    """``run_cell_model``, failing with HiGHS's "Solve error" on the calls ``which`` picks
    (call numbers from 1; ``whole``: count only whole-board questions of that size)."""

    def __init__(self, monkeypatch, which, whole: tuple[int, int] | None = None):
        self.real = highs_arrays.run_cell_model
        self.which, self.whole = which, whole
        self.calls = self.failed = 0
        self.options = []
        monkeypatch.setattr(highs_arrays, "run_cell_model", self)

    def __call__(self, form, rows=(), cost=None, options=None):
        options = options or highs_arrays.RunOptions()
        if self.whole is None or (form.height, form.width) == self.whole:
            self.calls += 1
            if self.which(self.calls):
                self.failed += 1
                self.options.append(options)
                return ArrayOutcome("error", message="Solve error")
        return self.real(form, rows, cost, options)


def _unique(puzzle) -> None:
    assert solution_problems(puzzle, puzzle.solution) == []
    assert brute_force_count(puzzle, 2) == 1
    assert count_solutions(puzzle, 2) == 1


def _two_solutions() -> tuple[Formulation, list, object]:
    # a 2x2 board with every clue 1 and no thermometer arc: two diagonals
    puzzle = thermometers([1, 1], [1, 1], [[(0, 0)], [(0, 1)], [(1, 0)], [(1, 1)]])
    planted = [(0, 0), (1, 1)]
    return formulate(puzzle), planted, _check(puzzle, planted)


def _check(puzzle, planted):
    return lambda grid: candidate_problems(puzzle, grid, cuts=[(frozenset(planted), None)])


@pytest.mark.parametrize("nearest", [False, True])
def test_find_other_answers_through_its_retry(monkeypatch, nearest):
    form, planted, check = _two_solutions()
    spy = Failing(monkeypatch, lambda n: n == 1)
    x = find_other(form, planted, check=check, nearest=nearest)
    assert x is not None and [(r, c) for r in range(2) for c in range(2) if x[2 * r + c]] \
        == [(0, 1), (1, 0)]
    assert spy.failed == 1 and not spy.options[0].presolve_off


@pytest.mark.parametrize("nearest", [False, True])
def test_the_real_solve_error_is_answered_with_presolve_off(nearest):
    """HiGHS 1.16 itself, nothing injected: this board's rival question ends in "Solve
    error" with presolve on; the retry with presolve off answers it (the board is
    unique: no rival)."""
    from thermomilp.formats import load

    from helpers import ROOT

    puzzle = load(ROOT / "benchmarks" / "highs_solve_error_8x8.json")
    ones = [(r, c) for r, row in enumerate(puzzle.solution) for c, ch in enumerate(row)
            if ch == "#"]
    assert find_other(formulate(puzzle), ones, check=_check(puzzle, ones),
                      nearest=nearest) is None


def test_find_other_confirms_none_through_its_retry(monkeypatch):
    puzzle = thermometers([1], [1, 0], [[(0, 0)], [(0, 1)]])
    Failing(monkeypatch, lambda n: n == 1)
    assert find_other(formulate(puzzle), [(0, 0)], check=_check(puzzle, [(0, 0)])) is None


def test_find_other_gives_up_after_its_retry(monkeypatch):
    form, planted, check = _two_solutions()
    Failing(monkeypatch, lambda n: True)
    with pytest.raises(SolveError, match="Solve error .*also with presolve off") as info:
        find_other(form, planted, check=check)
    assert info.value.status == "error"


def test_thermometers_board_after_recoverable_errors(monkeypatch):
    # every whole-board question fails its first try: the retry answers it
    spy = Failing(monkeypatch, lambda n: n % TRIES == 1, whole=(9, 9))
    board = generate_thermometers(9, 9, seed=5, strategy="repair")
    assert spy.failed > 0
    _unique(board.puzzle)


def test_thermometers_generator_drops_an_undecided_board(monkeypatch):
    # the first whole-board question fails every try: that planting is dropped, the run
    # goes on and the board it returns is unique (the old generator stopped here)
    spy = Failing(monkeypatch, lambda n: n <= TRIES, whole=(9, 9))
    board = generate_thermometers(9, 9, seed=5, strategy="repair")
    assert spy.failed == TRIES
    assert board.stats.get("undecided", 0) == 1
    _unique(board.puzzle)


def test_an_undecided_window_is_no_rival_there(monkeypatch):
    board = generate_thermometers(8, 8, seed=2, strategy="repair").puzzle
    tiling = tiling_of(board)
    from thermomilp.generate.rivals import Window

    Failing(monkeypatch, lambda n: True)
    assert find_rival(tiling, window=Window(0, 0, 4, 4)) is None


def test_generate_command_goes_on_after_an_undecided_board(monkeypatch, tmp_path, capsys):
    from thermomilp.cli.main import main
    from thermomilp.formats import load

    Failing(monkeypatch, lambda n: n <= TRIES, whole=(9, 9))
    code = main(["generate", "--size", "9x9", "--count", "2", "--seed", "5",
                 "--strategy", "repair", "--out", str(tmp_path)])
    assert code == 0, capsys.readouterr().err
    files = sorted(tmp_path.iterdir())
    assert len(files) == 2
    for path in files:
        _unique(load(path))


def test_aquarium_generator_drops_undecided_tanks(monkeypatch):
    # pool rule: every rival question goes to the MILP. The first three fail every try:
    # the generator draws new tanks (or keeps a clue) instead of stopping
    spy = Failing(monkeypatch, lambda n: n <= 3 * TRIES, whole=(6, 6))
    board = generate_aquarium(6, 6, seed=4, rule="pool", minimal_clues=True,
                              strategy="repair")
    assert spy.failed == 3 * TRIES
    _unique(board)


def _record(monkeypatch):
    real, seen = highs_arrays.run_cell_model, []

    def spy(form, rows=(), cost=None, options=None):
        options = options or highs_arrays.RunOptions()
        seen.append(options)
        return real(form, rows, cost, options)

    monkeypatch.setattr(highs_arrays, "run_cell_model", spy)
    return seen


@pytest.mark.parametrize("probe", [None, 50])
def test_a_whole_board_none_counts_only_when_confirmed_with_presolve_off(monkeypatch, probe):
    # the backend asks the confirmation the engine's data names (HiGHS: second_opinion,
    # in its presolve-off configuration); a probe's "none" is confirmed by the full question
    puzzle = thermometers([1], [1, 0], [[(0, 0)], [(0, 1)]])
    seen = _record(monkeypatch)
    assert find_other(formulate(puzzle), [(0, 0)], check=_check(puzzle, [(0, 0)]),
                      probe_nodes=probe, nearest=probe is not None) is None
    assert ENGINES[Solver.HIGHS].second_opinion
    assert [o.presolve_off for o in seen] == [False, True]
    assert seen[-1].max_nodes is None and not seen[-1].first_improving


def test_a_window_none_is_believed_at_once(monkeypatch):
    puzzle = thermometers([1], [1, 0], [[(0, 0)], [(0, 1)]])
    seen = _record(monkeypatch)
    assert find_other(formulate(puzzle), [(0, 0)], check=_check(puzzle, [(0, 0)]),
                      confirm=False) is None
    assert [o.presolve_off for o in seen] == [False]
