"""The compiled logic kernel (thermomilp/logic/_kernel.c) against the Python reference.

Both kernels must reach the same domains, the same contradiction (and line), the same
number of line revisions and the same calls to ``stop`` -- the work ticks of
:class:`thermomilp.logic.budget.Work` -- on every shipped board and on random ones:
the solve's decisions may not depend on which kernel ran.

Without the extension (no compiler when the package was built) these tests skip;
``THERMOMILP_REQUIRE_KERNEL=1`` (CI) makes that a failure.
"""

from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import thermomilp.logic.propagation as propagation
from thermomilp.core.deadline import TimeUp
from thermomilp.core.errors import OutOfBudget
from thermomilp.core.puzzle import levels_from_grid, thermometers
from thermomilp.formats import load
from thermomilp.generate.random_board import planted_board
from thermomilp.logic import presolve
from thermomilp.logic.budget import Work
from thermomilp.logic.domains import full_domains, line_tables
from thermomilp.logic.presolve import BoardLogic
from thermomilp.logic.propagation import (
    inherit,
    new_witnesses,
    probe,
    probe_fixpoint,
    reference_probe_fixpoint,
)
from thermomilp.logic.search import search_solutions

from helpers import INSTANCES, need_kernel, varied_board


@pytest.fixture(autouse=True)
def compiled_kernel():
    need_kernel()


def shipped_level_boards():
    found = []
    for path in sorted(INSTANCES.rglob("*.txt")):
        puzzle = load(path)
        if puzzle.all_chains:  # the pool rule has its own engine (logic/tree.py)
            found.append(pytest.param(puzzle, id=path.relative_to(INSTANCES).as_posix()))
    return found


class Revisions:
    """Counts the Python kernel's line revisions (``propagation.revise_line`` calls)."""

    def __init__(self, monkeypatch):
        self.count = 0
        revise = propagation.revise_line

        def counting(*args):
            self.count += 1
            return revise(*args)

        monkeypatch.setattr(propagation, "revise_line", counting)


def compare_propagation(tables, board, dom, revisions, lines=None, stop_after=None):
    """Run both kernels' interval propagation from ``dom``; assert they agree."""
    ours, theirs = list(dom), list(dom)
    stops = [Work(stop_after), Work(stop_after)]
    results, spent = [], []
    for run in (lambda: board.propagate(ours, lines, stops[0], propagation.STOP_EVERY),
                lambda: propagation.reference_propagate_conflict(tables, theirs, lines,
                                                               stops[1])):
        before = propagation.revisions() + revisions.count
        try:
            results.append(run())
        except OutOfBudget:
            results.append("budget")
        spent.append(propagation.revisions() + revisions.count - before)
    assert results[0] == results[1]  # OK (-1), the same contradictory line, or out of budget
    assert spent[0] == spent[1]  # line revisions
    assert ours == theirs
    assert stops[0].used == stops[1].used
    return results[0]


def as_domain(witness):
    """A witness as a list: the compiled kernel stores bytes (native 64-bit words)."""
    return list(memoryview(witness).cast("Q")) if isinstance(witness, bytes) else witness


def compare_probing(tables, board, dom, revisions, *, known=None, ends_only=False,
                    witnesses=None, limit=None):
    """Both kernels' probe_fixpoint from ``dom`` (and a copy of ``witnesses``): the same
    answer, domains, work ticks, line revisions and witnesses (as domains)."""
    ours, theirs = list(dom), list(dom)
    tables_of = [new_witnesses(tables) if witnesses is None else inherit(witnesses)
                 for _ in range(2)]
    works = [Work(limit), Work(limit)]
    answers, spent = [], []
    for run in (
            lambda: board.probe_fixpoint(ours, works[0], known, tables_of[0], ends_only),
            lambda: reference_probe_fixpoint(tables, theirs, works[1], known, tables_of[1],
                                             ends_only)):
        before = propagation.revisions() + revisions.count
        try:
            answers.append(bool(run()))
        except OutOfBudget:
            answers.append("budget")
        spent.append(propagation.revisions() + revisions.count - before)
    assert answers[0] == answers[1]
    assert ours == theirs
    assert works[0].used == works[1].used
    assert spent[0] == spent[1]
    if tables_of[0] is not None:
        assert [sorted(w) for w in tables_of[0]] == [sorted(w) for w in tables_of[1]]
        for a, b in zip(tables_of[0], tables_of[1], strict=True):
            for level, kept in a.items():
                assert as_domain(kept) == as_domain(b[level])
    return answers[0], ours, tables_of[0]


