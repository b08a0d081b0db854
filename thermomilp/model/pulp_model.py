"""The cell formulation in PuLP.

    x_ij in {0, 1}                                     (0)
    sum_j x_ij = R_i           for every clued row i   (1)
    sum_i x_ij = C_j           for every clued col j   (2)
    x_s <= x_p                 for every (s, p) in A   (3)
    x_a  = x_b                 for every (a, b) in E   (4)

No objective: any feasible x is a solution. Constraint names (``row_3``,
``col_0``, ``prec_2_1_2_0``, ``tie_4_1_4_0``) make an exported LP file
readable. Variables are created by the problem (``add_variable``), which
works on PuLP 3.3 and is the only way on PuLP 4. Every constraint has an
expression on its left (``x_a - x_b == 0``, never ``x_a == x_b``): on PuLP 4
comparing two bare variables with ``==`` is Python equality, a bool.

Each row is added by `add_row` from its list of (variable, coefficient)
terms, written out as in the algebra: ``[(x_s, 1), (x_p, -1)] <= 0`` is (3).
PuLP's operators (``x[s] <= x[p]``, ``lpSum``) would build the same row one
intermediate expression at a time, for more time (docs/performance.md, item 9;
``python benchmarks/fast_paths.py add_row``).
"""

from __future__ import annotations

from typing import Any

import pulp

from thermomilp.model.formulation import Formulation, cell_name


def binary(prob: Any, name: str, fixed: int | None = None) -> Any:
    """A binary variable of ``prob``; ``fixed`` (0 or 1) pins it by its bounds.

    The bounds are set after creation: PuLP 3 resets a new binary's bounds
    to [0, 1] whatever it is given, PuLP 4 keeps them; both keep these.
    """
    var = prob.add_variable(name, cat=pulp.LpBinary)
    if fixed is not None:
        var.lowBound = var.upBound = fixed
    return var


EQ, LE, GE = "==", "<=", ">="
_PULP4 = hasattr(pulp.LpAffineExpression, "from_list")  # PuLP 4: expressions live in Rust


def add_row(prob: Any, terms: list, sense: str, rhs: float, name: str) -> None:
    """``prob += sum(c * v for v, c in terms) <sense> rhs``, named ``name``, in one step.

    PuLP 4 builds the expression with ``LpAffineExpression.from_list`` (its
    constraints are rows of a Rust model); PuLP 3 takes the term list in
    ``LpAffineExpression`` and a ready ``LpConstraint``.
    """
    code = {EQ: pulp.LpConstraintEQ, LE: pulp.LpConstraintLE, GE: pulp.LpConstraintGE}[sense]
    if _PULP4:
        expr = pulp.LpAffineExpression.from_list(terms, constant=-rhs)
        expr.sense = code
        prob.addConstraint(expr, name)
    else:
        prob.addConstraint(pulp.LpConstraint(pulp.LpAffineExpression(terms), code, name, rhs))


def build_pulp(form: Formulation, name: str = "thermomilp") -> tuple[Any, dict]:
    """Return ``(problem, x)`` with ``x[(i, j)]`` the cell variables."""
    prob = pulp.LpProblem(name, pulp.LpMinimize)

    # Variables (0): x_ij binary; cells fixed by the presolve get equal bounds
    x = {cell: binary(prob, f"x_{cell_name(cell)}", form.fixed.get(cell)) for cell in form.cells}

    # Objective: none (a feasibility model)
    prob += pulp.lpSum([])

    # (1) row clues
    for i, R_i in form.row_clues.items():
        add_row(prob, [(x[i, j], 1) for j in range(form.width)], EQ, R_i, f"row_{i}")
    # (2) column clues
    for j, C_j in form.col_clues.items():
        add_row(prob, [(x[i, j], 1) for i in range(form.height)], EQ, C_j, f"col_{j}")
    # (3) precedence: a cell fills only if its predecessor does, x_s - x_p <= 0
    for s, p in form.arcs:
        add_row(prob, [(x[s], 1), (x[p], -1)], LE, 0, f"prec_{cell_name(s)}_{cell_name(p)}")
    # (4) ties: cells of one tank row fill together, x_a - x_b = 0
    for a, b in form.ties:
        add_row(prob, [(x[a], 1), (x[b], -1)], EQ, 0, f"tie_{cell_name(a)}_{cell_name(b)}")
    return prob, x


def add_nogood(prob: Any, x: dict, ones: set, name: str) -> None:
    """Cut off one solution: sum_{x*=1} (1 - x) + sum_{x*=0} x >= 1,
    that is  - sum_{x*=1} x + sum_{x*=0} x >= 1 - |ones|."""
    terms = [(var, -1 if cell in ones else 1) for cell, var in x.items()]
    add_row(prob, terms, GE, 1 - sum(cell in ones for cell in x), name)


def build_pulp_compact(form, name: str = "thermomilp_compact") -> tuple[Any, dict]:
    """Return ``(problem, y)`` with ``y[l]`` the layer variables (docs: compact model)."""
    prob = pulp.LpProblem(name, pulp.LpMinimize)

    # Variables (0'): y_l binary, one per layer (a tank row, a thermometer cell)
    y = {layer: binary(prob, form.var_name(layer), form.fixed.get(layer))
         for layer in range(form.n_vars)}

    # Objective: none (a feasibility model)
    prob += pulp.lpSum([])

    # (1') row clues: each layer counts with its number of cells in the row
    for i, R_i in form.row_clues.items():
        add_row(prob, [(y[l], n) for l, n in form.row_terms[i]], EQ, R_i, f"row_{i}")
    # (2') column clues
    for j, C_j in form.col_clues.items():
        add_row(prob, [(y[l], m) for l, m in form.col_terms[j]], EQ, C_j, f"col_{j}")
    # (3') a layer fills only if the layer below it does, y_u - y_l <= 0
    for u, l in form.chains:
        add_row(prob, [(y[u], 1), (y[l], -1)], LE, 0,
                f"prec_{form.var_name(u)}_{form.var_name(l)}")
    return prob, y
