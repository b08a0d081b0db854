"""A per-line extended formulation (one DP flow network per clued line), measured.

    python benchmarks/line_flow.py [--repeats 3] [--aquarium 8]

The question (issue 19): the LP relaxation of the cell model knows only each
line's sum. Giving it the convex hull of every line's feasible fillings --
an extended formulation, one flow network per clued line -- makes the LP at
least as strong as interval reasoning on every line; does HiGHS then decide
the hard 15x15 boards (first solution, uniqueness proof) at the root, and
faster? Measured on the 15x15 boards of ``cpsat_compare.py`` and on a
larger Aquarium corpus; the answer (no) is in docs/performance.md.

**The network of line l** (clue K, crossed by vessels v_1..v_T in the
order of their first cell along l). For vessel v let c_v(L) be the number
of its cells in l filled at level L (non-decreasing in L) and
c_1 < ... < c_m its distinct positive values, c_k first reached at level
L_k. Nodes (t, s): "the first t vessels put s filled cells into l",
s = 0..K, kept only when reachable from (0, 0) and able to reach (T, K).
Vessel v_t gives the arcs (t-1, s) -> (t, s + c) for c in {0, c_1..c_m},
with flow f >= 0. Rows::

    sum of f on the arcs out of (0, 0)                 = 1        (F1)
    f into (t, s) - f out of (t, s)                    = 0        (F2)  0 < t < T
    x_{cell(v, k)} - sum_{arcs of v with c >= c_k} f   = 0        (F3)

``cell(v, k)``: a cell of layer L_k of v that lies in l (for a
thermometer the k-th of its cells in l; for a tank in a row, the tank's row
there). (F1)-(F2) make the flow one path (0, 0) -> (T, K) ((F1) is implied
by the clue row, every path summing to K, but kept); (F3) ties the
path to the cells: with x integral each vessel's arcs carry flow on one
contribution only, so the flow is integral and the path spells the line's
filling -- the MILP keeps exactly the same solutions (``tests/test_line_flow.py``
checks that against brute force). With x fractional the projection of
(F1)-(F3) onto line l's cells is the convex hull of that line's fillings
(a path polytope is integral), so a cell that interval reasoning fixes is
fixed in the LP too (also tested).

The cell model (rows (1)-(4) of docs/formulation.md) is kept; the flows are
extra columns and rows. Uniqueness is asked as on the default path: the
no-good cut and ``highs_backend.PROOF_OPTIONS``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import numpy as np  # noqa: E402
from _common import machine  # noqa: E402

# -- the formulation ----------------------------------------------------------

def line_parts(puzzle):
    """Per clued line: (clue, [(contribution values c_1..c_m, cells cell(v, k)) per vessel])."""
    lines = []
    for axis, clues in ((0, puzzle.rows), (1, puzzle.cols)):
        for index, clue in enumerate(clues):
            if clue is None:
                continue
            parts = []
            for vessel in puzzle.vessels:
                count, values, cells = 0, [], []
                for layer in vessel.layers:
                    here = [cell for cell in layer if cell[axis] == index]
                    if here:
                        count += len(here)
                        values.append(count)
                        cells.append(here[0])
                if values:
                    parts.append((cells[0][1 - axis], values, cells))
            parts.sort(key=lambda part: part[0])
            lines.append((clue, [(values, cells) for _, values, cells in parts]))
    return lines


def _alive_sums(clue: int, parts) -> list[int]:
    """Per layer t, a bitset of the sums s reachable from (0, 0) that can reach (T, clue)."""
    full = (1 << (clue + 1)) - 1
    forward = [1]
    for values, _ in parts:
        prev = forward[-1]
        nxt = prev
        for c in values:
            nxt |= prev << c
        forward.append(nxt & full)
    backward = [1 << clue]
    for values, _ in reversed(parts):
        nxt = backward[-1]
        b = nxt
        for c in values:
            b |= nxt >> c
        backward.append(b)
    backward.reverse()
    return [f & b for f, b in zip(forward, backward, strict=True)]


def flow_rows(puzzle, first_col: int):
    """(number of flow columns, CSR rows (lower, upper, starts, indices, values)) of
    (F1)-(F3) for every clued line; flow columns start at ``first_col``, the cell
    x_(r, c) is column r * W + c."""
    W = puzzle.width
    n_flow = 0
    rows: list[tuple[float, list[int], list[float]]] = []  # (rhs, cols, coefs): equalities
    for clue, parts in line_parts(puzzle):
        alive = _alive_sums(clue, parts)
        if not alive[-1] & (1 << clue):
            rows.append((1.0, [], []))  # this line cannot make its clue: 0 = 1
            continue
        out_of: dict[tuple[int, int], list[int]] = {}
        into: dict[tuple[int, int], list[int]] = {}
        for t, (values, cells) in enumerate(parts):
            by_value: dict[int, list[int]] = {}
            for s in range(clue + 1):
                if not alive[t] >> s & 1:
                    continue
                for c in (0, *values):
                    if s + c <= clue and alive[t + 1] >> (s + c) & 1:
                        arc = first_col + n_flow
                        n_flow += 1
                        out_of.setdefault((t, s), []).append(arc)
                        into.setdefault((t + 1, s + c), []).append(arc)
                        by_value.setdefault(c, []).append(arc)
            for c_k, (r, col) in zip(values, cells, strict=True):  # (F3)
                arcs = [a for c, some in by_value.items() if c >= c_k for a in some]
                rows.append((0.0, [r * W + col, *arcs], [1.0] + [-1.0] * len(arcs)))
        start = out_of[(0, 0)]
        rows.append((1.0, start, [1.0] * len(start)))  # (F1)
        for t in range(1, len(parts)):  # (F2)
            for s in range(clue + 1):
                if alive[t] >> s & 1:
                    ins, outs = into.get((t, s), []), out_of.get((t, s), [])
                    rows.append((0.0, ins + outs, [1.0] * len(ins) + [-1.0] * len(outs)))
    rhs = np.array([row[0] for row in rows])
    lengths = np.array([len(row[1]) for row in rows], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int32)
    indices = np.array([k for row in rows for k in row[1]], dtype=np.int32)
    values = np.array([v for row in rows for v in row[2]], dtype=float)
    return n_flow, (rhs, rhs.copy(), starts, indices, values)


def build(puzzle, flow: bool, flow_integer: bool = False, cells_integer: bool = True):
    """(Highs holding the cell model, plus the line flows when ``flow``, number of x columns)."""
    import highspy

    from thermomilp.model.formulation import formulate
    from thermomilp.model.highs_model import build_highs

    form = formulate(puzzle)
    n = form.n_vars
    h = build_highs(form, names=False)
    if flow:
        n_flow, (lower, upper, starts, indices, values) = flow_rows(puzzle, n)
        h.addVars(n_flow, np.zeros(n_flow), np.ones(n_flow))
        h.addRows(lower.size, lower, upper, indices.size, starts, indices, values)
        if flow_integer:
            h.changeColsIntegrality(n_flow, np.arange(n, n + n_flow, dtype=np.int32),
                                    np.full(n_flow, highspy.HighsVarType.kInteger))
    if not cells_integer:
        h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                                np.full(n, highspy.HighsVarType.kContinuous))
    return h, n


def add_cut(h, puzzle, grid) -> None:
    """The engine's uniqueness cut of ``grid``: the no-good."""
    from thermomilp.core.puzzle import ones_of
    from thermomilp.model.formulation import formulate
    from thermomilp.model.highs_model import nogood_row

    form = formulate(puzzle)
    lower, cols, values = nogood_row(form.n_vars, form.vars_of(ones_of(grid)))
    h.addRow(lower, np.inf, cols.size, cols, values)


