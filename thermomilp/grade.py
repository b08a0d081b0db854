"""The autograder: run a student's Thermometers model against the reference.

The contract (docs/course/exercise.md)
--------------------------------------
The student's file defines ``build(puzzle)`` taking a
:class:`thermomilp.Puzzle` and returning either

* a ``pulp.LpProblem`` with one variable named ``x_i_j`` per cell (row i,
  column j, 0-based, the name PuLP shows; ``x_0_3`` is the top row's fourth
  cell), 1 = filled; or
* a Pyomo model with a component ``x`` indexed by ``(i, j)`` (a ``Var`` or an
  ``Expression``), 1 = filled.

Other variables and constraints may be added freely; the objective is
ignored only in the sense that any optimal solution must be a solution of
the puzzle. The student's code runs **in this process**: it is trusted code,
like any Python module you import. Grade only files you would run yourself.

What is checked, per board of the corpus
----------------------------------------
1. **solve**: the model's solution is a solution of the board (checked by
   :func:`thermomilp.verify.solution_problems`), or the model is infeasible
   exactly when the board has no solution;
2. **accepts the real solutions**: with its cell variables fixed to each
   true solution (at most two), the model is feasible;
3. **second solution**: with a no-good cut on the grid it found, the model
   finds no grid the rules forbid (and none at all on a unique board);
4. **known non-solutions**: with its cell variables fixed to grids that break
   the rules (solutions of the reference model without precedence, with
   precedence reversed, with rows and columns swapped, the transposed
   solution), the model must be infeasible;
5. **size and LP relaxation**: variables, constraints and non-zeros, and the
   share of cell variables that are integral in an LP-relaxation optimum,
   beside the reference cell model.

Each failure comes with the rule that was broken and a hint naming the
classic mistake that breaks it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from thermomilp.errors import ThermomilpError
from thermomilp.puzzle import Grid, Puzzle

MAX_NON_SOLUTIONS = 8


class GradeError(ThermomilpError):
    """The student's file cannot be graded (does not import, no build, breaks the contract)."""


# --------------------------------------------------------------------------
# Loading the student's file
# --------------------------------------------------------------------------


def load_student(path: str) -> Callable[[Puzzle], Any]:
    """Import the student's file and return its ``build`` function (trusted code)."""
    if not os.path.isfile(path):
        raise GradeError(f"{path}: no such file")
    name = f"thermomilp_student_{uuid.uuid4().hex[:8]}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise GradeError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # the student's code may raise anything
        raise GradeError(f"{path}: importing it failed: {type(exc).__name__}: {exc}") from None
    build = getattr(module, "build", None)
    if not callable(build):
        raise GradeError(f"{path}: defines no function build(puzzle) (see the contract in "
                         "docs/course/exercise.md)")
    return build


# --------------------------------------------------------------------------
# One adapter per modelling layer: rebuild, add, solve
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Size:
    variables: int
    constraints: int
    nonzeros: int


@dataclass(frozen=True)
class Broken:
    """A constraint of the student's that a grid breaks: as written, its cells, its bound."""

    text: str
    cells: frozenset
    bound: float | None


@dataclass(frozen=True)
class Run:
    """One solve of (a variant of) the student's model."""

    status: str  # feasible | infeasible | error
    grid: Grid | None = None
    message: str = ""


