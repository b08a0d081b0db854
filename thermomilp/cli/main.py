"""``thermomilp`` entry point: one sub-command per name in ``COMMANDS``.

Each command ``NAME`` is the module ``thermomilp.cli.NAME_cmd``: its ``register(subparsers)``
adds the parser ``NAME`` and its ``run(args)`` does the work, returning the exit code.
Library imports happen inside ``run`` so ``--help`` is instant.

Exit codes: 0 every file has a solution; 1 some file is infeasible, timed
out or hit an engine error; 2 bad input or usage (including files that cannot
be read or written); 3 an internal error (a bug: one line, no traceback).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import sys
import warnings
from typing import TYPE_CHECKING, Callable, Iterator

from thermomilp.core.errors import ConfigError, ThermomilpError, ThermomilpWarning
from thermomilp.core.untrusted import shown, shown_lines

if TYPE_CHECKING:
    from thermomilp.core.puzzle import Puzzle

COMMANDS = [
    "solve",
    "show",
    "convert",
    "config",
    "hint",
    "explain",
    "solvers",
    "export",
    "grade",
    "analyze",
    "generate",
    "check",
    "batch",
    "serve",
]

EXIT_OK, EXIT_NO_SOLUTION, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="thermomilp",
        description="MILP models, logic and generators for Thermometers and Aquarium puzzles.")
    from thermomilp.version import __version__

    parser.add_argument("--version", action="version", version=f"thermomilp {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"thermomilp.cli.{name}_cmd")
        module.register(sub)
        sub.choices[name].set_defaults(func=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    _escape_unencodable_output()
    if (sys.argv[1:] if argv is None else argv) == ["--version"]:
        from thermomilp.version import __version__

        print(f"thermomilp {__version__}")  # what the parser's --version prints, without
        return EXIT_OK  # building it (it imports every command and the settings)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        with _warnings_to_stderr():
            return int(args.func(args))
    except ThermomilpError as exc:  # names a file or a label: shown, never obeyed
        print(f"thermomilp: error: {shown(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("thermomilp: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:  # a file we were told to write or read: the user's to fix
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"thermomilp: error: {shown(where)}{shown(exc.strerror or exc)}",
              file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - a bug of ours: say so in one line, no traceback
        print(f"thermomilp: internal error: {type(exc).__name__}: {shown(exc)} "
              "(please report it; THERMOMILP_DEBUG=1 shows the traceback)", file=sys.stderr)
        if os.environ.get("THERMOMILP_DEBUG"):
            raise
        return EXIT_INTERNAL


def _escape_unencodable_output() -> None:
    """Print what the terminal cannot encode as ``\\udc80``-style escapes instead of
    crashing: a name or label may hold a lone surrogate (JSON ``"\\ud800"``) or a
    character the locale's encoding lacks."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # a closed or unusual stream: leave it be
                pass


@contextlib.contextmanager
def _warnings_to_stderr():
    """Our own warnings (e.g. a puzz.link rule note) as one ``thermomilp: warning:`` line."""
    with warnings.catch_warnings():
        original = warnings.showwarning

        def show(message, category, filename, lineno, file=None, line=None):
            if issubclass(category, ThermomilpWarning):
                print(f"thermomilp: warning: {shown(message)}", file=sys.stderr)
            else:
                original(message, category, filename, lineno, file, line)

        warnings.showwarning = show
        warnings.simplefilter("always", ThermomilpWarning)
        yield


def flag_of(key: str) -> str:
    """The flag of a [`Settings`][thermomilp.core.settings.Settings] field (``time_limit`` ->
    ``--time-limit``, ``engine_options`` -> ``--engine-option``)."""
    return "--engine-option" if key == "engine_options" else "--" + key.replace("_", "-")


def add_solver_flags(parser: argparse.ArgumentParser, *, uses: tuple[str, ...] | None = None,
                     note: str | None = None, taken: tuple[str, ...] = ()) -> None:
    """The settings flags, one per field of
    [`thermomilp.core.settings.Settings`][thermomilp.core.settings.Settings], the same for every
    command that can run an engine. No defaults here: a flag not given is None, and the
    environment, the config file or the default decides (`settings_of`).

    ``uses``: the settings the command honours (None: all of them); ``note`` says how
    (shown in its help). The others are resolved and checked all the same but not used:
    given on the command line they are refused (`settings_of`), never silently ignored.
    ``taken``: settings whose flag the command spends on an option of its own
    (``generate --seed`` is the series seed); they get no flag here."""
    from thermomilp.core.settings import FIELDS, Backend, FormulationKind, Logic

    used = FIELDS if uses is None else uses
    unused = [flag_of(key) for key in FIELDS if key not in used and key not in taken]
    about = note or ""
    if unused:
        about += (f"{' ' if about else ''}Not used here: {', '.join(unused)} -- resolved and "
                  "checked like every command's settings, refused when given on this "
                  "command line.")
    group = parser.add_argument_group("settings (flag > THERMOMILP_* > thermomilp.toml > "
                                      "default; `thermomilp config` shows them)",
                                      about or None)

    def add(key: str, *args, help: str, **kwargs) -> None:  # noqa: A002 - argparse's name
        if key not in taken:
            group.add_argument(flag_of(key), *args, dest=key, **kwargs,
                               help=help if key in used else argparse.SUPPRESS)

    add("solver", metavar="NAME",
        help="engine: highs (default), cbc, glpk, scip or cpsat; alone it picks the "
             "modelling layer (highs direct for highs, cpsat for cpsat, pulp otherwise)")
    add("backend", choices=[b.value for b in Backend],
        help="modelling layer (default: chosen from the solver)")
    add("logic", choices=[m.value for m in Logic],
        help="fix cells by logic before the MILP (default: probing; none = let the MILP "
             "do all the work)")
    add("formulation", choices=[f.value for f in FormulationKind],
        help="MILP: one binary per cell (default), per tank row / vessel layer (compact), "
             "or per vessel and level (level)")
    add("time_limit", metavar="S", help="seconds allowed per puzzle (default: none)")
    add("threads", metavar="N", help="engine threads")
    add("seed", metavar="N", help="engine random seed")
    add("engine_options", metavar="KEY=VALUE", action="append",
        help="a native option of the engine, repeatable (HiGHS mip_rel_gap=0, "
             "presolve=off; CBC threads=2); VALUE is read as true/false, a number, else text")
    add("engine_path", metavar="PATH",
        help="absolute path of the engine's executable (never taken from a config file)")
    add("verbose", action="store_true", default=None, help="show the engine's log (stderr)")
    group.add_argument("--presolve", action=_Renamed, nargs="?", help=argparse.SUPPRESS)
    parser.set_defaults(settings_uses=tuple(used), settings_taken=tuple(taken))


