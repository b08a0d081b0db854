"""What the session skeleton knows about each engine: its quirks as data, and its options.

:data:`ENGINES` holds one :class:`EngineTraits` per
:class:`~thermomilp.core.settings.Solver`: the native names of the common
options (threads, seed), the options that turn its presolve off (the retry
after HiGHS's "Solve error" and the second opinion), whether its
"infeasible" gets a second opinion, whether it takes whole seconds only, and the
fallbacks the rival search tries when the engine ends a question in an error
(:func:`thermomilp.backends.highs_arrays.ask_cell_model` applies them).
:func:`check_engine_options` asks the engine itself whether it knows each
native option the user gave (``engine_options``) before anything is solved.
"""

from __future__ import annotations

import functools
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from thermomilp.core.errors import ConfigError
from thermomilp.core.settings import EngineOptions, EngineOptionValue, Settings, Solver


@dataclass(frozen=True)
class Fallback:
    """One retry of a question the engine ended in its own error state."""

    presolve_off: bool = False
    """Run with the engine's presolve off (:attr:`EngineTraits.presolve_off`)."""
    seed_shift: int = 0
    """Added to the question's random seed."""
    plain: bool = False
    """Ask without the objective (any feasible point will do)."""


@dataclass(frozen=True)
class EngineTraits:
    """One engine as the session skeleton sees it."""

    label: str
    threads_option: str | None = None
    seed_option: str | None = None
    presolve_off: tuple[tuple[str, EngineOptionValue], ...] = ()
    """Native options that turn the engine's presolve off: with them the skeleton
    retries an engine that ended in its own error state (HiGHS 1.16's "Solve
    error" after its MIP presolve, benchmarks/highs_solve_error_8x8.json)."""
    second_opinion: bool = False
    """An "infeasible" of this engine is worth a re-solve in another configuration
    (presolve off, another seed): HiGHS 1.16 has called a feasible board infeasible
    (benchmarks/highs_wrong_infeasible_15x15.txt). Others keep their verdict."""
    whole_seconds: bool = False
    """The engine takes its time limit in whole seconds (glpsol ``--tmlim``)."""
    error_fallbacks: tuple[Fallback, ...] = ()
    """What a question given as numbers (the generator's rival search) tries, in
    order, when the engine ends it in an error (not a limit); only when every one
    ends in an error too is the question undecided. HiGHS 1.x on the 15x15 hard
    boards of ``generate --seed 101`` ended the nearest-rival question in ``Solve
    error``; presolve off or another seed answered it
    (tests/test_generate_engine_error.py)."""
    examples: tuple[str, ...] = ()


ENGINES: dict[Solver, EngineTraits] = {
    Solver.HIGHS: EngineTraits("HiGHS", "threads", "random_seed", (("presolve", "off"),),
                               second_opinion=True,
                               error_fallbacks=(
                                   Fallback(presolve_off=True),  # where "Solve error"s came from
                                   Fallback(seed_shift=1),       # another seed, same presolve
                                   Fallback(presolve_off=True, seed_shift=2),  # both
                                   # another question: no distance objective (any rival will do)
                                   Fallback(presolve_off=True, seed_shift=3, plain=True)),
                               examples=("mip_rel_gap", "presolve", "mip_heuristic_effort")),
    Solver.CBC: EngineTraits("CBC", "threads", "randomCbcSeed",
                             examples=("ratioGap", "maxNodes", "cuts")),
    Solver.GLPK: EngineTraits("GLPK", whole_seconds=True,
                              examples=("mipgap", "cuts", "nomip")),
    Solver.SCIP: EngineTraits("SCIP", None, "randomization/randomseedshift",
                              examples=("limits/gap", "presolving/maxrounds")),
    # CP-SAT's "infeasible" is a proof by clause learning, not an LP bound: no known fault
    # to second-guess (the solve layer still confirms it by the logic search when it can)
    Solver.CPSAT: EngineTraits("CP-SAT", "num_workers", "random_seed",
                               (("cp_model_presolve", False),),
                               examples=("linearization_level", "cp_model_presolve",
                                         "max_number_of_conflicts")),
}


def native_options(settings: Settings, extra: dict[str, EngineOptionValue] | None = None
                   ) -> dict[str, EngineOptionValue]:
    """The native options of one solve: the common ones under the engine's names,
    then the user's ``engine_options``, then ``extra`` (this solve only)."""
    traits = ENGINES[settings.solver]
    options: dict[str, EngineOptionValue] = {}
    if traits.threads_option and settings.threads is not None:
        options[traits.threads_option] = int(settings.threads)
    if traits.seed_option and settings.seed is not None:
        options[traits.seed_option] = int(settings.seed)
    options.update(settings.engine_options)
    options.update(extra or {})
    return options


# -- is it an option of the engine? ------------------------------------------------


