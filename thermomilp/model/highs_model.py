"""The cell formulation straight into highspy, from numpy arrays (the fast path).

    x_ij in {0, 1}                                     (0)
    sum_j x_ij = R_i           for every clued row i   (1)
    sum_i x_ij = C_j           for every clued col j   (2)
    x_s - x_p <= 0             for every (s, p) in A   (3)
    x_a - x_b  = 0             for every (a, b) in E   (4)

Column ``k`` is cell ``(k // W, k % W)``. The constraint matrix is assembled
as CSR arrays with numpy -- no Python loop per constraint -- and handed to
HiGHS in one ``addRows`` call. Rows are named only on request (``names=True``)
because naming costs a call per row.
"""

from __future__ import annotations

import os
import sys
import threading
from itertools import accumulate
from typing import Any, Mapping

import numpy as np

from thermomilp.model.formulation import Formulation, cell_name

_BANNER_SHOWN = False
_BANNER_LOCK = threading.Lock()  # two threads' first Highs: one swallows the banner


def new_highs(verbose: bool = False) -> Any:
    """A ``highspy.Highs`` whose start-up banner does not reach stdout.

    HiGHS prints its banner on stdout when the first instance is created,
    which would corrupt ``--format json`` output; it goes to stderr when
    ``verbose`` and nowhere otherwise.
    """
    import highspy

    global _BANNER_SHOWN
    with _BANNER_LOCK:
        h = highspy.Highs() if _BANNER_SHOWN else _first_highs(verbose)
        _BANNER_SHOWN = True
    h.setOptionValue("output_flag", bool(verbose))
    return h


def _first_highs(verbose: bool) -> Any:
    """The process's first Highs, its banner sent to stderr (verbose) or nowhere."""
    import highspy

    sys.stdout.flush()
    saved = os.dup(1)
    sink = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(2 if verbose else sink, 1)
        return highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(sink)


def hide_banner(verbose: bool = False) -> None:
    """Make sure the HiGHS banner has been shown (or swallowed) once, without
    building a Highs object when it has (PuLP and Pyomo create their own)."""
    if not _BANNER_SHOWN:
        new_highs(verbose)


def matrix_arrays(form: Formulation) -> tuple[np.ndarray, ...]:
    """CSR arrays ``(lower, upper, starts, indices, values)`` of rows (1)-(4)."""
    H, W = form.height, form.width
    rows_i = np.fromiter(form.row_clues.keys(), dtype=np.int64, count=len(form.row_clues))
    cols_j = np.fromiter(form.col_clues.keys(), dtype=np.int64, count=len(form.col_clues))
    # (1) row i covers columns i*W .. i*W+W-1
    row_idx = (rows_i[:, None] * W + np.arange(W)[None, :]).ravel()
    # (2) column j covers columns j, W+j, 2W+j, ...
    col_idx = (np.arange(H)[None, :] * W + cols_j[:, None]).ravel()
    # (3), (4): two entries per row, +1 on the first cell and -1 on the second
    pairs = np.array(form.arcs + form.ties, dtype=np.int64).reshape(-1, 2, 2)
    pair_idx = (pairs[:, :, 0] * W + pairs[:, :, 1]).ravel()

    n_arc, n_tie = len(form.arcs), len(form.ties)
    indices = np.concatenate([row_idx, col_idx, pair_idx]).astype(np.int32)
    values = np.concatenate([
        np.ones(row_idx.size + col_idx.size),
        np.tile([1.0, -1.0], n_arc + n_tie),
    ])
    lengths = np.concatenate([
        np.full(rows_i.size, W), np.full(cols_j.size, H), np.full(n_arc + n_tie, 2)
    ]).astype(np.int32)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int32)
    clue_rhs = np.concatenate([
        np.fromiter(form.row_clues.values(), dtype=float, count=rows_i.size),
        np.fromiter(form.col_clues.values(), dtype=float, count=cols_j.size),
    ])
    lower = np.concatenate([clue_rhs, np.full(n_arc, -np.inf), np.zeros(n_tie)])
    upper = np.concatenate([clue_rhs, np.zeros(n_arc), np.zeros(n_tie)])
    return lower, upper, starts, indices, values


def row_names(form: Formulation) -> list[str]:
    return ([f"row_{i}" for i in form.row_clues] + [f"col_{j}" for j in form.col_clues]
            + [f"prec_{cell_name(s)}_{cell_name(p)}" for s, p in form.arcs]
            + [f"tie_{cell_name(a)}_{cell_name(b)}" for a, b in form.ties])