class _Renamed(argparse.Action):
    """An old flag: a usage error that names the new one (never read as an alias)."""

    def __call__(self, parser, namespace, values, option_string=None):
        from thermomilp.core.settings import RENAMED

        parser.error(f"{option_string} was renamed: {RENAMED[self.dest]}")


def settings_of(args: argparse.Namespace):
    """The command's [`Settings`][thermomilp.core.settings.Settings]: its flags > environment >
    config file > defaults ([`thermomilp.core.config.resolve`][thermomilp.core.config.resolve]),
    every value checked wherever it came from. A setting the command does not use
    (``add_solver_flags(uses=)``) given on its command line is a
    [`ConfigError`][thermomilp.core.errors.ConfigError] that says what the command uses."""
    from thermomilp.core.config import resolve
    from thermomilp.core.settings import FIELDS

    taken = getattr(args, "settings_taken", ())
    uses = getattr(args, "settings_uses", FIELDS)
    flags = {key: getattr(args, key, None) for key in FIELDS if key not in taken}
    given = [key for key, value in flags.items() if value not in (None, [], "")]
    refused = [flag_of(key) for key in given if key not in uses]
    if refused:
        takes = ", ".join(flag_of(key) for key in uses) or "no settings flag"
        raise ConfigError(f"{', '.join(refused)}: not used by `thermomilp {args.command}`, "
                          f"which takes {takes} (`thermomilp {args.command} --help` says why)")
    return resolve(flags)


class Output:
    """A command's results on stdout, board by board, and its exit code so far (`worst`):
    one JSON Lines record per board with ``--format json``; else each board's text, a
    blank line between two boards (a board that `failed` prints none)."""

    def __init__(self, fmt: str = "text"):
        self.fmt = fmt
        self.printed = 0  # text blocks printed so far
        self.worst = EXIT_OK

    def exit_at_least(self, code: int) -> None:
        """The command's exit code is ``code`` or worse."""
        self.worst = max(self.worst, code)

    def record(self, record: dict) -> None:
        """``record`` with ``--format json``; nothing in text (the message is on stderr)."""
        if self.fmt == "json":
            print(json.dumps(record), flush=True)

    def text(self, text: str) -> None:
        if self.printed:
            print()
        self.printed += 1
        print(shown_lines(text))

    def result(self, path: str, record: dict, text: Callable[[], str]) -> None:
        """``record`` with ``--format json``, else ``== path`` and ``text()``."""
        if self.fmt == "json":
            self.record(record)
        else:
            self.text(f"== {shown(path)}\n{text()}")

    def failed(self, record: dict, message: str, code: int = EXIT_USAGE) -> None:
        """A board without a result: its ``record`` (with ``--format json``), ``message``
        on stderr, and the exit code at least ``code`` (``EXIT_USAGE``: the file could not
        be read)."""
        self.exit_at_least(code)
        self.record(record)
        print(f"thermomilp: {shown(message)}", file=sys.stderr)


class Boards(Output):
    """The boards of a command's FILE arguments, read one by one (``for n, path, puzzle in
    boards``), with the command's `Output`. A file that cannot be read has `failed`, and
    the loop goes on with the next file."""

    def __init__(self, files: list[str], fmt: str = "text"):
        super().__init__(fmt)
        self.files = files

    def __iter__(self) -> Iterator[tuple[int, str, Puzzle]]:
        from thermomilp.core.errors import PuzzleError
        from thermomilp.solving.pipeline import read_input, unreadable_record

        for n, path in enumerate(self.files):
            try:
                puzzle = read_input(path)
            except PuzzleError as exc:
                self.failed(unreadable_record(path, str(exc)), f"error: {exc}")
                continue
            yield n, path, puzzle


def write_output(text: str, path: str | None) -> None:
    """Write ``text`` to ``path`` (``-o``), or to stdout when no path is given."""
    if not path:
        sys.stdout.write(text)
        return
    from thermomilp.core.files import write_whole

    write_whole(path, text)  # whole or not at all; a lone surrogate is written escaped
