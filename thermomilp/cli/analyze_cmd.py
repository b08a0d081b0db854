"""``thermomilp analyze FILE...``: model size, LP relaxation, solution count, logic."""

from __future__ import annotations

import argparse
import json


def register(sub) -> None:
    p = sub.add_parser("analyze", help="model statistics, LP relaxation and solution count",
                       description="For each FILE: the size of the cell and level formulations, "
                                   "the LP relaxation (integral share, cells it decides), the "
                                   "number of solutions (capped) and the cells each logic rule "
                                   "set fixes.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--max-solutions", type=int, default=10, metavar="N",
                   help="stop counting solutions at N (default 10)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from thermomilp.core.errors import ConfigError
    from thermomilp.formats import load
    from thermomilp.teach.analyze import analyze, report

    if args.max_solutions < 1:
        raise ConfigError("--max-solutions must be at least 1")
    for n, path in enumerate(args.files):
        result = analyze(load(path), args.max_solutions)
        if args.format == "json":
            print(json.dumps({"file": path, **result.to_json()}))
        else:
            if n:
                print()
            from thermomilp.core.untrusted import shown, shown_lines

            print(f"== {shown(path)}")
            print(shown_lines(report(result)))
    return 0