def csr(rows: list, lower: list[float], upper: list[float]) -> tuple[np.ndarray, ...]:
    """Rows given as ``(column, coefficient)`` terms, as the CSR arrays
    ``(lower, upper, starts, indices, values)`` of ``addRows``."""
    starts = list(accumulate((len(terms) for terms in rows), initial=0))[:-1]
    entries = [entry for terms in rows for entry in terms]
    return (np.array(lower, dtype=float), np.array(upper, dtype=float),
            np.array(starts, dtype=np.int32), np.array([c for c, _ in entries], dtype=np.int32),
            np.array([coef for _, coef in entries], dtype=float))


def highs_of(n: int, fixed: Mapping[int, float], arrays: tuple[np.ndarray, ...],
             verbose: bool = False) -> Any:
    """A ``highspy.Highs`` of ``n`` integer columns in [0, 1] (0), the columns in ``fixed``
    at their value by equal bounds, and the CSR rows ``arrays`` (``matrix_arrays``)."""
    import highspy

    h = new_highs(verbose)
    lb, ub = np.zeros(n), np.ones(n)
    if fixed:
        idx = np.fromiter(fixed, dtype=np.int64, count=len(fixed))
        lb[idx] = ub[idx] = np.fromiter(fixed.values(), dtype=float, count=len(fixed))
    h.addVars(n, lb, ub)
    h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                            np.full(n, highspy.HighsVarType.kInteger))
    lower, upper, starts, indices, values = arrays
    if lower.size:
        h.addRows(lower.size, lower, upper, indices.size, starts, indices, values)
    return h


def name_all(h: Any, columns: list[str], rows: list[str]) -> None:
    """Name the columns and rows of ``h`` (a call per name: only on request)."""
    for k, name in enumerate(columns):
        h.passColName(k, name)
    for r, name in enumerate(rows):
        h.passRowName(r, name)


def build_highs(form: Formulation, *, names: bool = True, verbose: bool = False) -> Any:
    """A ``highspy.Highs`` holding the cell model of ``form``."""
    fixed = {form.index(cell): value for cell, value in form.fixed.items()}
    h = highs_of(form.n_vars, fixed, matrix_arrays(form), verbose)  # (0), rows (1)-(4)
    if names:
        name_all(h, [f"x_{cell_name(cell)}" for cell in form.cells], row_names(form))
    return h


def compact_arrays(form) -> tuple[np.ndarray, ...]:
    """CSR arrays ``(lower, upper, starts, indices, values)`` of rows (1')-(3')."""
    lines = ((form.row_clues, form.row_terms), (form.col_clues, form.col_terms))
    rows = [terms[line] for clues, terms in lines for line in clues]
    clues = [float(clue) for clues, _ in lines for clue in clues.values()]
    rows += [((u, 1.0), (l, -1.0)) for u, l in form.chains]  # (3') y_u - y_l <= 0
    return csr(rows, clues + [-np.inf] * len(form.chains), clues + [0.0] * len(form.chains))


def build_highs_compact(form, *, names: bool = True, verbose: bool = False) -> Any:
    """A ``highspy.Highs`` holding the compact model (one binary per layer)."""
    h = highs_of(form.n_vars, form.fixed, compact_arrays(form), verbose)  # (0'), (1')-(3')
    if names:
        name_all(h, [form.var_name(k) for k in range(form.n_vars)],
                 [f"row_{i}" for i in form.row_clues] + [f"col_{j}" for j in form.col_clues]
                 + [f"prec_{form.var_name(u)}_{form.var_name(l)}" for u, l in form.chains])
    return h


def nogood_row(n_vars: int, on, over=None) -> tuple[float, np.ndarray, np.ndarray]:
    """The no-good cut of a 0/1 point as one HiGHS row ``(lower, indices, values)``.

    ``on`` holds the indices of the variables at 1. The cut
    ``sum_{k in over, x*_k=1} (1 - x_k) + sum_{k in over, x*_k=0} x_k >= 1``
    is written ``sum -x_k + sum x_k >= 1 - |on ∩ over|``; ``over`` = None is the
    canonical cut over every variable, a subset is a stronger cut that a
    caller may use when it knows every other solution changes one of those.
    """
    cols = (np.arange(n_vars, dtype=np.int32) if over is None
            else np.array(sorted(over), dtype=np.int32))
    values = np.where(np.isin(cols, np.fromiter(on, dtype=np.int64)), -1.0, 1.0)
    return 1.0 - float((values < 0).sum()), cols, values