def _highs_problem(name: str, value: EngineOptionValue) -> str | None:
    from thermomilp.model.highs_model import new_highs

    h = new_highs()  # output_flag off: HiGHS would log the refusal on stdout
    import highspy

    status, _ = h.getOptionType(name)
    if status != highspy.HighsStatus.kOk:
        return "unknown"
    if h.setOptionValue(name, value) != highspy.HighsStatus.kOk:
        return "refused"
    return None


def set_parameter(params: Any, name: str, value: EngineOptionValue) -> None:
    """Set CP-SAT's parameter ``name`` (a field of its ``SatParameters`` message) to
    ``value``, typed by the field: KeyError for a name CP-SAT does not have, TypeError
    or ValueError for a value the field cannot hold. An enum field takes its value's
    name (``search_branching=FIXED_SEARCH``) or number; a list or message field is
    refused (no ``KEY=VALUE`` can say one)."""
    field = params.DESCRIPTOR.fields_by_name.get(name)
    if field is None:
        raise KeyError(name)
    if field.message_type is not None or _repeated(field):
        raise TypeError(f"{name} is not a single value")
    if field.enum_type is not None:
        if isinstance(value, str):
            if value not in field.enum_type.values_by_name:
                raise ValueError(value)
            value = field.enum_type.values_by_name[value].number
        elif isinstance(value, bool) or value not in field.enum_type.values_by_number:
            raise ValueError(value)
    elif field.type == field.TYPE_BOOL:
        if not isinstance(value, bool):
            raise TypeError(value)
    elif field.type in (field.TYPE_DOUBLE, field.TYPE_FLOAT):
        if isinstance(value, (bool, str)):
            raise TypeError(value)
        value = float(value)
    elif field.type == field.TYPE_STRING:
        if not isinstance(value, str):
            raise TypeError(value)
    elif isinstance(value, (bool, float, str)):  # the integer fields
        raise TypeError(value)
    setattr(params, name, value)


def _repeated(field: Any) -> bool:
    is_repeated = getattr(field, "is_repeated", None)  # protobuf >= 5.28; label before
    return bool(is_repeated) if is_repeated is not None else field.label == field.LABEL_REPEATED


def _cpsat_problem(name: str, value: EngineOptionValue) -> str | None:
    try:
        from ortools.sat import sat_parameters_pb2
    except ImportError:
        return None  # no OR-Tools here: the pair check says so
    try:
        set_parameter(sat_parameters_pb2.SatParameters(), name, value)
    except KeyError:
        return "unknown"
    except (TypeError, ValueError):
        return "refused"
    return None


def _scip_problem(name: str, value: EngineOptionValue) -> str | None:
    import pyscipopt

    model = pyscipopt.Model()
    model.hideOutput()
    if name not in model.getParams():
        return "unknown"
    try:
        model.setParam(name, value)
    except Exception:  # noqa: BLE001 - pyscipopt raises its own kinds for a bad value
        return "refused"
    return None


@functools.lru_cache(maxsize=256)
def _program_says(argv: tuple[str, ...]) -> str:
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=30,
                              stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"could not run it: {exc}"
    return done.stdout + done.stderr


def _cbc_problem(name: str, value: EngineOptionValue, path: str | None) -> str | None:
    if path is None:
        return None  # no CBC here: the pair check says so
    word = ("on" if value else "off") if isinstance(value, bool) else str(value)
    said = _program_says((path, f"-{name}", word, "-quit"))
    # CBC 2.10 says "No match for", newer CBC (the cbcbox wheel) "Unrecognized parameter"
    unknown = ("No match for", "Unrecognized parameter", "could not run")
    return "unknown" if any(words in said for words in unknown) else None


def _glpk_problem(name: str, value: EngineOptionValue, path: str | None) -> str | None:
    if path is None:
        return None
    argv = (path, f"--{name}") + (() if isinstance(value, bool) else (str(value),))
    said = _program_says(argv + ("--version",))
    return "unknown" if "Invalid option" in said or "could not run" in said else None


def _cbc_check(name: str, value: EngineOptionValue, settings: Settings) -> str | None:
    from thermomilp.backends.matrix import cbc_executable

    return _cbc_problem(name, value, cbc_executable(settings))


def _glpk_check(name: str, value: EngineOptionValue, settings: Settings) -> str | None:
    from thermomilp.backends.matrix import glpk_executable

    return _glpk_problem(name, value, glpk_executable(settings))


CHECKS: dict[Solver, Callable[[str, EngineOptionValue, Settings], str | None]] = {
    Solver.HIGHS: lambda name, value, settings: _highs_problem(name, value),
    Solver.SCIP: lambda name, value, settings: _scip_problem(name, value),
    Solver.CBC: _cbc_check,
    Solver.GLPK: _glpk_check,
    Solver.CPSAT: lambda name, value, settings: _cpsat_problem(name, value),
}
"""How each engine is asked about an option: None (known, value taken), "unknown"
or "refused". HiGHS, SCIP and CP-SAT (its ``SatParameters`` message) answer
in-process; CBC and glpsol on their command line."""