# -- measurements ---------------------------------------------------------------

def relaxation(puzzle, flow: bool, cut: bool) -> str:
    """The LP relaxation: "infeasible" or the number of fractional cells at HiGHS's vertex."""
    h, n = build(puzzle, flow, cells_integer=False)
    if cut:
        add_cut(h, puzzle, puzzle.solution)
    h.run()
    if h.modelStatusToString(h.getModelStatus()) == "Infeasible":
        return "infeasible"
    x = np.asarray(h.getSolution().col_value)[:n]
    return f"{int(((x > 1e-6) & (x < 1 - 1e-6)).sum())} frac"


VARIANTS = {
    "plain": dict(flow=False),
    "flow": dict(flow=True),
    "flow, proof only": dict(flow=False, flow_for_proof=True),
    "flow, presolve off": dict(flow=True, options={"presolve": "off"}),
    "flow integer, x continuous": dict(flow=True, flow_integer=True, cells_integer=False),
}


def first_and_proof(puzzle, flow: bool, flow_for_proof: bool = False, options=None,
                    flow_integer: bool = False, cells_integer: bool = True):
    """(seconds to build + first solution, seconds of the proof, proof status)."""
    import highspy

    from thermomilp.backends.highs_backend import PROOF_OPTIONS
    from thermomilp.core.puzzle import grid_from_ones
    from thermomilp.core.verify import solution_problems
    from thermomilp.model.formulation import formulate

    start = time.perf_counter()
    h, n = build(puzzle, flow, flow_integer, cells_integer)
    for name, value in (options or {}).items():
        h.setOptionValue(name, value)
    h.run()
    if h.getModelStatus() == highspy.HighsModelStatus.kInfeasible:
        # HiGHS 1.16 with presolve on calls highs_wrong_infeasible_15x15 infeasible
        # (the engine's confirmation catches it); asked again with presolve off here
        h.setOptionValue("presolve", "off")
        h.run()
        h.setOptionValue("presolve", (options or {}).get("presolve", "choose"))
    x = np.asarray(h.getSolution().col_value)[:n]
    grid = grid_from_ones(puzzle.height, puzzle.width, formulate(puzzle).ones_from_values(x))
    assert not solution_problems(puzzle, grid), "HiGHS returned a grid that is not a solution"
    first = time.perf_counter()
    if flow_for_proof:
        n_flow, (lower, upper, starts, indices, values) = flow_rows(puzzle, n)
        h.addVars(n_flow, np.zeros(n_flow), np.ones(n_flow))
        h.addRows(lower.size, lower, upper, indices.size, starts, indices, values)
    add_cut(h, puzzle, grid)
    for name, value in PROOF_OPTIONS.items():
        h.setOptionValue(name, value)
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    return first - start, time.perf_counter() - first, status


