"""``thermomilp generate``: unique boards written as native text files, with a progress bar
(docs/generate.md: each file written whole, board ``i`` of a series depending only on the
seed, ``i`` and the flags).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time

from thermomilp.cli.main import EXIT_NO_SOLUTION, EXIT_OK, add_solver_flags
from thermomilp.core.untrusted import shown

SIZE = re.compile(r"^(\d+)\s*[xX]\s*(\d+)$")
# Largest side the generators accept (a 99999x99999 request would build its
# grid for hours before the first question); measured times in docs/generate.md.
MAX_SIDE = {"thermometers": 100, "aquarium": 40}


def register(sub) -> None:
    p = sub.add_parser("generate", help="generate unique boards with solution and grade",
                       description="Generate boards with exactly one solution (proven by the "
                                   "MILP), graded by the logic engine, written to DIR in the "
                                   "native text format.")
    p.add_argument("--puzzle", choices=("thermometers", "aquarium"), default="thermometers")
    p.add_argument("--rule", choices=("tank", "pool"), default="tank",
                   help="Aquarium rule: tank = one waterline per tank (default), pool = one "
                        "level per connected body of water (graded on its layer trees)")
    p.add_argument("--size", required=True, metavar="HxW", help="board size, e.g. 15x15")
    p.add_argument("--count", type=int, default=1, metavar="N", help="boards to make (1)")
    p.add_argument("--seed", default="0", metavar="S", help="seed of the series (0)")
    p.add_argument("--strategy", choices=("peel", "repair", "reroll"),
                   help="peel (default from 30x30: decided by logic, any size), repair (default "
                        "below 30x30) or reroll (the published baseline)")
    shape = p.add_mutually_exclusive_group()
    shape.add_argument("--straight", action="store_true", help="straight thermometers only")
    shape.add_argument("--curved", action="store_true",
                       help="thermometers may bend (the default)")
    p.add_argument("--max-length", type=int, default=6, metavar="L", help="longest thermometer (6)")
    clues = p.add_mutually_exclusive_group()
    clues.add_argument("--missing-clues", type=int, default=0, metavar="K",
                       help="delete K line clues, keeping the board unique")
    clues.add_argument("--minimal-clues", action="store_true",
                       help="delete clues until every remaining clue is needed")
    p.add_argument("--difficulty", choices=("easy", "medium", "hard"),
                   help="grade wanted: easy = intervals, medium = probing, hard = pairs or "
                        "search (Aquarium: boards with minimal clues drawn until one matches)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for the board files")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_solver_flags(p, uses=("time_limit",), taken=("seed",),
                     note="The rival search always runs HiGHS (a fixed use: `thermomilp "
                          "solvers`); --time-limit S stops a board after S seconds (exit 1, "
                          "keeping the boards made). --seed is the series' seed, not the "
                          "engine's.")


def _flags_the_puzzle_ignores(args: argparse.Namespace) -> list[str]:
    """The flags given that the chosen puzzle's generator has no use for (refused, not
    silently dropped): the thermometer shape flags and ``--strategy reroll`` for Aquarium,
    the Aquarium rule for Thermometers. ``--difficulty`` serves both."""
    if args.puzzle == "thermometers":
        return ["--rule pool"] if args.rule == "pool" else []
    given = [("--strategy reroll", args.strategy == "reroll"), ("--straight", args.straight),
             ("--curved", args.curved), ("--max-length", args.max_length != 6)]
    return [flag for flag, on in given if on]


def run(args: argparse.Namespace) -> int:
    from thermomilp.batch.run import Progress
    from thermomilp.cli.main import settings_of
    from thermomilp.core.errors import ConfigError, GenerationTimeUp
    from thermomilp.core.files import write_whole
    from thermomilp.formats import dumps

    match = SIZE.match(args.size.strip())
    if not match:
        raise ConfigError(f"--size {args.size!r} must look like 15x15")
    height, width = int(match.group(1)), int(match.group(2))
    limit = MAX_SIDE[args.puzzle]
    if max(height, width) > limit:
        raise ConfigError(f"--size {height}x{width} is too large: {args.puzzle} boards are "
                          f"generated up to {limit}x{limit}")
    if args.count < 1:
        raise ConfigError("--count must be at least 1")
    unused = _flags_the_puzzle_ignores(args)
    if unused:
        raise ConfigError(f"{', '.join(unused)}: not used by --puzzle {args.puzzle}")
    time_limit = settings_of(args).time_limit
    os.makedirs(args.out, exist_ok=True)
    bar = Progress(args.count, enabled=False if args.quiet else None)
    grades: dict[str, int] = {}
    for i in range(args.count):
        try:
            board = _one_board(args, height, width, i, bar.status, time_limit)
        except GenerationTimeUp as exc:  # not bad input: out of time (exit 1)
            bar.close()
            kept = sum(grades.values())
            print(f"thermomilp: time limit: board {i + 1} of {args.count} ({height}x{width}) "
                  f"not made within {time_limit:g} s (stopped in the "
                  f"{exc.where or 'generator'}); {kept} board"
                  f"{'s' if kept != 1 else ''} written", file=sys.stderr)
            if kept and not args.quiet:
                print(summary_line(args, height, width, grades,
                                   time.perf_counter() - bar.start), file=sys.stderr)
            return EXIT_NO_SOLUTION
        name = f"{args.puzzle[:5]}_{height}x{width}_s{args.seed}_{i:03d}.txt"
        write_whole(os.path.join(args.out, name), dumps(board, "text"))
        grades[board.grade or "ungraded"] = grades.get(board.grade or "ungraded", 0) + 1
        bar.step(f"{name} {board.grade or ''}")
    bar.close()
    if not args.quiet and not bar.enabled:  # no bar was drawn (a log, a pipe): one line
        print(summary_line(args, height, width, grades, time.perf_counter() - bar.start),
              file=sys.stderr)
    return EXIT_OK


def summary_line(args: argparse.Namespace, height: int, width: int, grades: dict[str, int],
                 seconds: float) -> str:
    """``generate: 3 thermometers boards 10x10 (seed 0) in out/, 1.52 s: 2 probing, 1 pairs``."""
    count = sum(grades.values())
    made = ", ".join(f"{n} {grade}" for grade, n in sorted(grades.items()))
    return (f"generate: {count} {args.puzzle} board{'s' if count != 1 else ''} "
            f"{height}x{width} (seed {shown(args.seed)}) in {shown(args.out)}, "
            f"{seconds:.2f} s: {made}")


def _one_board(args: argparse.Namespace, height: int, width: int, index: int, status,
               time_limit: float | None):
    if args.puzzle == "aquarium":
        from thermomilp.generate.aquarium_bridge import aquarium_board

        return aquarium_board(height, width, args.seed, index, args.rule,
                              time_limit=time_limit, minimal_clues=args.minimal_clues,
                              missing_clues=args.missing_clues, strategy=args.strategy,
                              difficulty=args.difficulty)
    from thermomilp.generate.thermometers_gen import generate_thermometers

    return generate_thermometers(
        height, width, args.seed, index=index, strategy=args.strategy, straight=args.straight,
        max_length=args.max_length, missing_clues=args.missing_clues,
        minimal_clues=args.minimal_clues, difficulty=args.difficulty,
        time_limit=time_limit, progress=status).puzzle