@pytest.mark.parametrize("puzzle", shipped_level_boards())
def test_the_kernels_agree_on_every_shipped_board(puzzle, monkeypatch):
    revisions = Revisions(monkeypatch)
    tables = line_tables(puzzle)
    board = propagation.compile_board(tables)
    assert board is not None
    full = full_domains(tables)
    compare_propagation(tables, board, full, revisions)
    compare_propagation(tables, board, full, revisions, stop_after=1)  # runs out at once
    alive, root, wit = compare_probing(tables, board, full, revisions)
    compare_probing(tables, board, full, revisions, ends_only=True)
    compare_probing(tables, board, full, revisions, witnesses=None, limit=3)  # OutOfBudget
    if alive and puzzle.solution is not None:
        known = [1 << level for level in levels_from_grid(puzzle, puzzle.solution)]
        compare_probing(tables, board, full, revisions, known=known)
        compare_probing(tables, board, root, revisions, known=known, ends_only=True,
                        witnesses=wit)


def _search(puzzle, which, monkeypatch):
    """The probing search's solutions (at most 2) and work ticks under one kernel."""
    monkeypatch.setattr(propagation, "KERNEL", which)
    work = Work()
    grids = list(search_solutions(puzzle, "probing", 2, stop=work))
    board = BoardLogic(puzzle)  # a new one: nothing learned under the other kernel
    found = presolve.search_finds(puzzle, 2 * len(puzzle.vessels) + 20, board=board)
    return grids, work.used, found, board.root_work, board.search_gave_up


@pytest.mark.parametrize("puzzle", [p for p in shipped_level_boards()
                                    if "hard" in p.id or "t0" in p.id or "a0" in p.id])
def test_the_search_decides_alike_under_both_kernels(puzzle, monkeypatch):
    assert _search(puzzle, "compiled", monkeypatch) == _search(puzzle, "python", monkeypatch)


def _random_domain(tables, rng):
    """Full domains with random levels punched out (holes, sometimes an empty one)."""
    dom = full_domains(tables)
    for v, m in enumerate(dom):
        for level in range(m.bit_length()):
            if rng.random() < 0.25:
                dom[v] &= ~(1 << level)
        if not dom[v] and rng.random() < 0.8:
            dom[v] = 1 << rng.randrange(m.bit_length())
    return dom


@given(st.integers(0, 10**9))
@example(173968)  # a witness that lost levels only on a vessel crossing no clued line
@settings(max_examples=150, deadline=None)
def test_the_kernels_agree_on_random_boards(seed):
    with pytest.MonkeyPatch.context() as monkeypatch:
        revisions = Revisions(monkeypatch)
        rng = random.Random(seed)
        puzzle = varied_board(seed)
        tables = line_tables(puzzle)
        board = propagation.compile_board(tables)
        full = full_domains(tables)
        compare_propagation(tables, board, full, revisions)
        holes = _random_domain(tables, rng)
        compare_propagation(tables, board, holes, revisions)
        n_lines = len(tables.clues)
        some = [rng.randrange(n_lines) for _ in range(rng.randint(0, 2 * n_lines))]
        compare_propagation(tables, board, holes, revisions, lines=some)  # duplicates too
        compare_propagation(tables, board, holes, revisions, lines=set(some))
        compare_propagation(tables, board, holes, revisions, lines=dict.fromkeys(some))
        alive, root, wit = compare_probing(tables, board, full, revisions)
        compare_probing(tables, board, holes, revisions)
        compare_probing(tables, board, holes, revisions, ends_only=True)
        if alive and wit is not None:  # a child node: the parent's witnesses, a smaller domain
            child = list(root)
            open_ = [v for v, m in enumerate(child) if m & (m - 1)]
            if open_:
                v = rng.choice(open_)
                child[v] = 1 << rng.choice([L for L in range(child[v].bit_length())
                                            if child[v] >> L & 1])
                compare_probing(tables, board, child, revisions, witnesses=wit,
                                ends_only=rng.random() < 0.5)


