"""``thermomilp export FILE --to lp|mps|dat|latex``: the model of a puzzle as a file."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser("export", help="write a puzzle's model as LP, MPS, GMPL .dat or LaTeX",
                       description="Write the model of FILE: lp / mps as built by the chosen "
                                   "modelling layer, with the names of docs/formulation.md; "
                                   "dat for models/*.mod (glpsol, AMPL, Pyomo AbstractModel); "
                                   "latex for slides (small boards).")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--to", required=True, choices=("lp", "mps", "dat", "latex"))
    p.add_argument("--backend", choices=("pulp", "pyomo", "highs"), default="pulp",
                   help="modelling layer that builds the lp/mps model (default: pulp)")
    p.add_argument("--formulation", choices=("cell", "compact", "level"), default="cell",
                   help="which model an lp/mps file holds (docs/formulation.md; default: cell)")
    p.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import write_output
    from thermomilp.formats import load
    from thermomilp.teach.export import export

    write_output(export(load(args.file), args.to, args.backend, args.formulation), args.output)
    return 0