def confirm_skipping_known(puzzle, grid) -> tuple[str, int]:
    """The logic confirmation of ``solving/confirm.py`` with one change: while the
    excluded (verified) solution lies inside a node's domains its levels are not
    probed (no sound rule erases a level of a solution). (verdict, nodes)."""
    from thermomilp.core.puzzle import ones_of
    from thermomilp.logic.domains import full_domains, grid_of, levels_in, line_tables
    from thermomilp.logic.propagation import probe_fixpoint

    tables = line_tables(puzzle)
    ones = ones_of(grid)
    star = [1 << sum(1 for layer in v.layers if layer[0] in ones) for v in puzzle.vessels]
    nodes = 0

    def rec(dom) -> bool:  # True: a solution other than grid below this node
        nonlocal nodes
        nodes += 1
        known = star if all(k & m for k, m in zip(star, dom, strict=True)) else None
        if not probe_fixpoint(tables, dom, None, known):
            return False
        open_vessels = [v for v, m in enumerate(dom) if m & (m - 1)]
        if not open_vessels:
            return ones_of(grid_of(tables, dom)) != ones
        v = min(open_vessels, key=lambda u: bin(dom[u]).count("1"))
        for level in levels_in(dom[v]):
            child = dom.copy()
            child[v] = 1 << level
            if rec(child):
                return True
        return False

    return ("rival" if rec(full_domains(tables)) else "confirmed"), nodes


def median_of(repeats: int, fn):
    runs = [fn() for _ in range(repeats)]
    return statistics.median(runs)


def lp_table(boards, repeats: int) -> None:
    print("\nLP relaxation (x continuous): columns / rows; HiGHS's vertex "
          "(fractional cells or infeasible), without and with the uniqueness cut of "
          "the planted solution; the time of the last one (the flow LP as a pre-proof, "
          f"build included, median of {repeats}):\n")
    print("| board | plain cols / rows | flow cols / rows | root LP plain | root LP flow "
          "| LP + cut plain | LP + cut flow | LP + cut flow ms |")
    print("|---|---:|---:|---|---|---|---|---:|")
    for label, puzzle in boards:
        sizes = []
        for flow in (False, True):
            h, _ = build(puzzle, flow)
            sizes.append(f"{h.getNumCol()} / {h.getNumRow()}")
        lps = [relaxation(puzzle, flow, cut) for cut in (False, True) for flow in (False, True)]
        seconds = median_of(repeats, partial(_seconds, partial(relaxation, puzzle, True, True)))
        print(f"| {label} | {sizes[0]} | {sizes[1]} | " + " | ".join(lps)
              + f" | {seconds * 1000:.0f} |")


def solve_table(boards, repeats: int, names) -> None:
    print(f"\nFirst solve (build included) + proof, ms, median of {repeats}, variants "
          "interleaved per board:\n")
    print("| board | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    totals = {name: [0.0, 0.0] for name in names}
    for label, puzzle in boards:
        runs: dict[str, list] = {name: [] for name in names}
        for _ in range(repeats):
            for name in names:
                runs[name].append(first_and_proof(puzzle, **VARIANTS[name]))
        cells = []
        for name in names:
            first = statistics.median(r[0] for r in runs[name])
            proof = statistics.median(r[1] for r in runs[name])
            totals[name][0] += first
            totals[name][1] += proof
            verdicts = {r[2] for r in runs[name]}
            note = "" if verdicts == {"Infeasible"} else f" ({', '.join(sorted(verdicts))})"
            cells.append(f"{first * 1000:.0f} + {proof * 1000:.0f}{note}")
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)
    print("| **total** | "
          + " | ".join(f"{a * 1000:.0f} + {b * 1000:.0f} = **{(a + b) * 1000:.0f}**"
                       for a, b in totals.values()) + " |")


