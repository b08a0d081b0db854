"""``thermomilp export FILE --to lp|mps|dat|latex``: the model of a puzzle as a file."""

from __future__ import annotations

import argparse

from thermomilp.cli.main import add_solver_flags


def register(sub) -> None:
    p = sub.add_parser("export", help="write a puzzle's model as LP, MPS, GMPL .dat or LaTeX",
                       description="Write the model of FILE: lp / mps as built by the "
                                   "settings' modelling layer (--backend, default: chosen from "
                                   "the solver, highs) in the settings' formulation "
                                   "(--formulation, default cell), with the names of "
                                   "docs/formulation.md; dat for models/*.mod (glpsol, AMPL, "
                                   "Pyomo AbstractModel; the cell model only); latex for "
                                   "slides (small boards).")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--to", required=True, choices=("lp", "mps", "dat", "latex"))
    p.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")
    add_solver_flags(p, uses=("backend", "formulation"),
                     note="export builds a model and runs no engine: --backend is the "
                          "modelling layer that builds an lp/mps file or a compact/level "
                          "latex listing, --formulation the model (dat is the cell model's "
                          "data; the cell model's latex is written by thermomilp).")


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import settings_of, write_output
    from thermomilp.core.errors import ConfigError
    from thermomilp.core.settings import FormulationKind
    from thermomilp.formats import load
    from thermomilp.teach.export import export

    settings = settings_of(args)
    if args.to == "dat" and args.formulation is None:
        # a dat file is the cell model's data: a formulation from the environment or a
        # config file is not used there (given here, the export refuses it)
        settings = settings.replace(formulation=FormulationKind.CELL)
    cell = settings.formulation is FormulationKind.CELL
    if args.backend is not None and (args.to == "dat" or (args.to == "latex" and cell)):
        what = "a dat file" if args.to == "dat" else "the cell model's latex listing"
        raise ConfigError(f"--backend {args.backend}: {what} is written by thermomilp, not "
                          "built by a modelling layer (--backend chooses the layer for lp, "
                          "mps and the compact/level latex listings)")
    write_output(export(load(args.file), args.to, settings=settings), args.output)
    return 0
