"""engine.find_other: the rival question behind the solve layer, every answer checked."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("highspy")

from thermomilp.model.formulation import Formulation  # noqa: E402
from thermomilp.solving.engine import find_other, formulation_problems  # noqa: E402


def _form(rows, cols, arcs=(), fixed=None):
    return Formulation(height=len(rows), width=len(cols),
                       row_clues=dict(enumerate(rows)), col_clues=dict(enumerate(cols)),
                       arcs=tuple(arcs), ties=(), fixed=dict(fixed or {}))


def _brute(form, planted):
    """Every 0/1 vector that passes the checker: the independent count."""
    n = form.height * form.width
    return [np.array(bits, dtype=bool) for bits in itertools.product((0, 1), repeat=n)
            if not formulation_problems(form, np.array(bits), planted)]


@pytest.mark.parametrize("arcs", [(), (((0, 1), (0, 0)),), (((1, 0), (0, 0)), ((1, 1), (0, 1)))])
@pytest.mark.parametrize("confirm", [True, False])
def test_find_other_agrees_with_brute_force(arcs, confirm):
    form = _form([1, 1], [1, 1], arcs)
    for planted in ([(0, 0), (1, 1)], [(0, 1), (1, 0)]):
        if formulation_problems(form, np.array([c in planted for c in form.cells]), []):
            continue  # not a solution itself
        others = _brute(form, planted)
        x = find_other(form, planted, confirm=confirm)
        if others:
            assert x is not None and not formulation_problems(form, x, planted)
        else:
            assert x is None


def test_checker_names_each_broken_rule():
    form = _form([1, 1], [1, 1], [((1, 0), (0, 0))], fixed={(0, 1): 1})
    assert formulation_problems(form, np.array([0, 1, 1, 0]), [(0, 1), (1, 0)]) != []
    problems = formulation_problems(form, np.array([1, 0, 0, 1]), [(0, 0), (1, 1)])
    assert any("fixed" in p for p in problems) and any("planted" in p for p in problems)


def test_a_cut_over_no_cell_means_no_rival():
    form = _form([1, 1], [1, 1])
    assert find_other(form, [(0, 0), (1, 1)], over=set()) is None