def confirm_table(boards, repeats: int) -> None:
    from thermomilp.core.puzzle import ones_of
    from thermomilp.solving.confirm import CONFIRMED, confirm_infeasible

    print(f"\nThe confirmation of the proof's \"infeasible\" (logic search, solving/confirm.py), "
          f"ms, median of {repeats}; the same search not probing the excluded solution's "
          "levels while it lies inside the node:\n")
    print("| board | confirm_infeasible | skipping the known levels | nodes |")
    print("|---|---:|---:|---:|")
    for label, puzzle in boards:
        grid = puzzle.solution
        cuts = [(ones_of(grid), None)]
        now = median_of(repeats, partial(_seconds, partial(confirm_infeasible, puzzle, None,
                                                           cuts, None)))
        assert confirm_infeasible(puzzle, None, cuts, None) == CONFIRMED
        skip = median_of(repeats, partial(_seconds, partial(confirm_skipping_known, puzzle, grid)))
        verdict, nodes = confirm_skipping_known(puzzle, grid)
        assert verdict == "confirmed"
        print(f"| {label} | {now * 1000:.1f} | {skip * 1000:.1f} | {nodes} |")


def other_engines_table(boards, repeats: int) -> None:
    """The proof (the cell model plus the no-good of the planted solution) by engines
    independent of HiGHS, through PuLP: a candidate second opinion, process included."""
    import pulp

    from thermomilp.backends.matrix import program_path
    from thermomilp.backends.pulp_backend import read_status
    from thermomilp.core.engines import Solver
    from thermomilp.model.formulation import formulate
    from thermomilp.model.pulp_model import build_pulp

    # PuLP 4 has no PULP_CBC_CMD: COIN_CMD runs the probed binary, as peer_models does
    engines = {"glpsol (GLPK_CMD)": pulp.GLPK_CMD(msg=False),
               "CBC (COIN_CMD)": pulp.COIN_CMD(path=program_path(Solver.CBC), msg=False)}
    engines = {name: e for name, e in engines.items() if e.available()}
    if not engines:
        print("\nno glpsol / CBC here: the other engines' proofs are skipped")
        return

    def proof(puzzle, engine) -> str:
        prob, x = build_pulp(formulate(puzzle))
        ones = {(r, c) for r, row in enumerate(puzzle.solution)
                for c, ch in enumerate(row) if ch == "#"}
        prob += (pulp.lpSum(1 - x[c] for c in x if c in ones)
                 + pulp.lpSum(x[c] for c in x if c not in ones)) >= 1, "nogood"
        return read_status(prob.solve(engine), prob)[0]

    print(f"\nThe proof by an engine other than HiGHS (PuLP's cell model plus the no-good, "
          f"build and process included), ms, median of {repeats}:\n")
    print("| board | " + " | ".join(engines) + " |")
    print("|---|" + "---:|" * len(engines))
    for label, puzzle in boards:
        cells = []
        for engine in engines.values():
            assert proof(puzzle, engine) == "infeasible", f"{label}: not proved infeasible"
            seconds = median_of(repeats, partial(_seconds, partial(proof, puzzle, engine)))
            cells.append(f"{seconds * 1000:.0f}")
        print(f"| {label} | " + " | ".join(cells) + " |", flush=True)


def _seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def boards_15x15(aquarium_per_size: int, smoke: bool = False):
    import corpora
    from cpsat_compare import milp_boards

    from thermomilp.solving import solve

    main = []
    for _, label, puzzle in milp_boards(smoke):
        if puzzle.height == 15:
            if puzzle.solution is None or solve(puzzle).status != "unique":
                continue
            main.append((label, puzzle))
    extra = [(b.name, b.puzzle) for b in
             corpora.aquariums(per_size=aquarium_per_size, sizes=(12, 15), seed=11)]
    return main, extra


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--aquarium", type=int, default=8,
                        help="extra Aquarium boards per size (12x12, 15x15), seed 11")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest run, for the test suite's smoke run: one 15x15 "
                             "board of each source (cpsat_compare.milp_boards)")
    args = parser.parse_args()
    print(f"Machine: {machine()}; load average {os.getloadavg()[0]:.1f}")
    main_boards, extra = boards_15x15(args.aquarium, args.smoke)
    for _, puzzle in main_boards[:1]:
        first_and_proof(puzzle, flow=True)  # imports out of the timing
    lp_table(main_boards, args.repeats)
    solve_table(main_boards, args.repeats, list(VARIANTS))
    if extra:
        print("\nMore Aquarium boards (corpora.aquariums, 12x12 and 15x15, seed 11):")
        solve_table(extra, args.repeats, ["plain", "flow"])
    confirm_table(main_boards, args.repeats)
    other_engines_table(main_boards, args.repeats)
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