class _PulpModel:
    def __init__(self, prob: Any, puzzle: Puzzle):
        import pulp

        self.pulp, self.prob, self.puzzle = pulp, prob, puzzle
        by_name = {v.name: v for v in prob.variables()}
        self.x = {}
        for i in range(puzzle.height):
            for j in range(puzzle.width):
                name = f"x_{i}_{j}"
                if name not in by_name:
                    # PuLP lists only variables that appear in the model: a cell no
                    # constraint mentions is free, so a fresh free binary stands for it.
                    by_name[name] = prob.add_variable(name, cat=pulp.LpBinary)
                self.x[i, j] = by_name[name]

    def fix(self, grid: Sequence[str]) -> None:
        for (i, j), var in self.x.items():
            self.prob += var == (1 if grid[i][j] == "#" else 0), f"grader_fix_{i}_{j}"

    def cut(self, grid: Sequence[str]) -> None:
        lp = self.pulp.lpSum
        self.prob += (lp(1 - v for (i, j), v in self.x.items() if grid[i][j] == "#")
                      + lp(v for (i, j), v in self.x.items() if grid[i][j] != "#")) >= 1, \
            "grader_nogood"

    def relax(self) -> None:
        for var in self.prob.variables():
            var.cat = self.pulp.LpContinuous

    def solve(self) -> Run:
        from thermomilp.model.highs_model import new_highs

        new_highs()  # the HiGHS banner goes to stderr, not into a report
        try:
            self.prob.solve(self.pulp.HiGHS(msg=False))
        except Exception as exc:
            return Run("error", message=f"PuLP/HiGHS failed: {exc}")
        status = self.pulp.LpStatus.get(self.prob.status, str(self.prob.status))
        if status == "Infeasible":
            return Run("infeasible")
        if status != "Optimal":
            return Run("error", message=f"the solve ended with status {status}")
        return Run("feasible", _grid(self.puzzle, self.values()))

    def values(self) -> dict:
        # a cell in no constraint gets no value from PuLP: it is free, so 0 is as good as any
        return {c: (v.value() if v.value() is not None else 0.0) for c, v in self.x.items()}

    def size(self) -> Size:
        cons = _pulp_constraints(self.prob)
        return Size(len(self.prob.variables()), len(cons), sum(len(c) for c in cons))

    def violated_by(self, grid: Sequence[str]) -> list[Broken]:
        """Constraints over cell variables only that ``grid`` breaks."""
        cell_of = {v.name: c for c, v in self.x.items()}
        for (i, j), var in self.x.items():
            var.varValue = 1.0 if grid[i][j] == "#" else 0.0
        broken = []
        for con in _pulp_constraints(self.prob):
            name = con.name or ""
            if name.startswith("grader_"):
                continue
            if all(v.name in cell_of for v in con.keys()) and not con.valid(1e-6):
                broken.append(Broken(f"{name}: {con}",
                                     frozenset(cell_of[v.name] for v in con.keys()),
                                     -con.constant))
        return broken


def _pulp_constraints(prob: Any) -> list:
    """The constraints of a PuLP problem (a list from PuLP 3.3 on, a dict before)."""
    cons = prob.constraints
    return list(cons()) if callable(cons) else list(cons.values())


