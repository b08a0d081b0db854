"""Model analysis of one board: size, LP relaxation, solution count, logic (docs/analysis.md).

Sizes are counted from the same data the builders use; the cells the LP decides take
2 LPs per cell, warm-started on one HiGHS object; the solution count runs with the
settings' engine ([`Settings`][thermomilp.core.settings.Settings]: every setting is
honoured); the logic is
[`thermomilp.logic.presolve.presolve_cells`][thermomilp.logic.presolve.presolve_cells].

One clock per board, of the settings' ``time_limit``, covers the relaxation (HiGHS
whatever the settings' solver: a fixed use, ``core/engines.py``) and the count; when
it runs out, `analyze` raises [`SolveError`][thermomilp.core.errors.SolveError]
(status ``timeout``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from thermomilp.core.deadline import Deadline
from thermomilp.core.puzzle import Puzzle
from thermomilp.core.settings import Logic, Settings
from thermomilp.model.formulation import formulate

TOL = 1e-6


@dataclass(frozen=True)
class ModelSize:
    formulation: str
    variables: int
    constraints: int
    nonzeros: int


@dataclass(frozen=True)
class LpRelaxation:
    feasible: bool
    objective: float | None = None       # 0 when feasible: the model has no objective
    integral_share: float | None = None  # share of x integral at the returned vertex
    decided_cells: int | None = None     # cells with equal min and max over the polytope
    decided_filled: int | None = None
    cells: int = 0


@dataclass(frozen=True)
class Analysis:
    name: str
    kind: str
    shape: tuple[int, int]
    sizes: tuple[ModelSize, ...]
    lp: LpRelaxation
    solutions: int
    solution_cap: int
    logic: dict[str, int | str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["shape"] = list(self.shape)
        return data


def cell_model_size(puzzle: Puzzle) -> ModelSize:
    form = formulate(puzzle)
    n_lines = len(form.row_clues) + len(form.col_clues)
    return ModelSize("cell (0)-(4)", form.height * form.width,
                     n_lines + len(form.arcs) + len(form.ties),
                     len(form.row_clues) * form.width + len(form.col_clues) * form.height
                     + 2 * (len(form.arcs) + len(form.ties)))


def level_model_size(puzzle: Puzzle) -> ModelSize:
    """(L1) one row per vessel; (L3)/(L4) one row per clued line, z merged per row."""
    variables = sum(v.depth + 1 for v in puzzle.vessels)
    nonzeros = variables  # (L1)
    constraints = len(puzzle.vessels)
    for axis, clues in ((0, puzzle.rows), (1, puzzle.cols)):
        for k, clue in enumerate(clues):
            if clue is None:
                continue
            constraints += 1
            nonzeros += len({(v, level) for cell, (v, rank) in puzzle.rank_of.items()
                             if cell[axis] == k
                             for level in range(rank, puzzle.vessels[v].depth + 1)})
    return ModelSize("level (L0)-(L4)", variables, constraints, nonzeros)


def lp_relaxation(puzzle: Puzzle, decide: bool = True,
                  deadline: Deadline | None = None) -> LpRelaxation:
    """The LP relaxation of the cell formulation, solved through the solve layer."""
    from thermomilp.solving.engine import lp_relaxation as relax

    return LpRelaxation(*relax(puzzle, decide, TOL, deadline))


def logic_fixed(puzzle: Puzzle) -> dict[str, int | str]:
    """Cells each logic rule set fixes, or why it cannot say."""
    from thermomilp.logic.presolve import presolve_cells

    out: dict[str, int | str] = {}
    for mode in (Logic.INTERVALS, Logic.PROBING):
        fixed, grid, status = presolve_cells(puzzle, mode)
        if status == "infeasible":
            out[mode.value] = "proves the board infeasible"
        elif grid is not None:
            out[mode.value] = puzzle.height * puzzle.width
        else:
            out[mode.value] = len(fixed or {})
    return out


def analyze(puzzle: Puzzle, solution_cap: int = 10, settings: Settings | None = None
            ) -> Analysis:
    """The analysis of one board; ``settings`` (default:
    [`Settings`][thermomilp.core.settings.Settings]) run the count and time the board.

    Raises:
        SolveError: the time limit passed, or the engine failed, before the count ended.
    """
    from thermomilp.solving import count_solutions

    settings = settings if settings is not None else Settings()
    clock = Deadline(settings.time_limit)
    return Analysis(
        name=puzzle.name or "",
        kind=puzzle.kind,
        shape=puzzle.shape,
        sizes=((cell_model_size(puzzle), level_model_size(puzzle)) if puzzle.all_chains
               else (cell_model_size(puzzle),)),  # no level formulation for the pool rule
        lp=lp_relaxation(puzzle, deadline=clock),
        solutions=count_solutions(puzzle, solution_cap, settings=settings, deadline=clock),
        solution_cap=solution_cap,
        logic=logic_fixed(puzzle),
    )


def report(a: Analysis) -> str:
    H, W = a.shape
    lines = [f"{a.kind} {H}x{W}" + (f" ({a.name})" if a.name else ""), "model size:"]
    for s in a.sizes:
        lines.append(f"  {s.formulation:16s} {s.variables:5d} variables {s.constraints:5d} "
                     f"constraints {s.nonzeros:6d} non-zeros")
    lp = a.lp
    if not lp.feasible:
        lines.append("LP relaxation: infeasible (the board has no solution, and the LP proves it)")
    else:
        lines.append(f"LP relaxation: feasible, objective {lp.objective:g} (a feasibility model); "
                     f"{100 * (lp.integral_share or 0):.0f}% of the cell variables integral at "
                     "HiGHS's vertex")
        if lp.decided_cells is not None:
            lines.append(f"  cells decided by the LP alone (min = max over the polytope): "
                         f"{lp.decided_cells}/{lp.cells} ({lp.decided_filled} filled, "
                         f"{lp.decided_cells - (lp.decided_filled or 0)} empty)")
    more = "+" if a.solutions >= a.solution_cap else ""
    lines.append(f"solutions: {a.solutions}{more}" + (" (unique)" if a.solutions == 1 else ""))
    if a.logic:
        for mode, fixed in a.logic.items():
            value = fixed if isinstance(fixed, str) else f"{fixed}/{H * W} cells fixed"
            lines.append(f"logic presolve {mode}: {value}")
    else:
        lines.append("logic presolve: not available (thermomilp.logic.presolve is not installed)")
    return "\n".join(lines)