@given(st.integers(0, 10**9))
@settings(max_examples=40, deadline=None)
def test_a_search_ends_alike_on_random_boards(seed):
    puzzle = varied_board(seed)
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _search(puzzle, "compiled", monkeypatch) == _search(puzzle, "python", monkeypatch)


def test_a_deadline_stops_both_kernels_at_the_same_tick_with_the_same_deductions():
    puzzle = planted_board(20, 20, random.Random(11), missing=0.3)
    tables = line_tables(puzzle)
    board = propagation.compile_board(tables)
    for after in (1, 2, 5, 17):
        doms = [full_domains(tables), full_domains(tables)]
        asked = [0, 0]
        messages = []
        for k, run in enumerate((board.probe_fixpoint, None)):
            def stop(k=k, asked=asked, after=after):
                asked[k] += 1
                return asked[k] >= after

            with pytest.raises(TimeUp) as raised:
                if run is not None:
                    run(doms[k], stop, None, new_witnesses(tables), False)
                else:
                    reference_probe_fixpoint(tables, doms[k], stop, None,
                                             new_witnesses(tables))
            messages.append(str(raised.value))
        assert asked[0] == asked[1] == after
        assert doms[0] == doms[1]
        assert messages[0] == messages[1]


def test_the_witnesses_of_either_kernel_serve_the_other():
    puzzle = load(INSTANCES / "thermometers" / "generated" / "g14_15x15_hard.txt")
    tables = line_tables(puzzle)
    board = propagation.compile_board(tables)
    by_c, by_py = new_witnesses(tables), new_witnesses(tables)
    root_c, root_py = full_domains(tables), full_domains(tables)
    assert board.probe_fixpoint(root_c, None, None, by_c, False)
    assert reference_probe_fixpoint(tables, root_py, None, None, by_py)
    assert root_c == root_py
    v = next(v for v, m in enumerate(root_c) if m & (m - 1))
    level = root_c[v].bit_length() - 1
    child = list(root_c)
    child[v] = 1 << level
    # the compiled kernel from the reference's table, the reference from the compiled one's
    first, second = list(child), list(child)
    assert board.probe_fixpoint(first, None, None, inherit(by_py), True) == \
        reference_probe_fixpoint(tables, second, None, None, inherit(by_c), True)
    assert first == second
    for u, m in enumerate(child):
        for L in range(m.bit_length()):
            if m >> L & 1:
                assert probe(tables, child, u, L, inherit(by_c)) == \
                    probe(tables, child, u, L, inherit(by_py))


def test_a_vessel_deeper_than_a_word_runs_the_reference():
    """A 70-cell snake thermometer (levels 0..70): no compiled board, the same answers."""
    height, width, level = 10, 7, 33
    snake = [(r, c if r % 2 == 0 else width - 1 - c) for r in range(height)
             for c in range(width)]
    filled = set(snake[:level])
    rows = [sum((r, c) in filled for c in range(width)) for r in range(height)]
    cols = [sum((r, c) in filled for r in range(height)) for c in range(width)]
    puzzle = thermometers(rows, cols, [snake])
    tables = line_tables(puzzle)
    assert max(tables.depths) > propagation.MAX_DEPTH
    assert propagation.compile_board(tables) is None and propagation.board(tables) is None
    dom = full_domains(tables)
    assert probe_fixpoint(tables, dom) and dom == [1 << level]


