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
    p.add_argument("--backend", choices=("pulp", "pyomo", "highs"),
                   help="modelling layer that builds the lp/mps model, or the compact/level "
                        "model a latex listing shows (default: pulp)")
    p.add_argument("--formulation", choices=("cell", "compact", "level"), default="cell",
                   help="which model an lp/mps file or a latex listing holds "
                        "(docs/formulation.md; default: cell); dat is cell only")
    p.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import write_output
    from thermomilp.core.errors import ConfigError
    from thermomilp.core.settings import FormulationKind
    from thermomilp.formats import load
    from thermomilp.teach.export import export

    cell = FormulationKind.parse(args.formulation, "--formulation") is FormulationKind.CELL
    if args.backend is not None and (args.to == "dat" or (args.to == "latex" and cell)):
        what = "a dat file" if args.to == "dat" else "the cell model's latex listing"
        raise ConfigError(f"--backend {args.backend}: {what} is written by thermomilp, not "
                          "built by a modelling layer (--backend chooses the layer for lp, "
                          "mps and the compact/level latex listings)")
    write_output(export(load(args.file), args.to, args.backend or "pulp", args.formulation),
                 args.output)
    return 0
