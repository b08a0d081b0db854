"""The checks on one board of the corpus, run on the student's model as data.

1. **solve**: the model's optimum is a solution (checked by
   [`thermomilp.core.verify.solution_problems`][thermomilp.core.verify.solution_problems]), or the
   model is infeasible exactly when the board has no solution; a fractional optimum is a failure;
2. **accepts the real solutions**: with its cells fixed to each true solution
   (at most two, from
   [`thermomilp.solving.enumerate_solutions`][thermomilp.solving.enumerate_solutions]), the model is
   feasible -- if not, the constraints of the student's that the solution breaks are quoted (the
   solution itself never is: no message shows a corpus board's answer, only grids the student's
   model accepts);
3. **second solution**: with a no-good cut on the grid it found, the model
   finds no grid the rules forbid;
4. **size and LP relaxation** beside the reference cell model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from thermomilp.core.notation import number
from thermomilp.core.puzzle import Grid, Puzzle
from thermomilp.core.settings import Settings
from thermomilp.core.verify import solution_problems
from thermomilp.teach.linear import INF, LinearModel, Run, accepts, blocking_rows, nogood_row, solve
from thermomilp.teach.sandbox import Built


@dataclass(frozen=True)
class Size:
    variables: int
    constraints: int
    nonzeros: int


@dataclass(frozen=True)
class Finding:
    check: str  # solve | real-solution | second-solution | build
    message: str
    line: int | None = None


@dataclass(frozen=True)
class BoardGrade:
    file: str
    verdict: str  # right, or a failure: docs/course/grader.md lists them
    findings: tuple[Finding, ...] = ()
    size: Size | None = None
    reference_size: Size | None = None
    lp_integral: float | None = None
    reference_lp_integral: float | None = None
    fractional: bool = False
    out_of_range: bool = False

    @property
    def ok(self) -> bool:
        return self.verdict == "right"

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "verdict": self.verdict,
                "findings": [asdict(f) for f in self.findings],
                "size": asdict(self.size) if self.size else None,
                "reference_size": asdict(self.reference_size) if self.reference_size else None,
                "lp_integral": self.lp_integral,
                "reference_lp_integral": self.reference_lp_integral}


def grid_text(grid: Sequence[str]) -> str:
    return "[" + " / ".join(grid) + "]"


def broken_rules(puzzle: Puzzle, grid: Sequence[str]) -> str:
    return "; ".join(solution_problems(puzzle, grid)[:3])


STUDENT_RUN_LIMIT = 30.0
"""Seconds for each HiGHS run on a student's model when the settings set no time
limit: a model that sends HiGHS into a long search costs its board a ``timeout``, not
the class an unattended grader that never ends."""


def student_run_limit(settings: Settings) -> float:
    """The time limit of each HiGHS run on a student's model: the settings' own, else
    `STUDENT_RUN_LIMIT`."""
    return STUDENT_RUN_LIMIT if settings.time_limit is None else settings.time_limit


def grade_board(file: str, puzzle: Puzzle, built: Built,
                settings: Settings | None = None) -> BoardGrade:
    """The checks of one corpus board. The board's own solutions are counted with
    ``settings`` (default: [`Settings`][thermomilp.core.settings.Settings]; every setting honoured);
    each HiGHS run on the student's model (a fixed use of `thermomilp.core.engines`) gets the
    settings' ``time_limit`` (`student_run_limit`)."""
    if built.model is None:
        return _not_built(file, built)
    from thermomilp.solving import enumerate_solutions

    model = built.model
    settings = settings if settings is not None else Settings()
    time_limit = student_run_limit(settings)
    truths: list[Grid] = list(enumerate_solutions(puzzle, limit=2, settings=settings))
    findings: list[Finding] = []
    verdicts: list[str] = []

    def fail(verdict: str, check: str, message: str) -> None:
        verdicts.append(verdict)
        findings.append(Finding(check, message))

    # 1. solve
    first = solve(model, time_limit=time_limit)
    grid = first.grid(*puzzle.shape) if first.status == "feasible" else None
    fractional = bool(first.fractional_cells())
    if first.status in ("error", "timeout", "unbounded"):
        fail("error", "solve", first.message)
    elif first.status == "infeasible" and truths:
        fail("infeasible", "solve", "your model has no solution, but the board has one")
    elif first.cells_out_of_range():
        fail("wrong", "solve", f"your model's optimum gives cells values outside 0..1 "
             f"({_out_of_range(model, first)}): a cell is either filled (1) or empty (0)")
    elif fractional:
        cells = ", ".join(f"x_{i}_{j} = {v:.3g}" for (i, j), v in first.fractional_cells()[:4])
        fail("fractional", "solve", f"your model's optimum fills cells by a fraction ({cells}): "
             "a cell is filled or empty")
    elif grid is not None and not truths:
        fail("wrong", "solve", f"the board has no solution, but your model accepts "
             f"{grid_text(grid)}: {broken_rules(puzzle, grid)}")
    elif grid is not None and solution_problems(puzzle, grid):
        fail("wrong", "solve", f"your model's solution {grid_text(grid)} is not a solution: "
             f"{broken_rules(puzzle, grid)}")

    # 2. every real solution must be accepted
    for truth in truths:
        if accepts(model, truth, time_limit) is False:
            broken = blocking_rows(model, truth, time_limit=time_limit)
            detail = (" These constraints of yours forbid it: "
                      + "; ".join(r.text for r in broken[:3]) + "." if broken else "")
            fail("rejects-solution", "real-solution",
                 f"your model forbids a real solution of this board.{detail}")
            break

    # 3. a second grid must be a real solution too
    if grid is not None and not fractional and not first.cells_out_of_range():
        # a grid the model found that is a real solution is never shown (the report would
        # give the board's answer away); a grid the rules forbid may be
        found_first = ("the grid your model found first (a solution)"
                       if not solution_problems(puzzle, grid) else grid_text(grid))
        second = solve(model, [nogood_row(model, grid)], objective=False, time_limit=time_limit)
        other = second.grid(*puzzle.shape) if second.status == "feasible" else None
        if second.cells_out_of_range():
            fail("accepts-forbidden", "second-solution",
                 f"after excluding {found_first}, your model accepts a point whose cells are "
                 f"not 0 or 1 ({_out_of_range(model, second)}): a cell is either filled (1) or "
                 "empty (0)")
        elif other is not None and not second.fractional_cells() and \
                solution_problems(puzzle, other):
            fail("accepts-forbidden", "second-solution",
                 f"after excluding {found_first}, your model accepts {grid_text(other)}, "
                 f"which the rules forbid: {broken_rules(puzzle, other)}")

    # 4. size and LP relaxation beside the reference
    reference = reference_model(puzzle)
    ref_lp = _lp_integral(reference, time_limit)
    return BoardGrade(file, verdicts[0] if verdicts else "right", tuple(findings),
                      Size(*model.size()), Size(*reference.size()),
                      _lp_integral(model, time_limit), ref_lp, fractional,
                      bool(first.cells_out_of_range()))