class _PyomoModel:
    def __init__(self, model: Any, puzzle: Puzzle):
        import pyomo.environ as pyo

        self.pyo, self.m, self.puzzle = pyo, model, puzzle
        x = model.component("x")
        if x is None:
            raise GradeError("the Pyomo model has no component named x: the contract asks for "
                             "x[i, j], one per cell (row i, column j)")
        self.x = {}
        for i in range(puzzle.height):
            for j in range(puzzle.width):
                try:
                    self.x[i, j] = x[i, j]
                except KeyError:
                    raise GradeError(f"the Pyomo model's x has no entry x[{i}, {j}]; the "
                                     "contract asks for one per cell") from None
        self.extra = 0

    def _add(self, expr: Any) -> None:
        self.extra += 1
        self.m.add_component(f"grader_{self.extra}", self.pyo.Constraint(expr=expr))

    def fix(self, grid: Sequence[str]) -> None:
        for (i, j), var in self.x.items():
            self._add(var == (1 if grid[i][j] == "#" else 0))

    def cut(self, grid: Sequence[str]) -> None:
        self._add(sum((1 - v) if grid[i][j] == "#" else v for (i, j), v in self.x.items()) >= 1)

    def relax(self) -> None:
        self.pyo.TransformationFactory("core.relax_integer_vars").apply_to(self.m)

    def solve(self) -> Run:
        from pyomo.contrib.solver.common.results import TerminationCondition as TC
        from pyomo.contrib.solver.solvers.highs import Highs

        from thermomilp.model.highs_model import new_highs

        new_highs()
        engine = Highs()
        engine.config.load_solutions = False
        engine.config.raise_exception_on_nonoptimal_result = False
        try:
            results = engine.solve(self.m)
        except Exception as exc:
            return Run("error", message=f"Pyomo/HiGHS failed: {exc}")
        tc = results.termination_condition
        if tc in (TC.provenInfeasible, TC.infeasibleOrUnbounded):
            return Run("infeasible")
        if tc != TC.convergenceCriteriaSatisfied:
            return Run("error", message=f"the solve ended with {tc.name}")
        results.solution_loader.load_vars()
        return Run("feasible", _grid(self.puzzle, self.values()))

    def values(self) -> dict:
        return {c: self.pyo.value(v, exception=False) for c, v in self.x.items()}

    def size(self) -> Size:
        from pyomo.repn import generate_standard_repn

        cons = list(self.m.component_data_objects(self.pyo.Constraint, active=True))
        used = set()
        nonzeros = 0
        for con in cons:
            repn = generate_standard_repn(con.body, compute_values=False)
            nonzeros += len(repn.linear_vars) + len(repn.quadratic_vars)
            used.update(id(v) for v in repn.linear_vars)
        return Size(len(used), len(cons), nonzeros)

    def violated_by(self, grid: Sequence[str]) -> list[Broken]:
        from pyomo.core.expr.visitor import identify_variables

        cell_ids = {}
        for (i, j), var in self.x.items():
            for v in identify_variables(var):
                cell_ids[id(v)] = (i, j)
        if len(cell_ids) != len(self.x):
            return []  # x is an expression of other variables: cannot evaluate alone
        for (i, j), var in self.x.items():
            for v in identify_variables(var):
                v.set_value(1 if grid[i][j] == "#" else 0, skip_validation=True)
        broken = []
        for con in self.m.component_data_objects(self.pyo.Constraint, active=True):
            if con.parent_component().name.startswith("grader_"):
                continue
            if not all(id(v) in cell_ids for v in identify_variables(con.body)):
                continue
            value = self.pyo.value(con.body)
            low, up = con.lb, con.ub
            if (low is not None and value < low - 1e-6) or (up is not None and value > up + 1e-6):
                cells = frozenset(cell_ids[id(v)] for v in identify_variables(con.body))
                broken.append(Broken(f"{con.name}: {con.expr}", cells,
                                     up if up is not None else low))
        return broken


def _grid(puzzle: Puzzle, values: dict) -> Grid | None:
    if any(v is None for v in values.values()):
        return None
    return tuple("".join("#" if values[i, j] > 0.5 else "." for j in range(puzzle.width))
                 for i in range(puzzle.height))


def _adapt(built: Any, puzzle: Puzzle):
    if type(built).__module__.startswith("pulp"):
        return _PulpModel(built, puzzle)
    if type(built).__module__.startswith("pyomo"):
        return _PyomoModel(built, puzzle)
    raise GradeError(f"build(puzzle) returned a {type(built).__name__}; the contract asks for "
                     "a pulp.LpProblem or a Pyomo model")


# --------------------------------------------------------------------------
# The reference side: true solutions and grids the rules forbid
# --------------------------------------------------------------------------


