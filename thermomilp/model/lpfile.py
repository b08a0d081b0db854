"""A built model as the LP or MPS file a student reads: the names of docs/formulation.md.

The modelling layers' own writers add artefacts a student should not have to
explain: PuLP writes a ``__dummy`` variable into an empty objective, Pyomo
names rows ``c_e_row(3)_`` and adds ``ONE_VAR_CONSTANT``. So every layer's
model is read back into one neutral `LinearModel` -- the rows,
coefficients and bounds the layer really built -- and written here:

    \\ the cell formulation of docs/formulation.md, built with PuLP 4.2.0
    Minimize
    obj: 0 x_0_0
    Subject To
    row_1: x_1_0 + x_1_1 + x_1_2 = 0
    prec_0_0_1_0: x_0_0 - x_1_0 <= 0
    tie_1_1_1_0: - x_1_0 + x_1_1 = 0
    Binaries
    x_0_0 x_0_1 ...
    End

The readers (``from_pulp``, ``from_pyomo``, ``from_highs``) take the model
object and its variables in formulation order; nothing here imports a
solver library except ``from_pyomo`` (Pyomo's own linear-expression reader).
Rows keep the order the layer holds them in; the terms of a row follow the
variable order. Same model, same file, whichever layer built it
(tests/test_golden_models.py compares them with the committed files).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from thermomilp.core.errors import ExportError
from thermomilp.core.untrusted import comment_text

EQ, LE, GE = "=", "<=", ">="
LINE = 78  # wrap long rows (the level model's clue rows) for reading and for LP readers
TITLE_MAX = 160  # the comment line's length bound
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,254}")
"""What a column or row name may be: the names of docs/formulation.md (``x_3_1``,
``prec_2_1_2_0``), never text from a board, and valid in every LP and MPS reader."""


@dataclass(frozen=True)
class Column:
    name: str
    lower: float = 0.0
    upper: float = 1.0
    integer: bool = True


@dataclass(frozen=True)
class Row:
    name: str
    terms: tuple[tuple[int, float], ...]  # (column index, coefficient), in column order
    sense: str
    rhs: float


@dataclass(frozen=True)
class LinearModel:
    """A feasibility MILP: columns, rows, no objective."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]


def _row(name: str, coefficients: dict[int, float], sense: str, rhs: float) -> Row:
    terms = tuple((k, float(v)) for k, v in sorted(coefficients.items()) if v != 0)
    return Row(name, terms, sense, float(rhs) + 0.0)  # + 0.0: never write -0


def _sense(lower: float | None, upper: float | None) -> tuple[str, float]:
    """A row's bounds (None or an infinity: no bound) as (sense, right-hand side)."""
    if lower is not None and lower == upper:
        return EQ, lower
    if upper is not None and upper < float("inf"):
        return LE, upper
    return GE, lower  # type: ignore[return-value]  # a row has one bound at least


# -- Readers: one per modelling layer --------------------------------------


def from_pulp(prob: Any, variables: list, title: str) -> LinearModel:
    """An ``LpProblem`` (PuLP 3: ``constraints`` is a dict; PuLP 4: a method)."""
    index = {var.name: k for k, var in enumerate(variables)}
    columns = tuple(Column(var.name, float(var.lowBound), float(var.upBound),
                           var.cat != "Continuous") for var in variables)
    constraints = prob.constraints
    constraints = list(constraints.values()) if isinstance(constraints, dict) else constraints()
    sense_of = {0: EQ, -1: LE, 1: GE}
    rows = []
    for con in constraints:
        coefficients: dict[int, float] = {}
        for var, coef in con.items():
            coefficients[index[var.name]] = coefficients.get(index[var.name], 0.0) + coef
        rows.append(_row(con.name, coefficients, sense_of[con.sense], -con.constant))
    return LinearModel(title, columns, tuple(rows))


def from_pyomo(model: Any, variables: list, title: str,
               row_name: Callable[[Any], str] | None = None) -> LinearModel:
    """A Pyomo ``ConcreteModel``: every active constraint, in declaration order.

    ``variables`` are ``(name, var)`` pairs; a row is named
    ``<component>_<index parts>`` (``row[3]`` -> ``row_3``) unless
    ``row_name`` says otherwise.
    """
    from pyomo.core import Constraint
    from pyomo.repn import generate_standard_repn

    index = {id(var): k for k, (_, var) in enumerate(variables)}
    columns = tuple(Column(name, float(var.lb), float(var.ub), var.is_integer())
                    for name, var in variables)
    rows = []
    for con in model.component_data_objects(Constraint, active=True, sort=False):
        repn = generate_standard_repn(con.body, compute_values=True)
        coefficients: dict[int, float] = {}
        for var, coef in zip(repn.linear_vars, repn.linear_coefs, strict=True):
            coefficients[index[id(var)]] = coefficients.get(index[id(var)], 0.0) + coef
        sense, rhs = _sense(con.lb, con.ub)
        name = row_name(con) if row_name else _pyomo_name(con)
        rows.append(_row(name, coefficients, sense, float(rhs) - float(repn.constant or 0.0)))
    return LinearModel(title, columns, tuple(rows))


def _pyomo_name(con: Any) -> str:
    idx = con.index()
    parts = idx if isinstance(idx, tuple) else (() if idx is None else (idx,))
    return "_".join([con.parent_component().local_name, *map(str, parts)])


