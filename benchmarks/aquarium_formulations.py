"""Cell vs compact MILP on Aquarium: model size and time to solve + prove unique.

For every board in ``instances/aquarium/`` and each backend, ``solve`` (with
the uniqueness no-good solve, ``logic="none"``: the default logic decides these
boards before any model is built) runs ``--repeat`` times per formulation; the
table shows the median seconds and the ratio cell / compact measured in the
same run, plus the model sizes (binaries, constraint rows).

    PYTHONPATH=. python benchmarks/aquarium_formulations.py [--backends highs pulp pyomo]
        [--repeat 5]
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import time

from thermomilp import load
from thermomilp.model.compact import compact_from
from thermomilp.model.formulation import formulate
from thermomilp.solving import solve

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="+", default=["highs", "pulp", "pyomo"])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"{'board':<16}{'backend':<8}{'cell vars/rows':>16}{'compact vars/rows':>19}"
          f"{'cell s':>9}{'compact s':>11}{'cell/compact':>14}")
    paths = sorted((ROOT / "instances" / "aquarium").glob("*.txt"))
    for backend in args.backends:  # warm-up: imports and first engine start are no model's
        for formulation in ("cell", "compact"):
            solve(load(paths[0]), backend=backend, formulation=formulation, logic="none")
    for path in paths:
        puzzle = load(path)
        form = formulate(puzzle)
        compact = compact_from(form)
        cell_rows = len(form.row_clues) + len(form.col_clues) + len(form.arcs) + len(form.ties)
        compact_rows = len(compact.row_clues) + len(compact.col_clues) + len(compact.chains)
        cell_size, compact_size = f"{form.n_vars}/{cell_rows}", f"{compact.n_vars}/{compact_rows}"
        for backend in args.backends:
            times = {}
            for formulation in ("cell", "compact"):
                runs = []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    result = solve(puzzle, backend=backend, formulation=formulation, logic="none")
                    runs.append(time.perf_counter() - start)
                    assert result.status == "unique" and result.grid == puzzle.solution
                    assert result.proof == "milp", f"{path.name}: no model was solved"
                times[formulation] = statistics.median(runs)
            print(f"{path.name:<16}{backend:<8}{cell_size:>16}{compact_size:>19}"
                  f"{times['cell']:9.4f}{times['compact']:11.4f}"
                  f"{times['cell'] / times['compact']:14.2f}", flush=True)


if __name__ == "__main__":
    main()
