"""The pool Aquarium rule (puzz.link without the ``r`` flag): one level per body of water.

Checked three independent ways: the checker (written from puzz.link's support and
level rules), the brute-force counter (over closed fillings of the layer tree), an
exhaustive enumeration of every grid (tiny boards), and the MILP in both formulations.
The published boards are pzprjs's own test boards for its Aquarium checker.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.core.errors import PuzzleError, RuleNotSupported
from thermomilp.core.puzzle import aquarium, pool_layers
from thermomilp.core.verify import solution_problems
from thermomilp.formats import dumps, loads
from thermomilp.logic.brute import brute_force_count, brute_force_solutions, vessel_fills
from thermomilp.solving import count_solutions, solve

# pzprjs test/script/aquarium.js: this filling passes its checker without 'r' and fails
# with 'r' ("bkNoLevel"). Clues read off that filling make it a board.
PZPRJS_3x4 = ("pzprv3/aquarium/3/4/0 0 0 /1 1 0 /1 1 0 /0 1 0 0 /0 0 0 0 /"
              ". . . . . /. . . . . /. . . # # /. . . # # /")
# pzprjs's debug board and its accepted answer (null failcode).
PZPRJS_4x4_URL = "https://puzz.link/p?aquarium/4/4/bu8i90/i3213g"
PZPRJS_4x4_ANSWER = ("..##", "..#.", "#.##", "####")


def random_regions(rng: random.Random, h: int, w: int, letters: str = "abc") -> list[list[str]]:
    """Connected tanks: the components of a random colouring."""
    colour = [[rng.choice(letters) for _ in range(w)] for _ in range(h)]
    label: dict[tuple[int, int], str] = {}
    for start in itertools.product(range(h), range(w)):
        if start in label:
            continue
        label[start] = str(len(set(label.values())))
        todo = [start]
        while todo:
            r, c = todo.pop()
            for a, b in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if 0 <= a < h and 0 <= b < w and (a, b) not in label \
                        and colour[a][b] == colour[r][c]:
                    label[a, b] = label[start]
                    todo.append((a, b))
    return [[label[r, c] for c in range(w)] for r in range(h)]


def random_filling(board, rng: random.Random) -> tuple[str, ...]:
    """A legal filling: one random filling per vessel (no clue is checked)."""
    wet = {cell for v in board.vessels for cell in rng.choice(vessel_fills(v))}
    return tuple("".join("#" if (r, c) in wet else "." for c in range(board.width))
                 for r in range(board.height))


def test_pzprjs_board_pool_has_the_answer_tank_has_none():
    pool = loads(PZPRJS_3x4).with_clues([0, 2, 2], [0, 0, 2, 2])
    assert pool.rule == "pool"
    result = solve(pool)
    assert result.status == "unique" and result.grid == ("....", "..##", "..##")
    assert list(brute_force_solutions(pool)) == [result.grid]
    tank = loads(dumps(pool, "puzzlink").replace("aquarium/", "aquarium/r/"))
    assert tank.rule == "tank" and tank.region_grid() == pool.region_grid()
    assert solve(tank).status == "infeasible"
    assert brute_force_count(tank) == 0


def test_pzprjs_debug_board_in_its_url_and_file_forms():
    for text in (PZPRJS_4x4_URL, dumps(loads(PZPRJS_4x4_URL), "pzprv3")):
        p = loads(text)
        assert p.rule == "pool"
        result = solve(p)
        assert result.status == "unique" and result.grid == PZPRJS_4x4_ANSWER


def test_pool_layers_of_an_arch():
    # tank 'a' is an arch: two legs joined by the top row only
    arch_regions = [list("aaa"), list("aba"), list("aba")]
    p = aquarium([None] * 3, [None] * 3, arch_regions, rule="pool")
    arch = p.vessels[0]
    layers, parent = pool_layers(arch.cells)
    assert layers == (((2, 0),), ((2, 2),), ((1, 0),), ((1, 2),), ((0, 0), (0, 1), (0, 2)))
    assert parent == (2, 3, 4, 4, None)
    # the legs may stand at different heights under the pool rule only
    grid = ("...", "#..", "#.#")
    assert solution_problems(p, grid) == []
    tank = aquarium([None] * 3, [None] * 3, arch_regions)
    assert solution_problems(tank, grid) != []


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), h=st.integers(1, 3), w=st.integers(1, 4))
def test_brute_force_is_every_grid_the_checker_accepts(seed, h, w):
    regions = random_regions(random.Random(seed), h, w)
    for rule in ("tank", "pool"):
        p = aquarium([None] * h, [None] * w, regions, rule=rule)
        every = {g for bits in itertools.product(".#", repeat=h * w)
                 if not solution_problems(p, g := tuple("".join(bits[r * w:(r + 1) * w])
                                                        for r in range(h)))}
        assert set(brute_force_solutions(p)) == every
    tank = set(brute_force_solutions(aquarium([None] * h, [None] * w, regions)))
    assert tank <= set(brute_force_solutions(aquarium([None] * h, [None] * w, regions,
                                                      rule="pool")))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), h=st.integers(2, 5), w=st.integers(2, 5),
       formulation=st.sampled_from(["cell", "compact"]),
       presolve=st.sampled_from(["none", "probing"]))
def test_milp_agrees_with_brute_force_on_pool_boards(seed, h, w, formulation, presolve):
    rng = random.Random(seed)
    regions = random_regions(rng, h, w)
    board = aquarium([None] * h, [None] * w, regions, rule="pool")
    planted = random_filling(board, rng)
    rows = [row.count("#") if rng.random() < 0.8 else None for row in planted]
    cols = [sum(row[c] == "#" for row in planted) if rng.random() < 0.8 else None
            for c in range(w)]
    p = board.with_clues(rows, cols)
    expected = brute_force_count(p, 3)
    result = solve(p, formulation=formulation, logic=presolve)
    assert result.status == ("unique" if expected == 1 else "multiple")
    assert solution_problems(p, result.grid) == []
    assert count_solutions(p, 3, formulation=formulation) == expected


def test_pool_rule_on_every_backend_that_is_installed():
    p = loads(PZPRJS_3x4).with_clues([0, 2, 2], [0, 0, 2, 2])
    from thermomilp.core.errors import SolverUnavailable

    for backend in ("pulp", "pyomo"):
        try:
            result = solve(p, backend=backend, solver="highs")
        except SolverUnavailable as exc:
            pytest.skip(f"{backend}/highs is not installed: {exc}")
        assert result.grid == ("....", "..##", "..##")


def test_level_tools_refuse_the_pool_rule_clearly():
    p = loads(PZPRJS_3x4).with_clues([0, 2, 2], [0, 0, 2, 2])
    from thermomilp.logic.aquarium_dp import dp_count
    from thermomilp.logic.domains import line_tables
    from thermomilp.model.level_pulp import build_level_pulp

    for call in (lambda: dp_count(p, 2), lambda: line_tables(p), lambda: build_level_pulp(p)):
        with pytest.raises(RuleNotSupported, match="pool rule"):
            call()


def test_convert_never_changes_the_rule():
    p = loads(PZPRJS_3x4).with_clues([0, 2, 2], [0, None, 2, 2])
    for fmt in ("json", "text", "puzzlink", "pzprv3"):
        back = loads(dumps(p, fmt))
        assert back.rule == "pool", fmt
        assert back.region_grid() == p.region_grid() or fmt in ("puzzlink", "pzprv3")
    square = aquarium([1, 1], [1, 1], [["a", "a"], ["b", "b"]], rule="pool")
    with pytest.raises(PuzzleError, match="tank rule"):
        dumps(square, "aquarium-task")


def test_pool_generator_gives_unique_pool_boards():
    from thermomilp.generate.aquarium_gen import generate_aquarium

    p = generate_aquarium(4, 4, seed=3, rule="pool")
    assert p.rule == "pool"
    assert brute_force_count(p, 3) == 1
    assert solution_problems(p, p.solution) == []


def test_a_board_unique_under_the_tank_rule_has_a_second_answer_under_the_pool_rule():
    # tank 0 wraps around tank 2: under the pool rule its lower pocket may fill alone
    regions = [list("0110"), list("0000"), list("0020"), list("0345")]
    rows, cols = [2, 0, 3, 2], [2, 2, 2, 1]
    tank = aquarium(rows, cols, regions)
    pool = aquarium(rows, cols, regions, rule="pool")
    t, p = solve(tank), solve(pool)
    assert t.status == "unique" and brute_force_count(tank) == 1
    assert p.status == "multiple" and brute_force_count(pool) == 2
    answers = set(brute_force_solutions(pool))
    assert t.grid in answers and {p.grid, p.second} == answers
    pool_only = (answers - {t.grid}).pop()
    assert solution_problems(tank, pool_only) != []  # it breaks one waterline per tank