def non_solutions(puzzle: Puzzle, limit: int = MAX_NON_SOLUTIONS) -> list[tuple[Grid, str]]:
    """Grids that break the rules, each with how it was made.

    They are solutions of the reference model with one classic mistake made
    on purpose -- no precedence, reversed precedence, rows and columns
    swapped -- plus the transposed solution; each is verified to break a rule.
    """
    from dataclasses import replace

    from thermomilp.backends import open_session
    from thermomilp.model.formulation import formulate
    from thermomilp.solve import enumerate_solutions
    from thermomilp.verify import solution_problems

    form = formulate(puzzle)
    variants = [("the clues alone (no fill order)", replace(form, arcs=(), ties=())),
                ("the fill order reversed", replace(form, arcs=tuple((p, s) for s, p in form.arcs)))]
    if puzzle.height == puzzle.width:
        variants.append(("rows and columns swapped",
                         replace(form, row_clues=form.col_clues, col_clues=form.row_clues)))
    found: dict[Grid, str] = {}
    for how, variant in variants:
        session = open_session(variant)
        for _ in range(3):
            outcome = session.solve()
            if outcome.status != "feasible" or outcome.ones is None:
                break
            grid = tuple("".join("#" if (r, c) in outcome.ones else "." for c in range(puzzle.width))
                         for r in range(puzzle.height))
            session.exclude(outcome.ones)
            if solution_problems(puzzle, grid):
                found.setdefault(grid, how)
    if puzzle.height == puzzle.width:
        for sol in enumerate_solutions(puzzle, limit=1):
            transposed = tuple("".join(sol[i][j] for i in range(puzzle.height))
                               for j in range(puzzle.width))
            if solution_problems(puzzle, transposed):
                found.setdefault(transposed, "the solution transposed")
    return list(found.items())[:limit]


HINTS = (
    ("above a gap", "mercury sits above an empty cell: each cell of a thermometer may be filled "
                    "only if the cell before it (towards the bulb) is, x_succ <= x_pred -- is the "
                    "precedence constraint missing, or written the wrong way round?"),
    ("partly filled", "one tank row is partly wet: cells of a tank in one row must be equal"),
    ("filled cells, clue", "a line does not match its clue: sum over j of x[i, j] is row i, "
                           "sum over i is column j -- are rows and columns swapped?"),
)


def hint_for(problems: Sequence[str]) -> str:
    for needle, hint in HINTS:
        if any(needle in p for p in problems):
            return hint
    return ""


def rejection_hint(puzzle: Puzzle, broken: Sequence[Broken]) -> str:
    """Name the classic mistake behind constraints that a real solution breaks."""
    pred_of = {}
    for vessel in puzzle.vessels:
        for lower, upper in zip(vessel.layers, vessel.layers[1:]):
            for s in upper:
                for p in lower:
                    pred_of[s] = p
    rows = {frozenset((i, j) for j in range(puzzle.width)): i for i in range(puzzle.height)}
    cols = {frozenset((i, j) for i in range(puzzle.height)): j for j in range(puzzle.width)}
    for b in broken:
        if len(b.cells) == 2:
            a, c = sorted(b.cells)
            if pred_of.get(a) == c or pred_of.get(c) == a:
                return ("a fill-order constraint forbids mercury in a cell whose successor is "
                        "empty: the precedence is written the wrong way round. It must read "
                        "x_succ <= x_pred (a cell fills only if the one before it, towards "
                        "the bulb, does), not x_pred <= x_succ")
        if b.cells in cols and b.bound is not None:
            j = cols[b.cells]
            if j < puzzle.height and puzzle.rows[j] == round(b.bound) != puzzle.cols[j]:
                return (f"the constraint over column {j} uses row {j}'s clue {puzzle.rows[j]}: "
                        "rows and columns are swapped. Row i is sum over j of x[i, j] = R_i; "
                        "column j is sum over i of x[i, j] = C_j")
        if b.cells in rows and b.bound is not None:
            i = rows[b.cells]
            if i < puzzle.width and puzzle.cols[i] == round(b.bound) != puzzle.rows[i]:
                return (f"the constraint over row {i} uses column {i}'s clue {puzzle.cols[i]}: "
                        "rows and columns are swapped. Row i is sum over j of x[i, j] = R_i; "
                        "column j is sum over i of x[i, j] = C_j")
    return ("some constraint is stricter than the rules; fix your variables to the real "
            "solution and look at which constraint fails")


# --------------------------------------------------------------------------
# Grading
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    check: str  # solve | real-solution | second-solution | non-solution | error
    message: str


