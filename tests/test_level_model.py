"""The level formulation gives the same solution sets as the cell formulation."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thermomilp.core.puzzle import grid_from_levels
from thermomilp.core.verify import solution_problems
from thermomilp.formats import load
from thermomilp.generate.random_board import planted_board
from thermomilp.model.highs_model import new_highs
from thermomilp.solving import enumerate_solutions

from helpers import INSTANCES, random_aquarium

LIMIT = 30


def level_solutions_pulp(puzzle) -> set:
    import pulp

    from thermomilp.backends.pulp_backend import read_status
    from thermomilp.model.level_pulp import add_level_nogood, build_level_pulp, levels_of

    new_highs()  # keep the HiGHS banner off stdout
    prob, z, _ = build_level_pulp(puzzle)
    found = set()
    while len(found) < LIMIT:
        word, _ = read_status(prob.solve(pulp.HiGHS(msg=False)), prob)  # PuLP 3 and 4
        if word == "infeasible":
            return found
        assert word == "optimal"
        levels = levels_of(puzzle, z)
        found.add(grid_from_levels(puzzle, levels))
        add_level_nogood(prob, z, levels, f"nogood_{len(found)}")
    return found


def level_solutions_pyomo(puzzle) -> set:
    from pyomo.contrib.solver.common.results import TerminationCondition as TC
    from pyomo.contrib.solver.solvers.highs import Highs

    from thermomilp.model.level_pyomo import build_level_pyomo, level_nogood_expr, levels_of

    new_highs()
    m = build_level_pyomo(puzzle)
    engine = Highs()
    engine.config.load_solutions = False
    engine.config.raise_exception_on_nonoptimal_result = False
    found = set()
    while len(found) < LIMIT:
        results = engine.solve(m)
        if results.termination_condition in (TC.provenInfeasible, TC.infeasibleOrUnbounded):
            return found
        assert results.termination_condition == TC.convergenceCriteriaSatisfied
        results.solution_loader.load_vars()
        levels = levels_of(puzzle, m)
        found.add(grid_from_levels(puzzle, levels))
        m.nogood.add(level_nogood_expr(m, levels))
    return found


def cell_solutions(puzzle) -> set:
    return set(enumerate_solutions(puzzle, limit=LIMIT))


def check_same(puzzle, level_solutions):
    cells = cell_solutions(puzzle)
    levels = level_solutions(puzzle)
    assert all(solution_problems(puzzle, g) == [] for g in levels)
    if len(cells) < LIMIT:
        assert levels == cells
    else:
        assert len(levels) == LIMIT  # both hit the cap; every level solution is verified


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), missing=st.sampled_from([0.0, 0.3]))
def test_level_pulp_matches_cell_model_on_random_boards(seed, missing):
    check_same(planted_board(4, 5, random.Random(seed), max_length=4, missing=missing),
               level_solutions_pulp)


@pytest.mark.parametrize("seed", range(5))
def test_level_pyomo_matches_cell_model_on_random_boards(seed):
    check_same(planted_board(5, 4, random.Random(seed), max_length=5, missing=0.2),
               level_solutions_pyomo)


@pytest.mark.parametrize("seed", range(3))
def test_level_models_on_aquarium(seed):
    puzzle = random_aquarium(4, 5, random.Random(seed))
    check_same(puzzle, level_solutions_pulp)
    check_same(puzzle, level_solutions_pyomo)


@pytest.mark.parametrize("name", ["t07_5x5_two_solutions.txt", "t08_4x4_no_solution.txt",
                                  "t03_6x6.txt"])
def test_level_models_on_instances(name):
    puzzle = load(INSTANCES / "thermometers" / name)
    check_same(puzzle, level_solutions_pulp)
    check_same(puzzle, level_solutions_pyomo)


def test_the_level_formulation_lists_its_pairs_once():
    """The builders name variable k by ``pairs[k]``: a list made again at every read made
    naming quadratic (3.7 s for the 4,588 variables of a 60x60 board)."""
    from thermomilp.model.registry import LevelFormulation

    form = LevelFormulation(load(INSTANCES / "thermometers" / "t03_6x6.txt"))
    assert form.pairs is form.pairs
    assert len(form.pairs) == form.n_vars
