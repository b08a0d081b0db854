"""The peers: the same puzzle solved and its uniqueness decided by other tools.

Each ``decide_*`` function takes a :class:`~thermomilp.core.puzzle.Puzzle` and a
time limit and returns ``"unique"``, ``"multiple"``, ``"infeasible"`` or
``"timeout"``. They are written plainly, the way a student or the tools'
own tutorials write them, and read the puzzle only through its public data
(clues and vessel layers) -- none of thermomilp's model code is reused.

The cell model every peer builds::

    x_c in {0, 1}                       for every cell c
    sum_{c in row i} x_c = R_i          for every clued row
    sum_{c in col j} x_c = C_j          for every clued column
    x_upper <= x_lower                  consecutive layers of a vessel
    x_a = x_b                           cells of one layer (tank rows)

Uniqueness: the MILPs add the no-good cut of the first solution and solve
again; CP-SAT enumerates solutions and stops at the second.
"""

from __future__ import annotations

from itertools import pairwise


def cell_model_data(puzzle):
    """Cells, clued rows/cols, precedence pairs (upper, lower) and ties."""
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    rows = [(i, v) for i, v in enumerate(puzzle.rows) if v is not None]
    cols = [(j, v) for j, v in enumerate(puzzle.cols) if v is not None]
    prec, ties = [], []
    for vessel in puzzle.vessels:
        for layer in vessel.layers:
            for a, b in pairwise(layer):
                ties.append((a, b))
        for lower, upper in pairwise(vessel.layers):
            prec.append((upper[0], lower[0]))
    return cells, rows, cols, prec, ties


# --------------------------------------------------------------------------
# The textbook PuLP + CBC model
# --------------------------------------------------------------------------


def decide_pulp_cbc(puzzle, time_limit: float = 60.0) -> str:
    """The textbook model, written so that it runs on PuLP 3 and PuLP 4: variables
    from the problem (4.x dropped ``LpVariable.dicts``), ties as ``x_a - x_b == 0``
    (``x_a == x_b`` is a bool in 4.x), CBC as ``COIN_CMD`` on the probed binary
    (4.x has no ``PULP_CBC_CMD``), the status through ``read_status`` (no ``LpStatus``)."""
    import pulp

    from thermomilp.backends.matrix import program_path
    from thermomilp.core.engines import Solver

    return _decide_pulp(puzzle, pulp.COIN_CMD(path=program_path(Solver.CBC), msg=False,
                                              timeLimit=time_limit))


def _decide_pulp(puzzle, solver) -> str:
    """The plain cell model in PuLP, solved by ``solver``, then once more with the
    canonical no-good cut: unique, multiple, infeasible or timeout."""
    import pulp

    from thermomilp.backends.pulp_backend import read_status

    cells, rows, cols, prec, ties = cell_model_data(puzzle)
    prob = pulp.LpProblem("thermometers", pulp.LpMinimize)
    x = {c: prob.add_variable(f"x_{c[0]}_{c[1]}", cat=pulp.LpBinary) for c in cells}
    prob += pulp.lpSum([])
    for i, clue in rows:
        prob += pulp.lpSum(x[i, j] for j in range(puzzle.width)) == clue
    for j, clue in cols:
        prob += pulp.lpSum(x[i, j] for i in range(puzzle.height)) == clue
    for upper, lower in prec:
        prob += x[upper] - x[lower] <= 0
    for a, b in ties:
        prob += x[a] - x[b] == 0
    word, _ = read_status(prob.solve(solver), prob)
    if word != "optimal":
        return "infeasible" if word == "infeasible" else "timeout"
    ones = [c for c in cells if x[c].value() > 0.5]
    zeros = [c for c in cells if x[c].value() <= 0.5]
    prob += pulp.lpSum(1 - x[c] for c in ones) + pulp.lpSum(x[c] for c in zeros) >= 1
    word, _ = read_status(prob.solve(solver), prob)
    if word == "optimal":
        return "multiple"
    return "unique" if word == "infeasible" else "timeout"


# --------------------------------------------------------------------------
# OR-Tools CP-SAT with solution counting
# --------------------------------------------------------------------------