def picture(puzzle: Puzzle, grid: Sequence[str], indent: str = "        ") -> str:
    """The board with ``grid`` drawn on it, as text (the evidence a student can look at)."""
    from thermomilp.pictures.text import render_board

    return "\n".join(indent + line for line in render_board(puzzle, grid).splitlines())


def grade_probe(file: str, puzzle: Puzzle, built: Built, legal: frozenset[int],
                time_limit: float | None = None) -> tuple[BoardGrade, set[int] | None]:
    """Exact comparison on a small probe board: the model's feasible 0/1 grids against
    the rules' (``legal``). Returns the board's grade and the model's grids (None when
    they could not all be found)."""
    from thermomilp.teach.linear import feasible_grids
    from thermomilp.teach.probes import grid_of_bits

    if built.model is None:
        return _not_built(file, built), None
    h, w = puzzle.height, puzzle.width
    found, complete = feasible_grids(built.model, h, w, time_limit=time_limit)
    forbidden = sorted(found - legal, key=lambda b: (bin(b).count("1"), b))
    missing = sorted(legal - found)
    verdict, message = "right", ""
    if forbidden:
        grid = grid_of_bits(forbidden[0], h, w)
        more = f" (and {len(forbidden) - 1} more)" if len(forbidden) > 1 else ""
        verdict, message = "accepts-forbidden", (
            f"your model accepts {grid_text(grid)}{more}, which the rules forbid: "
            f"{broken_rules(puzzle, grid)}\n{picture(puzzle, grid)}")
    elif not complete:
        verdict = "error"
        message = "HiGHS could not list the grids your model accepts on this board"
    elif missing:
        grid = grid_of_bits(missing[0], h, w)
        verdict, message = "rejects-solution", (
            f"your model forbids {grid_text(grid)}, a solution of this board"
            f"{forbidding(built, grid, time_limit)}\n{picture(puzzle, grid)}")
    return (BoardGrade(file, verdict, (Finding("probe", message),) if message else (),
                       Size(*built.model.size())), found if complete else None)


