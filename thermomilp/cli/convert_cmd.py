"""``thermomilp convert FILE --to FORMAT``: rewrite a puzzle in another format."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser("convert", help="convert a puzzle file to another format")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--to", required=True, metavar="FORMAT",
                   help="json, text, janko, site, aquarium-task, puzzlink, pzprv3 "
                        "(see docs/formats.md); the Aquarium rule is kept")
    p.add_argument("-o", "--output", metavar="OUT", help="write here instead of stdout")


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import write_output
    from thermomilp.formats import dumps, load

    write_output(dumps(load(args.file), args.to), args.output)
    return 0
