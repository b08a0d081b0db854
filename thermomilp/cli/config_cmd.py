"""``thermomilp config``: the resolved settings and where each one came from."""

from __future__ import annotations

import argparse

from thermomilp.cli.main import add_solver_flags


def register(sub) -> None:
    p = sub.add_parser("config", help="print the resolved settings and their sources",
                       description="Print every setting as the other commands would use it "
                                   "(flag > THERMOMILP_* environment > the nearest "
                                   "thermomilp.toml or pyproject.toml [tool.thermomilp] from "
                                   "this folder up > default) and where each value came from.")
    add_solver_flags(p)


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import settings_of
    from thermomilp.core.config import find_config

    settings = settings_of(args)
    for key, value in settings.values.items():
        if isinstance(value, dict):  # engine_options: NAME=VALUE,NAME=VALUE as the environment
            value = ",".join(f"{k}={_text(v)}" for k, v in value.items()) or None
        shown = "-" if value is None else _text(value)
        print(f"{key:<14} {shown:<10} ({settings.origins.get(key, 'default')})")
    search = find_config()
    print(f"config file: {search.where or 'none found from this folder up'}")
    print(f"search: {search.stopped}")
    for ignored in search.ignored:
        print(f"passed over: {ignored}")
    return 0


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
