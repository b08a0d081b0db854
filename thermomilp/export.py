"""Exports of a puzzle's model: LP, MPS, GMPL/AMPL ``.dat`` and LaTeX.

* ``lp`` / ``mps``: the cell formulation (0)-(4) of docs/formulation.md as
  built by one modelling layer (``pulp``, ``pyomo`` or ``highs``), written by
  that layer's own writer with readable names (``x_3_1``, ``row_3``,
  ``prec_2_1_2_0``, ``tie_4_1_4_0``).
* ``dat``: the data section for ``models/thermometers.mod`` (Thermometers)
  or ``models/aquarium.mod`` (Aquarium), readable by ``glpsol`` and by
  Pyomo's ``DataPortal`` (``models/thermometers_abstract.py``).
* ``latex``: every constraint of the instance written out, for slides;
  refused for boards above :data:`LATEX_MAX_CELLS` cells, whose listing
  would not fit on a slide anyway.
"""

from __future__ import annotations

import os
import tempfile
from typing import Callable

from thermomilp.errors import ThermomilpError
from thermomilp.model.formulation import formulate
from thermomilp.puzzle import Puzzle

TARGETS = ("lp", "mps", "dat", "latex")
LATEX_MAX_CELLS = 64


class ExportError(ThermomilpError):
    """An export that cannot be made (unknown target, board too large, ...)."""


def export(puzzle: Puzzle, to: str, backend: str = "pulp") -> str:
    """The text of ``puzzle`` exported to ``to`` (one of :data:`TARGETS`)."""
    if to == "dat":
        return to_dat(puzzle)
    if to == "latex":
        return to_latex(puzzle)
    if to in ("lp", "mps"):
        return model_file(puzzle, to, backend)
    raise ExportError(f"unknown export target {to!r}; choose one of {', '.join(TARGETS)}")


# --------------------------------------------------------------------------
# LP / MPS through each modelling layer's own writer
# --------------------------------------------------------------------------


def model_file(puzzle: Puzzle, fmt: str, backend: str = "pulp") -> str:
    """The cell model in LP or MPS format, written by ``backend``'s writer."""
    writers: dict[str, Callable[[Puzzle, str, str], None]] = {
        "pulp": _write_pulp, "pyomo": _write_pyomo, "highs": _write_highs}
    if backend not in writers:
        raise ExportError(f"unknown backend {backend!r}; choose one of {', '.join(writers)}")
    with tempfile.TemporaryDirectory(prefix="thermomilp-export-") as tmp:
        path = os.path.join(tmp, f"model.{fmt}")
        writers[backend](puzzle, fmt, path)
        with open(path, encoding="utf-8") as handle:
            return handle.read()


def _write_pulp(puzzle: Puzzle, fmt: str, path: str) -> None:
    from thermomilp.model.pulp_model import build_pulp

    prob, _ = build_pulp(formulate(puzzle), name=_model_name(puzzle))
    if fmt == "lp":
        prob.writeLP(path)
    else:
        prob.writeMPS(path)
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(without_pulp_dummy(text))


PULP_DUMMY = "__dummy"


def first_variable(text: str) -> str:
    """The first ``x_i_j`` named in a model file."""
    import re

    found = re.search(r"\bx_\d+_\d+\b", text)
    return found.group(0) if found else "x_0_0"


def without_pulp_dummy(text: str) -> str:
    """PuLP's file minus its ``__dummy`` variable (its stand-in for "no objective").

    The feasibility model has an empty objective; PuLP writes it as a fixed
    variable ``__dummy``, which means nothing to a reader. The LP objective
    becomes ``OBJ: 0 x_0_0`` (zero, written so glpsol reads it too), the
    dummy's bound and MPS entries go, and a ``Bounds`` section left empty
    goes with them.
    """
    out: list[str] = []
    for line in text.splitlines():
        words = line.split()
        if line.strip() == f"OBJ: {PULP_DUMMY}":
            out.append(f"OBJ: 0 {first_variable(text)}")
        elif PULP_DUMMY not in words:
            out.append(line)
    cleaned = [line for k, line in enumerate(out)
               if not (line == "Bounds" and (k + 1 == len(out) or not out[k + 1].startswith(" ")))]
    return "\n".join(cleaned) + ("\n" if text.endswith("\n") else "")


def _write_pyomo(puzzle: Puzzle, fmt: str, path: str) -> None:
    from thermomilp.model.pyomo_model import build_pyomo

    import logging

    model = build_pyomo(formulate(puzzle))
    model.del_component(model.nogood)  # empty; some writers dislike an empty list
    # Pyomo warns that the feasibility model's objective is a constant; that is the point.
    quiet = logging.getLogger("pyomo")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        model.write(path, io_options={"symbolic_solver_labels": True})
    finally:
        quiet.setLevel(level)


