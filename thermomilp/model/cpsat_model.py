"""The same linear models in OR-Tools' ``CpModel``, for the CP-SAT engine.

The cell formulation, row for row as in docs/formulation.md:

    x_ij in {0, 1}                                     (0)
    sum_j x_ij = R_i           for every clued row i   (1)
    sum_i x_ij = C_j           for every clued col j   (2)
    x_s - x_p <= 0             for every (s, p) in A   (3)
    x_a - x_b  = 0             for every (a, b) in E   (4)

No objective: any feasible x is a solution. A cell fixed by the logic presolve
gets equal bounds (its domain is the one value), as in every other layer.
Variable ``k`` is cell ``(k // W, k % W)``, named ``x_i_j``.

CP-SAT takes integer coefficients only; every row of these models has them
(clue sums, +1/-1 precedence, the 0/1 no-good cuts). All three formulations are
built from the same row data the highspy builders use
(`thermomilp.model.highs_model.matrix_arrays`, `thermomilp.model.highs_model.compact_arrays`,
`thermomilp.model.level_highs.level_arrays`), so they are the models the MILP
engines get, handed to a clause-learning solver instead of an LP-based
branch-and-bound.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from thermomilp.core.errors import SolverUnavailable
from thermomilp.model.formulation import Formulation, cell_name


def cp_model_module() -> Any:
    """``ortools.sat.python.cp_model``, or
    [`SolverUnavailable`][thermomilp.core.errors.SolverUnavailable] naming the extra."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        from thermomilp.core.engines import ENGINES, Solver

        raise SolverUnavailable(f"the cpsat engine needs OR-Tools, which is not installed; "
                                f"to install it: {ENGINES[Solver.CPSAT].install_hint()}") from None
    return cp_model


def whole(value: float) -> int:
    """A coefficient or bound of these models as CP-SAT's integer (they all are whole)."""
    rounded = round(value)
    if not math.isclose(value, rounded, abs_tol=1e-9):
        raise ValueError(f"CP-SAT takes integer coefficients only, not {value}")
    return int(rounded)


def _model(n: int, fixed: dict[int, int], name: Callable[[int], str], arrays: tuple,
           names: list[str] | None = None) -> tuple[Any, list[Any]]:
    """A ``CpModel`` and its variables: (0) one 0/1 variable per column (a fixed one's
    domain is its value), named ``name(k)``, and the CSR rows of ``arrays``,
    ``lower <= sum values * x[indices] <= upper`` (an infinite side left open), named
    ``names[r]`` when given."""
    cp_model = cp_model_module()
    model = cp_model.CpModel()
    x = [model.new_int_var(fixed.get(k, 0), fixed.get(k, 1), name(k)) for k in range(n)]
    lower, upper, starts, indices, values = arrays
    ends = list(starts[1:]) + [len(indices)]
    for r, (begin, end) in enumerate(zip(starts, ends, strict=True)):
        expr = cp_model.LinearExpr.weighted_sum(
            [x[int(k)] for k in indices[begin:end]], [whole(v) for v in values[begin:end]])
        low = -cp_model.INT_MAX if math.isinf(lower[r]) else whole(lower[r])
        high = cp_model.INT_MAX if math.isinf(upper[r]) else whole(upper[r])
        row = model.add_linear_constraint(expr, low, high)
        if names:
            row.with_name(names[r])
    return model, x


def build_cpsat(form: Formulation) -> tuple[Any, list[Any]]:
    """``(model, x)``: the cell model of ``form``, ``x[k]`` the variable of cell k (row-major),
    its rows (1)-(4) named as in the other layers (``row_3``, ``prec_2_1_2_0``)."""
    from thermomilp.model.highs_model import matrix_arrays, row_names

    fixed = {form.index(cell): value for cell, value in form.fixed.items()}
    return _model(form.n_vars, fixed, lambda k: f"x_{cell_name(divmod(k, form.width))}",
                  matrix_arrays(form), row_names(form))


def build_cpsat_compact(form: Any) -> tuple[Any, list[Any]]:
    """The compact model (one binary per layer, rows (1')-(3'))."""
    from thermomilp.model.highs_model import compact_arrays

    return _model(form.n_vars, form.fixed, form.var_name, compact_arrays(form))


def build_cpsat_level(form: Any) -> tuple[Any, list[Any]]:
    """The level model (one binary per vessel and level, rows (L1), (L3), (L4) and the
    fixed cells)."""
    from thermomilp.model.level_highs import level_arrays

    return _model(form.n_vars, {}, lambda k: "z_{}_{}".format(*form.pairs[k]),
                  level_arrays(form))


__all__ = ["build_cpsat", "build_cpsat_compact", "build_cpsat_level", "cp_model_module",
           "whole"]