@dataclass(frozen=True)
class BoardGrade:
    file: str
    verdict: str  # right | wrong | infeasible | accepts-forbidden | rejects-solution | error
    findings: tuple[Finding, ...] = ()
    size: Size | None = None
    reference_size: Size | None = None
    lp_integral: float | None = None
    reference_lp_integral: float | None = None

    @property
    def ok(self) -> bool:
        return self.verdict == "right"

    def to_json(self) -> dict[str, Any]:
        def size(s: Size | None):
            return None if s is None else {"variables": s.variables, "constraints": s.constraints,
                                           "nonzeros": s.nonzeros}

        return {"file": self.file, "verdict": self.verdict,
                "findings": [{"check": f.check, "message": f.message} for f in self.findings],
                "size": size(self.size), "reference_size": size(self.reference_size),
                "lp_integral": self.lp_integral,
                "reference_lp_integral": self.reference_lp_integral}


def _grid_text(grid: Sequence[str]) -> str:
    return "[" + " / ".join(grid) + "]"


def grade_board(build: Callable[[Puzzle], Any], puzzle: Puzzle, file: str = "") -> BoardGrade:
    """Every check of the module docstring on one board."""
    from thermomilp.solve import enumerate_solutions
    from thermomilp.verify import solution_problems

    def fresh():
        try:
            built = build(puzzle)
        except GradeError:
            raise
        except Exception as exc:
            raise GradeError(f"build(puzzle) raised {type(exc).__name__}: {exc}") from None
        return _adapt(built, puzzle)

    truths = list(enumerate_solutions(puzzle, limit=2))
    findings: list[Finding] = []
    verdicts: list[str] = []

    def fail(verdict: str, check: str, message: str) -> None:
        verdicts.append(verdict)
        findings.append(Finding(check, message))

    def broken_rules(grid: Sequence[str]) -> str:
        problems = solution_problems(puzzle, grid)
        hint = hint_for(problems)
        return "; ".join(problems[:3]) + (f". Hint: {hint}" if hint else "")

    # 1. solve
    model = fresh()
    first = model.solve()
    if first.status == "error":
        fail("error", "solve", first.message)
    elif first.status == "infeasible" and truths:
        fail("infeasible", "solve", "your model has no solution, but the board has one: "
             + _grid_text(truths[0]))
    elif first.status == "feasible":
        if first.grid is None:
            fail("error", "solve", "the solver gave no value to some cell variable")
        elif not truths:
            fail("wrong", "solve", f"the board has no solution, but your model accepts "
                 f"{_grid_text(first.grid)}: {broken_rules(first.grid)}")
        elif solution_problems(puzzle, first.grid):
            fail("wrong", "solve", f"your model's solution {_grid_text(first.grid)} is not a "
                 f"solution: {broken_rules(first.grid)}")

    # 2. every real solution must be accepted
    for truth in truths:
        model = fresh()
        model.fix(truth)
        run = model.solve()
        if run.status == "infeasible":
            broken = fresh().violated_by(truth)
            detail = (" These constraints of yours forbid it: "
                      + "; ".join(b.text for b in broken[:3]) + "." if broken else "")
            fail("rejects-solution", "real-solution",
                 f"your model forbids the real solution {_grid_text(truth)}.{detail}"
                 f" Hint: {rejection_hint(puzzle, broken)}")
            break

    # 3. a second solution must be a real one (none on a unique board)
    if first.status == "feasible" and first.grid is not None:
        model = fresh()
        model.cut(first.grid)
        second = model.solve()
        if second.status == "feasible" and second.grid is not None:
            if solution_problems(puzzle, second.grid):
                fail("accepts-forbidden", "second-solution",
                     f"after excluding {_grid_text(first.grid)}, your model accepts "
                     f"{_grid_text(second.grid)}, which the rules forbid: "
                     f"{broken_rules(second.grid)}")

    # 4. known non-solutions must be rejected
    for grid, how in non_solutions(puzzle):
        model = fresh()
        model.fix(grid)
        if model.solve().status == "feasible":
            fail("accepts-forbidden", "non-solution",
                 f"your model accepts {_grid_text(grid)} ({how}), which the rules forbid: "
                 f"{broken_rules(grid)}")
            break

    # 5. size and LP relaxation beside the reference
    size = fresh().size()
    ref_size, ref_lp = reference_stats(puzzle)
    relaxed = fresh()
    relaxed.relax()
    lp = relaxed.solve()
    lp_integral = _integral_share(relaxed.values()) if lp.status == "feasible" else None

    verdict = verdicts[0] if verdicts else "right"
    return BoardGrade(file, verdict, tuple(findings), size, ref_size, lp_integral, ref_lp)


