"""engine.find_other: the rival question behind the solve layer, every answer checked
by the one checker (core/verify.candidate_problems) through the caller's ``check``."""

from __future__ import annotations

import itertools

import pytest

pytest.importorskip("highspy")

from thermomilp.core.errors import SolveError  # noqa: E402
from thermomilp.core.puzzle import grid_from_ones, ones_of, thermometers  # noqa: E402
from thermomilp.core.verify import candidate_problems  # noqa: E402
from thermomilp.model.formulation import formulate  # noqa: E402
from thermomilp.solving.engine import find_other  # noqa: E402

# 2x2 boards, every clue 1: single-cell thermometers, or longer ones (bulb first)
PATHS = ([[(0, 0)], [(0, 1)], [(1, 0)], [(1, 1)]],
         [[(0, 0), (0, 1)], [(1, 0)], [(1, 1)]],
         [[(0, 0), (1, 0)], [(0, 1), (1, 1)]])


def _check(puzzle, planted, over=None):
    return lambda grid: candidate_problems(puzzle, grid, cuts=[(frozenset(planted), over)])


def _grids(puzzle):
    for bits in itertools.product((0, 1), repeat=puzzle.height * puzzle.width):
        yield grid_from_ones(puzzle.height, puzzle.width,
                             [divmod(k, puzzle.width) for k, b in enumerate(bits) if b])


@pytest.mark.parametrize("paths", PATHS)
@pytest.mark.parametrize("confirm", [True, False])
def test_find_other_agrees_with_brute_force(paths, confirm):
    puzzle = thermometers([1, 1], [1, 1], paths)
    form = formulate(puzzle)
    for planted in ([(0, 0), (1, 1)], [(0, 1), (1, 0)]):
        check = _check(puzzle, planted)
        if candidate_problems(puzzle, grid_from_ones(2, 2, planted)):
            continue  # not a solution itself
        others = [g for g in _grids(puzzle) if not check(g)]
        x = find_other(form, planted, check=check, confirm=confirm)
        if others:
            assert x is not None
            assert grid_from_ones(2, 2, form.ones_from_values(x)) in others
        else:
            assert x is None


def test_a_vector_the_checker_refuses_is_an_error_never_an_answer():
    puzzle = thermometers([1, 1], [1, 1], PATHS[0])
    planted = [(0, 0), (1, 1)]
    with pytest.raises(SolveError, match="not one: always wrong"):
        find_other(formulate(puzzle), planted, check=lambda grid: ["always wrong"])
    # the real checker accepts the other diagonal
    x = find_other(formulate(puzzle), planted, check=_check(puzzle, planted))
    assert ones_of(grid_from_ones(2, 2, formulate(puzzle).ones_from_values(x))) == \
        {(0, 1), (1, 0)}


def test_the_checker_names_each_broken_rule():
    puzzle = thermometers([1, 1], [1, 1], PATHS[1])
    assert candidate_problems(puzzle, ("##", "..")) != []            # clues
    assert candidate_problems(puzzle, (".#", "#.")) != []            # mercury without bulb
    planted = ("#.", ".#")
    assert candidate_problems(puzzle, planted, fixed={(0, 1): 1}) == ["it ignores a fixed cell"]
    assert candidate_problems(puzzle, planted, planted=planted) == ["it is the planted grid"]
    assert "no-good" in candidate_problems(puzzle, planted,
                                           cuts=[(ones_of(planted), None)])[0]
    assert "no-good" in candidate_problems(puzzle, planted,
                                           cuts=[(frozenset({(0, 0)}), frozenset({(0, 0)}))])[0]
    assert candidate_problems(puzzle, planted) == []


def test_a_cut_over_no_cell_means_no_rival():
    puzzle = thermometers([1, 1], [1, 1], PATHS[0])
    assert find_other(formulate(puzzle), [(0, 0), (1, 1)], over=set(),
                      check=_check(puzzle, [(0, 0), (1, 1)], frozenset())) is None


def test_the_generators_rivals_pass_the_one_checker(monkeypatch):
    import thermomilp.generate.rivals as rivals
    from thermomilp.formats import load
    from thermomilp.generate.thermometers_gen import tiling_of

    from helpers import ROOT

    tiling = tiling_of(load(ROOT / "instances" / "thermometers" / "t01_4x4.txt"))
    seen = []
    real = rivals.candidate_problems

    def spy(puzzle, grid, **kw):
        seen.append(grid)
        return real(puzzle, grid, **kw)

    monkeypatch.setattr(rivals, "candidate_problems", spy)
    no_clues = [None] * 4
    rival = rivals.find_rival(tiling, no_clues, no_clues)
    assert rival is not None and seen == [rival] and rival != tiling.grid()
    monkeypatch.setattr(rivals, "candidate_problems", lambda *a, **kw: ["refused"])
    with pytest.raises(rivals._RivalUndecided, match="refused"):
        rivals.find_rival(tiling, no_clues, no_clues)