def from_highs(h: Any, title: str) -> LinearModel:
    """A ``highspy.Highs`` with names (``build_highs(names=True)``)."""
    lp = h.getLp()
    n = lp.num_col_
    integrality = list(lp.integrality_) or [None] * n
    columns = tuple(Column(lp.col_names_[k], float(lp.col_lower_[k]), float(lp.col_upper_[k]),
                           str(integrality[k]).endswith("kInteger")) for k in range(n))
    by_row: list[dict[int, float]] = [{} for _ in range(lp.num_row_)]
    matrix = lp.a_matrix_
    starts, indices, values = list(matrix.start_), list(matrix.index_), list(matrix.value_)
    colwise = str(matrix.format_).endswith("kColwise")
    for outer in range(n if colwise else lp.num_row_):
        for p in range(starts[outer], starts[outer + 1]):
            r, c = (indices[p], outer) if colwise else (outer, indices[p])
            by_row[r][c] = values[p]
    rows = [_row(lp.row_names_[r], by_row[r], *_sense(lp.row_lower_[r], lp.row_upper_[r]))
            for r in range(lp.num_row_)]
    return LinearModel(title, columns, tuple(rows))


# -- Writers ---------------------------------------------------------------


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _expression(model: LinearModel, row: Row) -> list[str]:
    """``x_1_0 + 2 y_3_1 - x_0_0`` as words, one term (with its sign) each."""
    words: list[str] = []
    for k, coef in row.terms:
        name = model.columns[k].name
        body = name if abs(coef) == 1 else f"{_number(abs(coef))} {name}"
        words.append(("- " if coef < 0 else "+ " if words else "") + body)
    return words


def _packed(words: list[str], first: str = "", indent: str = "   ") -> list[str]:
    """Words packed into lines of at most LINE characters."""
    lines, line = [], first
    for word in words:
        if line.strip() and len(line) + 1 + len(word) > LINE:
            lines.append(line)
            line = indent
        line = f"{line} {word}" if line.strip() else f"{line}{word}"
    return lines + [line]


def _is_binary(column: Column) -> bool:
    return column.integer and column.lower == 0 and column.upper == 1


def _checked(model: LinearModel) -> None:
    """Refuse a name that is not one of ours: an LP or MPS file is made of names
    and numbers, so a name with a space, a newline or a sign could add a row."""
    for name in [c.name for c in model.columns] + [r.name for r in model.rows]:
        if not NAME.fullmatch(name):
            raise ExportError(f"cannot export a model with the name {name!r}: names are "
                              "letters, digits and _ (docs/formulation.md)")


def _title(model: LinearModel) -> str:
    """The title as one comment line (the board's name in it is untrusted)."""
    return comment_text(model.title, TITLE_MAX)


def to_lp(model: LinearModel) -> str:
    """CPLEX LP format, as read by HiGHS, glpsol --lp, CBC and most others."""
    _checked(model)
    # No objective (any feasible point is a solution); glpsol refuses an empty
    # one, so it reads "minimise 0 times the first variable".
    first = f" 0 {model.columns[0].name}" if model.columns else ""
    out = [f"\\ {_title(model)}", "Minimize", f"obj:{first}", "Subject To"]
    for row in model.rows:
        out += _packed(_expression(model, row) + [f"{row.sense} {_number(row.rhs)}"],
                       f"{row.name}:")
    bounded = [c for c in model.columns if not _is_binary(c)]
    if bounded:
        out.append("Bounds")
        for c in bounded:
            out.append(f"{c.name} = {_number(c.lower)}" if c.lower == c.upper
                       else f"{_number(c.lower)} <= {c.name} <= {_number(c.upper)}")
    for section, wanted in (("Binaries", _is_binary),
                            ("Generals", lambda c: c.integer and not _is_binary(c))):
        names = [c.name for c in model.columns if wanted(c)]
        if names:
            out += [section] + _packed(names, "", "")
    out.append("End")
    return "\n".join(out) + "\n"


def to_mps(model: LinearModel) -> str:
    """Free MPS, integer columns between markers.

    Free, not fixed: fixed MPS allows names of at most 8 characters, and the row
    names of docs/formulation.md are longer (``prec_2_1_2_0``). Read it with
    ``glpsol --freemps``, ``cbc``, HiGHS or any reader of free MPS (the file's
    second comment line says so); ``glpsol --mps`` reads fixed MPS only.
    """
    _checked(model)
    kind = {EQ: "E", LE: "L", GE: "G"}
    out = [f"* {_title(model)}", "* free MPS: glpsol --freemps, cbc, highs",
           "NAME thermomilp", "ROWS", " N  obj"]
    out += [f" {kind[row.sense]}  {row.name}" for row in model.rows]
    entries: list[list[tuple[str, float]]] = [[] for _ in model.columns]
    for row in model.rows:
        for k, coef in row.terms:
            entries[k].append((row.name, coef))
    out.append("COLUMNS")
    marker, inside = 0, False
    for column, cells in zip(model.columns, entries, strict=True):
        if column.integer != inside:  # integer columns sit between MARKER lines
            out.append(f"    MARKER{marker} 'MARKER' '{'INTORG' if column.integer else 'INTEND'}'")
            marker += not column.integer
            inside = column.integer
        out += [f"    {column.name} {row} {_number(coef)}" for row, coef in cells] or \
               [f"    {column.name} obj 0"]
    if inside:
        out.append(f"    MARKER{marker} 'MARKER' 'INTEND'")
    out.append("RHS")
    out += [f"    RHS {row.name} {_number(row.rhs)}" for row in model.rows if row.rhs != 0]
    out.append("BOUNDS")
    for column in model.columns:
        if _is_binary(column):
            out.append(f" BV BND {column.name}")
        elif column.lower == column.upper:
            out.append(f" FX BND {column.name} {_number(column.lower)}")
        else:
            out.append(f" LO BND {column.name} {_number(column.lower)}")
            out.append(f" UP BND {column.name} {_number(column.upper)}")
    out.append("ENDATA")
    return "\n".join(out) + "\n"
