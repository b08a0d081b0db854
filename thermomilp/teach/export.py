"""Exports of a puzzle's model: LP, MPS, GMPL/AMPL ``.dat`` and LaTeX.

* ``lp`` / ``mps``: a formulation of docs/formulation.md (``cell`` (0)-(4),
  ``compact`` (0')-(3') or ``level`` (L0)-(L4)) as built by one modelling
  layer (``pulp``, ``pyomo`` or ``highs``), written by ``model/lpfile.py`` with the
  names of the docs and none of the writers' artefacts (tests/golden/).
* ``dat``: the data section for ``models/thermometers.mod`` (Thermometers)
  or ``models/aquarium.mod`` (Aquarium), readable by ``glpsol`` and by
  Pyomo's ``DataPortal`` (``models/thermometers_abstract.py``).
  A formulation other than ``cell`` is refused (`export`), not ignored.
* ``latex``: every constraint of the instance written out, for slides; refused above
  `LATEX_MAX_CELLS` cells. The cell formulation is written by hand; ``compact`` and
  ``level`` are listed row by row from the model the layer builds.

A board's name and tank labels are untrusted: in every export they are only text in a
comment (`comment_text`) or a LaTeX label (`latex_text`), never a variable, row, set or
parameter name.
"""

from __future__ import annotations

from thermomilp.core.errors import ConfigError, ExportError, RuleNotSupported
from thermomilp.core.notation import column_name, number, row_name, vessel_name
from thermomilp.core.puzzle import Puzzle
from thermomilp.core.settings import Backend, FormulationKind, Settings, settings_from
from thermomilp.core.untrusted import comment_text
from thermomilp.model import lpfile
from thermomilp.model.formulation import formulate
from thermomilp.model.registry import BuildOptions, build, formulation_for, kind_info

TARGETS = ("lp", "mps", "dat", "latex")
LATEX_MAX_CELLS = 64


def export(puzzle: Puzzle, to: str, backend: Backend | str | None = None,
           formulation: FormulationKind | str | None = None, *,
           settings: Settings | None = None) -> str:
    """The text of ``puzzle`` exported to ``to`` (one of `TARGETS`). The
    settings' (default: [`Settings`][thermomilp.core.settings.Settings]: backend ``highs``,
    formulation ``cell``) ``backend`` and ``formulation`` choose the model an LP / MPS file holds,
    ``formulation`` the one a LaTeX listing shows (``backend`` builds it when it is
    not ``cell``); ``backend`` and ``formulation`` given here override them. A ``dat``
    file is data for the cell model of ``models/*.mod``: another formulation is an
    [`ExportError`][thermomilp.core.errors.ExportError]."""
    try:
        chosen = settings_from(settings, backend=backend, formulation=formulation)
    except ConfigError as exc:
        raise ExportError(str(exc)) from None
    kind = chosen.formulation
    if to == "dat":
        if kind is not FormulationKind.CELL:
            raise ExportError(f"--to dat writes the data of the cell model "
                              f"(models/*.mod), not the {kind} "
                              "formulation: export --to lp, mps or latex for it")
        return to_dat(puzzle)
    if to == "latex":
        return (to_latex(puzzle) if kind is FormulationKind.CELL
                else model_latex(puzzle, chosen.backend, kind))
    if to in ("lp", "mps"):  # built by the layer, written by model/lpfile.py
        model = linear_model(puzzle, chosen.backend, kind)
        return lpfile.to_lp(model) if to == "lp" else lpfile.to_mps(model)
    raise ExportError(f"unknown export target {to!r}; choose one of {', '.join(TARGETS)}")


# -- LP / MPS: each modelling layer builds, model.lpfile writes ------------


def linear_model(puzzle: Puzzle, layer: Backend, kind: FormulationKind):
    """The model ``layer`` builds for ``kind`` (the registry
    [`thermomilp.model.registry.MODELS`][thermomilp.model.registry.MODELS]), read back as an
    lpfile.LinearModel."""
    if layer not in (Backend.PULP, Backend.PYOMO, Backend.HIGHS):
        raise ExportError(f"LP and MPS files are written from the pulp, pyomo and highs "
                          f"models; the {layer} model is not a MILP file (choose --backend "
                          "highs, pulp or pyomo)")
    title = (f"{_name(puzzle)}: the {kind} formulation of "
             f"docs/formulation.md, built with {_version(layer)}")
    form = formulation_for(puzzle, kind)
    built = build(form, layer, BuildOptions(name=_model_name(puzzle), names=True))
    names = [kind_info(form).var_name(form, k) for k in range(form.n_vars)]
    if layer == Backend.PULP:
        return lpfile.from_pulp(built.model, list(built.variables), title)
    if layer == Backend.HIGHS:
        return lpfile.from_highs(built.model, title)

    def row_name(con) -> str:
        index = con.index()
        if con.parent_component().local_name == "prec" and len(index) == 2:
            upper, lower = index  # the compact model's prec[u, l]: named by its layers
            return f"prec_{names[upper]}_{names[lower]}"
        return lpfile._pyomo_name(con)

    return lpfile.from_pyomo(built.model, list(zip(names, built.variables, strict=True)), title,
                             row_name)