def forbidding(built: Built, grid: Sequence[str], time_limit: float | None = None) -> str:
    """The student's constraints that forbid ``grid`` (`blocking_rows`), ending a sentence."""
    rows = (blocking_rows(built.model, grid, time_limit=time_limit)
            if built.model is not None else [])
    if not rows:
        return ""
    return "; these constraints of yours forbid it: " + "; ".join(r.text for r in rows[:3])


def _not_built(file: str, built: Built) -> BoardGrade:
    return BoardGrade(file, built.verdict, (Finding("build", built.message, built.line),))


def _out_of_range(model: LinearModel, run: Run) -> str:
    """The cells of ``run`` outside 0..1, by the student's names (the first four)."""
    return ", ".join(f"{_cell_name(model, i, j)} = {v:.3g}"
                     for (i, j), v in run.cells_out_of_range()[:4])


def _cell_name(model: LinearModel, i: int, j: int) -> str:
    """The student's name for cell (i, j): its variable's, or x[i, j] for an expression."""
    k = model.var_of((i, j))
    return f"x[{i}, {j}]" if k is None else f"{model.names[k]} (cell {number(i)},{number(j)})"


def _lp_integral(model: LinearModel, time_limit: float | None) -> float | None:
    """The share of cells integral at the point HiGHS returns for the LP relaxation (None:
    the relaxation is infeasible)."""
    values = solve(model, objective=False, relax=True, time_limit=time_limit).values
    if not values:  # None unless feasible
        return None
    return sum(1 for v in values.values() if min(abs(v), abs(1 - v)) < 1e-6) / len(values)


def reference_model(puzzle: Puzzle) -> LinearModel:
    """The reference cell model (docs/formulation.md, (0)-(4)) as data, from its Formulation."""
    from thermomilp.model.formulation import formulate
    from thermomilp.teach.linear import Row

    form = formulate(puzzle)
    n = form.n_vars
    rows = [Row({form.index((i, j)): 1.0 for j in range(form.width)}, r, r, f"row_{i}")
            for i, r in form.row_clues.items()]
    rows += [Row({form.index((i, j)): 1.0 for i in range(form.height)}, c, c, f"col_{j}")
             for j, c in form.col_clues.items()]
    rows += [Row({form.index(s): 1.0, form.index(p): -1.0}, -INF, 0.0, f"prec {s} {p}")
             for s, p in form.arcs]
    rows += [Row({form.index(a): 1.0, form.index(b): -1.0}, 0.0, 0.0, f"tie {a} {b}")
             for a, b in form.ties]
    return LinearModel([f"x_{i}_{j}" for i, j in form.cells], [0.0] * n, [1.0] * n,
                       [True] * n, rows, {}, False,
                       {c: ({form.index(c): 1.0}, 0.0) for c in form.cells})