def decide_cpsat(puzzle, time_limit: float = 60.0, workers: int = 1) -> str:
    """CP-SAT: ``workers=1`` enumerates and stops at the second solution;
    ``workers=0`` (all cores, CP-SAT's default) solves, forbids the solution,
    solves again -- CP-SAT enumerates only with one worker."""
    from ortools.sat.python import cp_model

    cells, rows, cols, prec, ties = cell_model_data(puzzle)
    model = cp_model.CpModel()
    x = {c: model.new_bool_var(f"x_{c[0]}_{c[1]}") for c in cells}
    for i, clue in rows:
        model.add(sum(x[i, j] for j in range(puzzle.width)) == clue)
    for j, clue in cols:
        model.add(sum(x[i, j] for i in range(puzzle.height)) == clue)
    for upper, lower in prec:
        model.add_implication(x[upper], x[lower])
    for a, b in ties:
        model.add(x[a] == x[b])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    if workers == 1:
        solver.parameters.num_workers = 1
        solver.parameters.enumerate_all_solutions = True

        class StopAtTwo(cp_model.CpSolverSolutionCallback):
            def __init__(self):
                super().__init__()
                self.count = 0

            def on_solution_callback(self):
                self.count += 1
                if self.count >= 2:
                    self.stop_search()

        counter = StopAtTwo()
        status = solver.solve(model, counter)
        if counter.count >= 2:
            return "multiple"
        if status == cp_model.OPTIMAL:
            return "unique" if counter.count == 1 else "infeasible"
        return "infeasible" if status == cp_model.INFEASIBLE else "timeout"
    solver.parameters.num_workers = workers
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return "infeasible"
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "timeout"
    model.add_bool_or([x[c].Not() if solver.boolean_value(x[c]) else x[c] for c in cells])
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "multiple"
    return "unique" if status == cp_model.INFEASIBLE else "timeout"


# --------------------------------------------------------------------------
# The cell model through OR-Tools' linear solver wrapper (SCIP)
# --------------------------------------------------------------------------


def decide_pywraplp(puzzle, time_limit: float = 60.0, engine: str = "SCIP") -> str:
    from ortools.linear_solver import pywraplp

    cells, rows, cols, prec, ties = cell_model_data(puzzle)
    solver = pywraplp.Solver.CreateSolver(engine)
    solver.SetTimeLimit(int(time_limit * 1000))
    x = {c: solver.BoolVar(f"x_{c[0]}_{c[1]}") for c in cells}
    for i, clue in rows:
        solver.Add(sum(x[i, j] for j in range(puzzle.width)) == clue)
    for j, clue in cols:
        solver.Add(sum(x[i, j] for i in range(puzzle.height)) == clue)
    for upper, lower in prec:
        solver.Add(x[upper] <= x[lower])
    for a, b in ties:
        solver.Add(x[a] == x[b])
    status = solver.Solve()
    if status == pywraplp.Solver.INFEASIBLE:
        return "infeasible"
    if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
        return "timeout"
    ones = [c for c in cells if x[c].solution_value() > 0.5]
    zeros = [c for c in cells if x[c].solution_value() <= 0.5]
    solver.Add(sum(1 - x[c] for c in ones) + sum(x[c] for c in zeros) >= 1)
    status = solver.Solve()
    if status in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
        return "multiple"
    return "unique" if status == pywraplp.Solver.INFEASIBLE else "timeout"


# --------------------------------------------------------------------------
# The plain HiGHS cell model (highspy's own modelling API)
# --------------------------------------------------------------------------


def decide_plain_highs(puzzle, time_limit: float = 60.0) -> str:
    import highspy

    cells, rows, cols, prec, ties = cell_model_data(puzzle)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", float(time_limit))
    x = {c: h.addBinary() for c in cells}
    for i, clue in rows:
        h.addConstr(sum(x[i, j] for j in range(puzzle.width)) == clue)
    for j, clue in cols:
        h.addConstr(sum(x[i, j] for i in range(puzzle.height)) == clue)
    for upper, lower in prec:
        h.addConstr(x[upper] <= x[lower])
    for a, b in ties:
        h.addConstr(x[a] == x[b])
    h.run()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        return "infeasible"
    if status != highspy.HighsModelStatus.kOptimal:
        return "timeout"
    value = h.getSolution().col_value
    ones = [c for c in cells if value[x[c].index] > 0.5]
    zeros = [c for c in cells if value[x[c].index] <= 0.5]
    h.addConstr(sum(1 - x[c] for c in ones) + sum(x[c] for c in zeros) >= 1)
    h.run()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kOptimal:
        return "multiple"
    return "unique" if status == highspy.HighsModelStatus.kInfeasible else "timeout"


# --------------------------------------------------------------------------
# The plain PuLP cell model handed to HiGHS (the naive peer of --backend pulp)
# --------------------------------------------------------------------------


def decide_pulp_highs(puzzle, time_limit: float = 60.0) -> str:
    import pulp

    return _decide_pulp(puzzle, pulp.HiGHS(msg=False, timeLimit=time_limit))