# -- options that would let an engine touch a file or our output -------------------

_CBC_IO_WORDS = ("directory", "dirsample", "dirnetlib", "dirmiplib", "export", "import",
                 "savemodel", "restoremodel", "savesolution", "restoresolution", "solution",
                 "printingoptions", "printmask", "gmpl", "mipstart", "readmipstart", "debug",
                 "writegmpl", "cppgenerate", "csv", "stdin", "environment", "unittest",
                 "netlib", "netlibd", "netlibp", "netlibb", "miplib", "userclp", "usercbc",
                 "outduplicates", "sleep", "exit", "quit", "stop", "end", "solve",
                 "branchandcut", "initialsolve", "dualsimplex", "primalsimplex", "barrier",
                 "either", "outdup", "guess", "doh", "fakebound", "gsolution", "writeparams")
"""CBC's commands that read or write a file, print, run a solve of their own or end
it. CBC takes any unambiguous abbreviation of a command, so a name is refused when it
is the start of one of these or one of these is its start."""

_GLPK_IO_WORDS = frozenset(("o", "output", "log", "w", "write", "y", "display", "ranges",
                            "r", "read", "ini", "d", "data", "m", "model", "glp", "mps",
                            "freemps", "lp", "cpxlp", "math", "cnf", "dimacs", "maxflow",
                            "mincost", "check", "h", "help", "v", "version", "show-delta"))
"""glpsol's options that read or write a file, print, or stop before the solve (every
``--w...`` option writes a file too)."""

_SCIP_IO_WORDS = ("file", "prefix", "setname", "verblevel", "print", "output")
"""Words in the SCIP parameters that name a file to write or to read settings from
(``visual/vbcfilename``, ``concurrent/paramsetprefix``, ``solvingphases/feassetname``: a
settings file read from there could name a file to write in turn) or that print."""

_PLAIN_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*(/[A-Za-z0-9_]+)*\Z")
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_.+-]+\Z")


def _cbc_io(name: str) -> bool:
    word = name.lower()
    return any(io.startswith(word) or word.startswith(io) for io in _CBC_IO_WORDS)


IO_OPTIONS: dict[Solver, Callable[[str], bool]] = {
    Solver.HIGHS: lambda name: "file" in name or name.startswith(("write_", "log_", "output_")),
    Solver.CPSAT: lambda name: name.startswith(("output_", "debug_", "log_")),
    Solver.SCIP: lambda name: (any(word in name.lower() for word in _SCIP_IO_WORDS)
                               or name.split("/")[0] in ("visual", "write", "display", "reading")),
    Solver.CBC: _cbc_io,
    Solver.GLPK: lambda name: name in _GLPK_IO_WORDS or name.startswith("w"),
}
"""Per engine: the native options that would make it read or write a file, write on
standard output (where thermomilp's own records go), or, for the command-line engines,
stop or solve on their own. They are refused from every source: an option may come
from a configuration file found in a folder, which is untrusted, and every file
thermomilp writes is written whole by :func:`thermomilp.core.files.write_whole`."""

ON_COMMAND_LINE = frozenset({Solver.CBC, Solver.GLPK})
"""Engines whose options become words of a command line: a value there is one plain
word (no space could smuggle another command in)."""


def io_problem(solver: Solver, name: str, value: EngineOptionValue) -> str | None:
    """Why ``name = value`` may not reach ``solver`` (a sentence), or None."""
    if not _PLAIN_NAME.match(name):
        return f"option name {name!r} is not a plain name"
    if IO_OPTIONS[solver](name):
        return (f"option {name} is refused: it would let the engine read or write a file, "
                "print on thermomilp's output, or stop or solve on its own")
    if (solver in ON_COMMAND_LINE and not isinstance(value, bool)
            and not _PLAIN_WORD.match(str(value))):
        return f"option {name} = {value!r} is refused: a value must be one plain word"
    return None


def check_engine_options(settings: Settings) -> EngineOptions:
    """``settings.engine_options``, each asked of the engine: an option it does not
    know (or a value it refuses) is a :class:`ConfigError` naming a few it knows."""
    traits = ENGINES[settings.solver]
    origin = settings.origins.get("engine_options")
    source = f" (engine_options from {origin})" if origin else ""
    for name, value in settings.engine_options:
        refused = io_problem(settings.solver, name, value)
        if refused is not None:
            raise ConfigError(f"{refused} ({traits.label}){source}")
        problem = CHECKS[settings.solver](name, value, settings)
        if problem == "unknown":
            raise ConfigError(f"unknown option {name} for engine {traits.label}; e.g. "
                              + ", ".join(traits.examples) + source)
        if problem is not None:
            raise ConfigError(f"option {name} = {value!r} is refused by engine "
                              f"{traits.label}{source}")
    return settings.engine_options


__all__ = ["CHECKS", "ENGINES", "IO_OPTIONS", "EngineTraits", "Fallback",
           "check_engine_options", "io_problem", "native_options", "set_parameter"]