def test_the_dispatch_runs_the_kernel_chosen(monkeypatch):
    puzzle = load(INSTANCES / "thermometers" / "t06_10x10.txt")
    tables = line_tables(puzzle)
    forced = os.environ.get(propagation.ENV) == "python"
    assert propagation.KERNEL == ("python" if forced else "compiled")
    monkeypatch.setattr(propagation, "KERNEL", "compiled")
    before = propagation.revisions()
    dom = full_domains(tables)
    propagation.propagate(tables, dom)
    assert propagation.revisions() > before
    monkeypatch.setattr(propagation, "KERNEL", "python")
    assert propagation.board(tables) is None
    before = propagation.revisions()
    again = full_domains(tables)
    propagation.propagate(tables, again)
    assert propagation.revisions() == before and again == dom


def test_bad_input_is_refused_not_misread():
    tables = line_tables(load(INSTANCES / "thermometers" / "t01_4x4.txt"))
    board = propagation.compile_board(tables)
    full = full_domains(tables)
    with pytest.raises(TypeError):
        board.propagate(tuple(full), None, None, 256)
    with pytest.raises(TypeError):
        board.propagate(full[:-1], None, None, 256)
    with pytest.raises(ValueError):  # a level above the vessel's depth
        board.propagate([m << 1 | 1 for m in full], None, None, 256)
    with pytest.raises(IndexError):
        board.propagate(list(full), [len(tables.clues)], None, 256)
    with pytest.raises(TypeError):
        board.probe_fixpoint(list(full), None, None, [{}], False)


def test_thermomilp_solvers_names_the_kernel(capsys):
    from thermomilp.cli.main import main

    assert main(["solvers"]) == 0
    assert f"logic kernel: {propagation.describe()}" in capsys.readouterr().out.splitlines()
    assert main(["solvers", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["logic_kernel"] == {"kernel": propagation.KERNEL, "why": propagation.REASON}


@pytest.mark.parametrize("puzzle", [p for p in shipped_level_boards() if "generated" in p.id])
def test_probes_from_scratch_agree_too(puzzle, monkeypatch):
    """Past WITNESS_VESSELS a board keeps no witnesses: every probe starts from scratch
    (``propagation.refuted``), in either kernel."""
    from thermomilp.logic import propagation

    monkeypatch.setattr(propagation, "WITNESS_VESSELS", 0)
    revisions = Revisions(monkeypatch)
    tables = line_tables(puzzle)
    assert propagation.new_witnesses(tables) is None
    for ends_only in (False, True):
        ours, theirs = full_domains(tables), full_domains(tables)
        works = [Work(), Work()]
        before = propagation.revisions()
        assert probe_fixpoint(tables, ours, works[0], ends_only=ends_only) == \
            reference_probe_fixpoint(tables, theirs, works[1], ends_only=ends_only)
        compiled = propagation.revisions() - before
        assert compiled > 0 and ours == theirs and works[0].used == works[1].used
        assert compiled == revisions.count
        revisions.count = 0


def test_tables_with_a_compiled_board_still_pickle():
    import pickle

    tables = line_tables(load(INSTANCES / "thermometers" / "t05_8x8.txt"))
    assert propagation.board(tables) is not None or propagation.KERNEL == "python"
    again = pickle.loads(pickle.dumps(tables))
    assert again == tables and "_kernel_board" not in again.__dict__
    dom = full_domains(again)
    assert probe_fixpoint(again, dom) and dom == probe_fixpoint_reference_of(tables)


def probe_fixpoint_reference_of(tables):
    dom = full_domains(tables)
    assert reference_probe_fixpoint(tables, dom)
    return dom