def _write_highs(puzzle: Puzzle, fmt: str, path: str) -> None:
    from thermomilp.model.highs_model import build_highs

    h = build_highs(formulate(puzzle), names=True)
    h.writeModel(path)


def _model_name(puzzle: Puzzle) -> str:
    raw = puzzle.name or puzzle.kind
    return "".join(ch if ch.isalnum() else "_" for ch in raw) or "thermomilp"


# --------------------------------------------------------------------------
# GMPL / AMPL data
# --------------------------------------------------------------------------


def to_dat(puzzle: Puzzle) -> str:
    """The ``data;`` section for models/thermometers.mod or models/aquarium.mod."""
    model = "thermometers.mod" if puzzle.kind == "thermometers" else "aquarium.mod"
    out = [f"/* {puzzle.name or puzzle.kind} -- data for models/{model}, "
           "written by thermomilp export */",
           "data;",
           f"param H := {puzzle.height};",
           f"param W := {puzzle.width};"]
    for set_name, param, clues in (("RowsClued", "R", puzzle.rows), ("ColsClued", "C", puzzle.cols)):
        clued = [(k, v) for k, v in enumerate(clues) if v is not None]
        out.append(f"set {set_name} := {' '.join(str(k) for k, _ in clued)};")
        if clued:
            out.append(f"param {param} := {'  '.join(f'{k} {v}' for k, v in clued)};")
    if puzzle.kind == "thermometers":
        out.append(f"set T := {' '.join(str(t) for t in range(len(puzzle.vessels)))};")
        out.append("param L := " + "  ".join(
            f"{t} {v.depth}" for t, v in enumerate(puzzle.vessels)) + ";")
        for name, axis in (("tr", 0), ("tc", 1)):
            out.append(f"param {name} :=")
            for t, vessel in enumerate(puzzle.vessels):
                out.append("   " + "  ".join(f"{t} {k} {cell[axis]}"
                                             for k, cell in enumerate(vessel.cells, start=1)))
            out[-1] += ";"
    else:
        tank = {cell: t for t, v in enumerate(puzzle.vessels) for cell in v.cells}
        out.append("param reg : " + " ".join(str(j) for j in range(puzzle.width)) + " :=")
        for i in range(puzzle.height):
            out.append(f"   {i}  " + " ".join(str(tank[i, j]) for j in range(puzzle.width)))
        out[-1] += ";"
    out.append("end;")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# LaTeX for slides
# --------------------------------------------------------------------------


def to_latex(puzzle: Puzzle) -> str:
    """Every constraint of the instance as an amsmath ``align*`` block."""
    cells = puzzle.height * puzzle.width
    if cells > LATEX_MAX_CELLS:
        raise ExportError(
            f"the board has {cells} cells; LaTeX export writes every constraint out and is "
            f"meant for slides, so it is limited to {LATEX_MAX_CELLS} cells (8x8). Export "
            "--to lp for larger boards")
    form = formulate(puzzle)

    def x(cell: tuple[int, int]) -> str:
        return f"x_{{{cell[0]},{cell[1]}}}"

    lines = [f"% {puzzle.name or puzzle.kind}: the cell formulation of docs/formulation.md",
             "\\begin{align*}"]
    for i, clue in form.row_clues.items():
        lhs = " + ".join(x((i, j)) for j in range(puzzle.width))
        lines.append(f"  {lhs} &= {clue} && \\text{{row {i}}} \\tag{{1.{i}}}\\\\")
    for j, clue in form.col_clues.items():
        lhs = " + ".join(x((i, j)) for i in range(puzzle.height))
        lines.append(f"  {lhs} &= {clue} && \\text{{column {j}}} \\tag{{2.{j}}}\\\\")
    owner = puzzle.rank_of
    for s, p in form.arcs:
        what = "thermometer" if puzzle.kind == "thermometers" else "tank"
        label = puzzle.vessels[owner[s][0]].label
        lines.append(f"  {x(s)} &\\le {x(p)} && \\text{{{what} {label}}}\\\\")
    for a, b in form.ties:
        label = puzzle.vessels[owner[a][0]].label
        lines.append(f"  {x(a)} &= {x(b)} && \\text{{tank {label}, one row}}\\\\")
    lines.append(f"  x_{{i,j}} &\\in \\{{0,1\\}} && 0 \\le i < {puzzle.height},\\ "
                 f"0 \\le j < {puzzle.width}")
    lines.append("\\end{align*}")
    return "\n".join(lines) + "\n"
