"""``thermomilp solvers``: every (backend, solver) pair, installed or not, and how to get it."""

from __future__ import annotations

import argparse
import json


def register(sub) -> None:
    p = sub.add_parser("solvers", help="list every backend/solver pair and how to install it",
                       description="Print the solver matrix: each (backend, solver) pair, "
                                   "whether it is available here, the engine's version, and "
                                   "the install step for each missing one, and which logic "
                                   "kernel runs (compiled or Python).")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="a table (default) or one JSON object")


def run(args: argparse.Namespace) -> int:
    from thermomilp.backends.matrix import layer_version, matrix
    from thermomilp.core.engines import ENGINES, LAYERS
    from thermomilp.core.settings import BACKEND_FOR
    from thermomilp.logic import propagation

    rows = matrix()
    rule = {str(solver): str(backend) for solver, backend in BACKEND_FOR.items()}
    engines = {str(solver): {"options": {name: option.accepted()
                                         for name, option in sorted(record.options.items())},
                             "time_limit": list(record.time_options),
                             "threads": record.threads_option, "seed": record.seed_option,
                             "fixed_uses": [str(use) for use in record.fixed_uses]}
               for solver, record in ENGINES.items()}
    layers = {layer: record for layer, record in LAYERS.items() if record.module}
    if args.format == "json":
        print(json.dumps({"layers": {str(layer): layer_version(layer) for layer in layers},
                          "pairs": [row.to_json() for row in rows], "rule": rule,
                          "engines": engines,
                          "logic_kernel": {"kernel": propagation.KERNEL,
                                           "why": propagation.REASON}}))
        return 0
    print("layers: " + ", ".join(f"{record.label} {layer_version(layer) or 'not installed'}"
                                 for layer, record in layers.items())
          + ", highs = highspy direct")
    print(f"logic kernel: {propagation.describe()}")
    print(f"{'backend':<8} {'solver':<7} {'available':<10} {'version':<26} install")
    for row in rows:
        install = "" if row.available else row.install or ""
        note = "" if row.available or not row.detail else f"  ({row.detail})"
        print(f"{row.backend:<8} {row.solver:<7} {'yes' if row.available else 'no':<10} "
              f"{row.version or '-':<26} {install}{note}".rstrip())
    print("--solver alone is driven by: "
          + ", ".join(f"{solver} -> {backend}" for solver, backend in rule.items())
          + " (--backend chooses another layer; engines outside this list are refused)")
    for solver, record in ENGINES.items():
        print(f"--engine-option for {solver}: {', '.join(record.allowed_names())}")
    for record in ENGINES.values():
        for use in record.fixed_uses:
            print(f"always {record.label}, whatever --solver says: {use}")
    return 0
