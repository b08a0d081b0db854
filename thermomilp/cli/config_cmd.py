"""``thermomilp config``: the resolved settings and where each one came from."""

from __future__ import annotations

import argparse

from thermomilp.cli.main import add_solver_flags


def register(sub) -> None:
    p = sub.add_parser("config", help="print the resolved settings and their sources")
    add_solver_flags(p, formulation=True)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import settings_from

    settings = settings_from(args)
    for key, value in settings.values.items():
        shown = "-" if value is None else value
        print(f"{key:<11} {str(shown):<10} ({settings.origins[key]})")
    return 0
