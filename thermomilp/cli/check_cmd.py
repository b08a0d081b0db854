"""``thermomilp check FILE...``: what an author wants to know about each board.

Per board: the number of solutions (counted by the MILP with no-good cuts, capped at
``--limit``), the logic grade, a second solution when the board is not unique, and
whether the solution stored in the file is the one found (the record and the exit
codes: docs/generate.md, "thermomilp check"). ``status`` is ``unique``, ``multiple``,
``infeasible``, ``timeout`` (one deadline per board covers counting and grading) or
``error`` (also when the engine misses the solution stored in the file, which the
independent checker accepts: a count that cannot be trusted is not printed). A file
that cannot be read gets the record ``solve`` and ``batch`` give it
(`thermomilp.solving.pipeline.unreadable_record`).
"""

from __future__ import annotations

import argparse
from typing import Any

from thermomilp.cli.main import EXIT_NO_SOLUTION, add_solver_flags
from thermomilp.core.untrusted import shown, shown_lines


def register(sub) -> None:
    p = sub.add_parser("check", help="count solutions, grade, and show a second solution",
                       description="For each FILE: the number of solutions (capped at "
                                   "--limit), the logic grade, and a second solution when the "
                                   "board is not unique. Exit 0 if every board is unique, 1 "
                                   "if not, 2 for bad input.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--limit", type=int, default=10, metavar="N",
                   help="stop counting at N solutions (10)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    add_solver_flags(p)


def check_board(puzzle, limit: int, *, settings: Any = None) -> dict[str, Any]:
    """The check record of one board (without the ``file`` key); one deadline
    (the settings' time limit) covers the count and the grade."""
    from thermomilp.core.deadline import Deadline
    from thermomilp.core.settings import settings_from
    from thermomilp.core.verify import solution_problems
    from thermomilp.solving import SolveError, enumerate_solutions

    chosen = settings_from(settings)
    clock = Deadline(chosen.time_limit)
    record: dict[str, Any] = {"puzzle": puzzle.kind}
    try:
        found = list(enumerate_solutions(puzzle, limit, settings=chosen, deadline=clock))
    except SolveError as exc:
        record.update(status=exc.status, error=str(exc), solutions=None, capped=False)
        found = []
    else:
        record["solutions"] = len(found)
        record["capped"] = len(found) >= limit
        record["status"] = ("infeasible" if not found else
                            "unique" if len(found) == 1 else "multiple")
        stored_ok = puzzle.solution is not None and not solution_problems(puzzle,
                                                                           puzzle.solution)
        if stored_ok and puzzle.solution not in found and len(found) < limit:
            record.update(status="error", solutions=None,
                          error=f"{chosen.solver} missed the file's own solution (checked by "
                                "thermomilp.core.verify): the count cannot be trusted")
    record["grade"], record["difficulty"] = (_grade(puzzle, clock) if record["status"] in
                                             ("unique", "multiple") else (None, None))
    record["recorded_grade"] = puzzle.grade
    record["second"] = list(found[1]) if len(found) > 1 else None
    record["solution_matches"] = (None if puzzle.solution is None or not found
                                  else puzzle.solution in found and len(found) == 1)
    record["time_s"] = round(clock.elapsed(), 6)
    return record


def _grade(puzzle, clock) -> tuple[str | None, str | None]:
    """The logic grade, or (None, None) when the logic cannot say within the deadline."""
    from thermomilp.logic.grade import GRADE_TO_DIFFICULTY, grade

    if clock.expired():
        return None, None
    try:
        g = grade(puzzle, None if clock.end is None else clock.expired)
    except Exception:  # noqa: BLE001 -- out of time (TimeUp), or a grade the logic cannot give
        return None, None
    return g, GRADE_TO_DIFFICULTY.get(g)


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import Boards, settings_of
    from thermomilp.core.errors import ConfigError

    if args.limit < 2:
        raise ConfigError("--limit must be at least 2 (uniqueness needs a second solution)")
    settings = settings_of(args)
    boards = Boards(args.files, args.format)
    for _, path, puzzle in boards:
        record = {"file": path, **check_board(puzzle, args.limit, settings=settings)}
        if record["status"] != "unique":
            boards.exit_at_least(EXIT_NO_SOLUTION)
        if args.format == "json":
            boards.record(record)
        else:
            print(_text(record))
    return boards.worst


def _text(record: dict[str, Any]) -> str:
    count = record["solutions"]
    counted = "?" if count is None else (f"at least {count}" if record["capped"] else str(count))
    line = (f": {record['status']}, {counted} solution(s), "
            f"grade {record['grade'] or '-'} ({record['difficulty'] or '-'})")
    if record["recorded_grade"] and record["recorded_grade"] != record["grade"]:
        line += f", file says grade {record['recorded_grade']}"
    if record["solution_matches"] is False:
        line += ", the file's solution is not the unique solution"
    if record.get("error"):
        line += f"\n  error: {record['error']}"
    if record["second"]:
        line += "\n  second solution:\n" + "\n".join("    " + row for row in record["second"])
    return shown(record["file"]) + shown_lines(line)