def _version(layer: Backend) -> str:
    """The modelling layer and its version, as the file's first comment names it."""
    if layer == Backend.PULP:
        import pulp

        return f"PuLP {pulp.__version__}"
    if layer == Backend.PYOMO:
        import pyomo.version

        return f"Pyomo {pyomo.version.version}"
    import importlib.metadata

    return f"highspy {importlib.metadata.version('highspy')}"


def _model_name(puzzle: Puzzle) -> str:
    """The name handed to PuLP's problem (never written by model/lpfile.py)."""
    raw = (puzzle.name or puzzle.kind)[:40]
    return "".join(ch if ch.isascii() and ch.isalnum() else "_" for ch in raw) or "thermomilp"


def _name(puzzle: Puzzle) -> str:
    """The board's name for a comment line: untrusted, so made inert."""
    return comment_text(puzzle.name or puzzle.kind)


# -- GMPL / AMPL data ------------------------------------------------------


def to_dat(puzzle: Puzzle) -> str:
    """The ``data;`` section for models/thermometers.mod or models/aquarium.mod."""
    model = "thermometers.mod" if puzzle.kind == "thermometers" else "aquarium.mod"
    if puzzle.rule != "tank":
        raise RuleNotSupported("models/aquarium.mod states the tank rule (one waterline per "
                               "tank); this board follows the pool rule -- export it --to lp "
                               "or --to mps, which carry the layer tree")
    out = [f"/* {_name(puzzle)} -- data for models/{model}, "
           "written by thermomilp export */",
           "# rows and columns are the model's indices, its sets I = 0..H-1 and J = 0..W-1:",
           "# index i is row i+1 as the hints count, cell (i,j) here is their (i+1,j+1)",
           "data;",
           f"param H := {puzzle.height};",
           f"param W := {puzzle.width};"]
    for set_name, param, clues in (("RowsClued", "R", puzzle.rows),
                                   ("ColsClued", "C", puzzle.cols)):
        clued = [(k, v) for k, v in enumerate(clues) if v is not None]
        out.append(f"set {set_name} := {' '.join(str(k) for k, _ in clued)};")
        if clued:
            out.append(f"param {param} := {'  '.join(f'{k} {v}' for k, v in clued)};")
    if puzzle.kind == "thermometers":
        ids = _thermometer_ids(puzzle)
        out.append("# thermometer t is thermometer t of the hints and the picture (from 1)")
        out.append(f"set T := {' '.join(ids)};")
        out.append("param L := " + "  ".join(
            f"{t} {v.depth}" for t, v in zip(ids, puzzle.vessels, strict=True)) + ";")
        for name, axis in (("tr", 0), ("tc", 1)):
            out.append(f"param {name} :=")
            for t, vessel in zip(ids, puzzle.vessels, strict=True):
                out.append("   " + "  ".join(f"{t} {k} {cell[axis]}"
                                             for k, cell in enumerate(vessel.cells, start=1)))
            out[-1] += ";"
    else:
        out.append("# reg: the tanks numbered from 1 in order of their first cell, row by row")
        tank = {cell: number(t) for t, v in enumerate(puzzle.vessels) for cell in v.cells}
        out.append("param reg : " + " ".join(str(j) for j in range(puzzle.width)) + " :=")
        for i in range(puzzle.height):
            out.append(f"   {i}  " + " ".join(str(tank[i, j]) for j in range(puzzle.width)))
        out[-1] += ";"
    out.append("end;")
    return "\n".join(out) + "\n"


def _thermometer_ids(puzzle: Puzzle) -> list[str]:
    """The members of the set ``T``: each thermometer's number as the hints name it
    (its label, counted from 1; a janko.at file's own numbers), or its position from 1
    when some label is not a plain number."""
    labels = [v.label for v in puzzle.vessels]
    if all(label.isascii() and label.isdigit() for label in labels):
        return labels
    return [str(number(t)) for t in range(len(labels))]


# -- LaTeX for slides ------------------------------------------------------


def _latex_size(puzzle: Puzzle) -> None:
    cells = puzzle.height * puzzle.width
    if cells > LATEX_MAX_CELLS:
        raise ExportError(
            f"the board has {cells} cells; LaTeX export writes every constraint out and is "
            f"meant for slides, so it is limited to {LATEX_MAX_CELLS} cells (8x8). Export "
            "--to lp for larger boards")