def _integral_share(values: dict) -> float | None:
    vals = [v for v in values.values() if v is not None]
    if not vals:
        return None
    return sum(1 for v in vals if min(abs(v), abs(1 - v)) < 1e-6) / len(vals)


def reference_stats(puzzle: Puzzle) -> tuple[Size, float | None]:
    """Size of the reference cell model (PuLP) and its LP relaxation's integral share."""
    from thermomilp.model.formulation import formulate
    from thermomilp.model.pulp_model import build_pulp

    prob, _ = build_pulp(formulate(puzzle))
    model = _PulpModel(prob, puzzle)
    size = model.size()
    model.relax()
    run = model.solve()
    return size, (_integral_share(model.values()) if run.status == "feasible" else None)


def grade(student_file: str, boards: Sequence[tuple[str, Puzzle]]) -> list[BoardGrade]:
    """Grade the student's file on every (file name, puzzle) of the corpus."""
    build = load_student(student_file)
    grades = []
    for file, puzzle in boards:
        try:
            grades.append(grade_board(build, puzzle, file))
        except GradeError as exc:
            grades.append(BoardGrade(file, "error", (Finding("error", str(exc)),)))
    return grades


def corpus_boards(corpus: str) -> list[tuple[str, Puzzle]]:
    """Every Thermometers puzzle file of a folder (sorted), loaded."""
    from thermomilp.formats import load

    if not os.path.isdir(corpus):
        raise GradeError(f"{corpus}: no such folder (give a corpus with --corpus DIR)")
    boards = []
    for name in sorted(os.listdir(corpus)):
        path = os.path.join(corpus, name)
        if os.path.isfile(path) and not name.startswith(".") and not name.endswith(".json"):
            puzzle = load(path)
            if puzzle.kind == "thermometers":
                boards.append((path, puzzle))
    if not boards:
        raise GradeError(f"{corpus}: holds no Thermometers puzzle file")
    return boards


def report(grades: Sequence[BoardGrade]) -> str:
    """The text report: one block per board, then a summary line."""
    lines = []
    for g in grades:
        lines.append(f"{g.verdict.upper():18s} {g.file}")
        for f in g.findings:
            lines.append(f"    [{f.check}] {f.message}")
        if g.size is not None and g.reference_size is not None:
            s, r = g.size, g.reference_size
            lines.append(f"    size: {s.variables} variables, {s.constraints} constraints, "
                         f"{s.nonzeros} non-zeros (reference: {r.variables}, {r.constraints}, "
                         f"{r.nonzeros})")
        if g.lp_integral is not None or g.reference_lp_integral is not None:
            lines.append(f"    LP relaxation: {_pct(g.lp_integral)} of cell variables integral "
                         f"(reference: {_pct(g.reference_lp_integral)})")
    right = sum(g.ok for g in grades)
    lines.append(f"{right}/{len(grades)} boards right")
    return "\n".join(lines)


def _pct(share: float | None) -> str:
    return "n/a (infeasible)" if share is None else f"{100 * share:.0f}%"


__all__ = ["BoardGrade", "Finding", "GradeError", "Size", "corpus_boards", "grade", "grade_board",
           "hint_for", "load_student", "non_solutions", "report"]

if __name__ == "__main__":  # pragma: no cover - convenience
    print(report(grade(sys.argv[1], corpus_boards(sys.argv[2]))))