def model_latex(puzzle: Puzzle, layer: Backend, kind: FormulationKind) -> str:
    """Every row of ``kind`` as ``layer`` builds it (the rows of the LP file, with its
    names), as an amsmath ``align*`` block."""
    _latex_size(puzzle)
    model = linear_model(puzzle, layer, kind)

    def var(k: int) -> str:
        head, *index = model.columns[k].name.split("_")
        return f"{head}_{{{','.join(index)}}}" if index else head

    def term(k: int, coef: float, first: bool) -> str:
        sign = "- " if coef < 0 else ("" if first else "+ ")
        factor = "" if abs(coef) == 1 else f"{abs(coef):g}\\,"
        return f"{sign}{factor}{var(k)}"

    lines = [f"% {_name(puzzle)}: the {kind} formulation of "
             "docs/formulation.md, row by row as in the LP file", "\\begin{align*}"]
    for row in model.rows:
        lhs = " ".join(term(k, c, n == 0) for n, (k, c) in enumerate(row.terms)) or "0"
        sense = "=" if row.sense == lpfile.EQ else ("\\le" if row.sense == lpfile.LE else "\\ge")
        name = row.name.replace("_", "\\_")
        lines.append(f"  {lhs} &{sense} {row.rhs:g} && \\text{{{name}}}\\\\")
    domains = dict.fromkeys((c.name.split("_")[0], c.lower, c.upper, c.integer)
                            for c in model.columns)  # one line per kind of variable
    for head, lower, upper, integer in domains:
        if integer and (lower, upper) == (0.0, 1.0):
            lines.append(f"  {head} &\\in \\{{0,1\\}} && \\text{{every {head}}}\\\\")
        else:
            domain = "\\mathbb{Z}" if integer else "\\mathbb{R}"
            lines.append(f"  {lower:g} \\le {head} &\\le {upper:g},\\ {head} \\in {domain} "
                         f"&& \\text{{every {head}}}\\\\")
    lines[-1] = lines[-1].removesuffix("\\\\")
    lines.append("\\end{align*}")
    return "\n".join(lines) + "\n"


def to_latex(puzzle: Puzzle) -> str:
    """Every constraint of the instance as an amsmath ``align*`` block."""
    _latex_size(puzzle)
    form = formulate(puzzle)

    def x(cell: tuple[int, int]) -> str:
        return f"x_{{{cell[0]},{cell[1]}}}"

    lines = [f"% {_name(puzzle)}: the cell formulation of docs/formulation.md",
             "% x_{i,j} is the cell of row i+1, column j+1: the model's indices count from 0,",
             "% the rows, columns and cells named in the text count from 1",
             "\\begin{align*}"]
    for i, clue in form.row_clues.items():
        lhs = " + ".join(x((i, j)) for j in range(puzzle.width))
        lines.append(f"  {lhs} &= {clue} && \\text{{{row_name(i)}}} "
                     f"\\tag{{1.{number(i)}}}\\\\")
    for j, clue in form.col_clues.items():
        lhs = " + ".join(x((i, j)) for i in range(puzzle.height))
        lines.append(f"  {lhs} &= {clue} && \\text{{{column_name(j)}}} "
                     f"\\tag{{2.{number(j)}}}\\\\")
    owner = puzzle.rank_of
    for s, p in form.arcs:
        label = latex_text(puzzle.vessels[owner[s][0]].label)
        lines.append(f"  {x(s)} &\\le {x(p)} && "
                     f"\\text{{{vessel_name(puzzle.kind, label)}}}\\\\")
    for a, b in form.ties:
        label = latex_text(puzzle.vessels[owner[a][0]].label)
        where = "one row" if puzzle.rule == "tank" else "one body of water in one row"
        lines.append(f"  {x(a)} &= {x(b)} && \\text{{tank {label}, {where}}}\\\\")
    lines.append(f"  x_{{i,j}} &\\in \\{{0,1\\}} && 0 \\le i < {puzzle.height},\\ "
                 f"0 \\le j < {puzzle.width}")
    lines.append("\\end{align*}")
    return "\n".join(lines) + "\n"


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$",
                  "&": r"\&", "#": r"\#", "^": r"\textasciicircum{}", "_": r"\_",
                  "%": r"\%", "~": r"\textasciitilde{}"}
LATEX_LABEL_MAX = 24


def latex_text(text: str, limit: int = LATEX_LABEL_MAX) -> str:
    r"""A label as text inside ``\text{...}``: LaTeX's special characters escaped
    (``\input`` becomes ``\textbackslash{}input``, inert), control characters,
    line breaks and lone surrogates dropped, at most ``limit`` characters.

    >>> latex_text(r"\write18{rm -rf ~}")
    '\\textbackslash{}write18\\{rm -rf \\textasciitilde{}\\}'
    """
    kept = [ch for ch in text[:limit] if ch.isprintable() and not 0xD800 <= ord(ch) <= 0xDFFF]
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in kept) + ("..." if len(text) > limit
                                                               else "")
