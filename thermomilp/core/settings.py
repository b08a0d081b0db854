"""The one settings object every layer reads: typed, immutable, checked once.

Strings live only at the boundaries (command line, environment, config
files, JSON, the Python API's keyword arguments); :class:`Settings` turns
them into enums on construction, so the solve layer, the backends and the
model registry compare enum members, never spellings::

    Settings(backend="pulp", solver="cbc", time_limit=5)
    -> Settings(backend=Backend.PULP, solver=Solver.CBC, presolve=Presolve.PROBING,
                formulation=FormulationKind.CELL, time_limit=5.0, ...)

:func:`thermomilp.core.config.resolve` builds one from flag > environment >
``thermomilp.toml`` > ``[tool.thermomilp]`` > default. A frozen dataclass of
enums and numbers, it pickles to a process pool or a Dask worker unchanged.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Self

from thermomilp.core.errors import ConfigError

MAX_THREADS = 256
"""More engine threads than this is a typo, not a machine (HiGHS would try to start them)."""
MAX_SEED = 2**31 - 1
"""Engines take 32-bit seeds (HiGHS ``random_seed``, CBC ``randomCbcSeed``)."""
MAX_TIME_LIMIT = 10.0**7
"""About four months: anything longer is no limit (say nothing instead)."""


class _Choice(enum.StrEnum):
    """A closed set of names: ``str(member)`` and ``format`` give the name itself."""

    @classmethod
    def parse(cls, value: Any, what: str) -> Self:
        if isinstance(value, cls):
            return value
        try:
            if not isinstance(value, str):
                raise ValueError(value)
            return cls(value.strip().lower())
        except ValueError:
            names = ", ".join(m.value for m in cls)
            raise ConfigError(f"{what} {value!r} is unknown; choose one of {names}") from None


class Backend(_Choice):
    """The modelling layer a model is built in."""

    HIGHS = "highs"  # highspy direct, from numpy arrays
    PULP = "pulp"
    PYOMO = "pyomo"


class Solver(_Choice):
    """The MILP engine: a closed list. A name that is not a member is refused
    here, before any modelling layer sees it (Pyomo would look an unknown name
    up as a program to run, the working folder included)."""

    HIGHS = "highs"
    CBC = "cbc"
    GLPK = "glpk"
    SCIP = "scip"


EngineOptionValue = bool | int | float | str
"""A native engine option's value (HiGHS ``mip_rel_gap=0``, CBC ``threads=2``)."""


EngineOptions = tuple[tuple[str, EngineOptionValue], ...]


def check_engine_options(value: Any, what: str = "engine_options") -> EngineOptions:
    """Native engine options as a sorted tuple of ``(name, value)`` pairs (hashable, pickles).

    Takes a mapping or pairs; names are checked for shape here, against the
    engine itself when a session opens (an unknown name is a ConfigError there)."""
    if value is None:
        return ()
    items = value.items() if isinstance(value, Mapping) else value
    try:
        pairs = [(k, v) for k, v in items]
    except (TypeError, ValueError):
        raise ConfigError(f"{what} = {value!r}: must be a table of name = value") from None
    checked: dict[str, EngineOptionValue] = {}
    for name, option in pairs:
        if not isinstance(name, str) or not name or not all(
                ch.isalnum() or ch in "_/-." for ch in name):
            raise ConfigError(f"{what}: option name {name!r} is not an engine option name")
        if not isinstance(option, (bool, int, float, str)):
            raise ConfigError(f"{what}: {name} = {option!r} must be a number, true/false or text")
        checked[name] = option
    return tuple(sorted(checked.items()))


def check_engine_path(value: Any, what: str = "engine_path") -> str | None:
    """An engine executable named explicitly by the user: an absolute path to a file."""
    if value is None:
        return None
    import os

    if not isinstance(value, (str, os.PathLike)):
        raise ConfigError(f"{what} = {value!r}: must be the absolute path of an executable")
    path = os.fspath(value)
    if not os.path.isabs(path):
        raise ConfigError(f"{what} = {path!r}: must be an absolute path (engines are never "
                          "looked up in the working folder)")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise ConfigError(f"{what} = {path!r}: no executable file there")
    return path


class Presolve(_Choice):
    """How much the logic engine decides before the MILP sees the board."""

    NONE = "none"
    INTERVALS = "intervals"
    PROBING = "probing"


class FormulationKind(_Choice):
    """Which MILP of the board is built (docs/formulation.md, docs/models.md)."""

    CELL = "cell"        # one binary per cell
    COMPACT = "compact"  # one binary per vessel layer (tank row)
    LEVEL = "level"      # one binary per (vessel, level): one-hot levels


def check_time_limit(value: Any, what: str = "time_limit") -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ConfigError(f"{what} = {value!r}: must be a number of seconds")
    try:
        number = float(value)
    except (ValueError, OverflowError):
        raise ConfigError(f"{what} = {value!r}: must be a number of seconds") from None
    if not (number > 0 and math.isfinite(number)) or number > MAX_TIME_LIMIT:
        raise ConfigError(
            f"{what} = {value!r}: must be positive seconds, at most {MAX_TIME_LIMIT:g}")
    return number


def _whole(value: Any, what: str, low: int, high: int) -> int | None:
    if value is None:
        return None
    number: Any = value
    if isinstance(value, str):
        try:
            number = int(value.strip())
        except ValueError:
            number = None
    elif isinstance(value, float) and math.isfinite(value) and value == int(value):
        number = int(value)
    if isinstance(number, bool) or not isinstance(number, int) or not low <= number <= high:
        raise ConfigError(f"{what} = {value!r}: must be a whole number from {low} to {high}")
    return number


def check_threads(value: Any, what: str = "threads") -> int | None:
    return _whole(value, what, 1, MAX_THREADS)


def check_seed(value: Any, what: str = "seed") -> int | None:
    return _whole(value, what, 0, MAX_SEED)


def check_bool(value: Any, what: str = "verbose") -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{what} = {value!r}: must be true or false (1/0, yes/no, on/off)")


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Everything an engine run is told. Strings given here are parsed once
    (a :class:`~thermomilp.core.errors.ConfigError` says what is wrong); after
    that every field is an enum or a checked number.

    ``origins`` says where each value came from (``command line``, an
    environment variable, a file, ``default``); it is not part of equality.
    """

    backend: Backend = Backend.HIGHS
    solver: Solver = Solver.HIGHS
    presolve: Presolve = Presolve.PROBING
    formulation: FormulationKind = FormulationKind.CELL
    time_limit: float | None = None
    threads: int | None = None
    seed: int | None = None
    verbose: bool = False
    engine_options: EngineOptions = ()
    engine_path: str | None = None
    origins: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        fix = object.__setattr__
        fix(self, "backend", Backend.parse(self.backend, "backend"))
        fix(self, "solver", Solver.parse(self.solver, "solver"))
        fix(self, "presolve", Presolve.parse(self.presolve, "presolve"))
        fix(self, "formulation", FormulationKind.parse(self.formulation, "formulation"))
        fix(self, "time_limit", check_time_limit(self.time_limit))
        fix(self, "threads", check_threads(self.threads))
        fix(self, "seed", check_seed(self.seed))
        fix(self, "verbose", check_bool(self.verbose))
        fix(self, "engine_options", check_engine_options(self.engine_options))
        fix(self, "engine_path", check_engine_path(self.engine_path))
        fix(self, "origins", dict(self.origins))

    def replace(self, **changes: Any) -> "Settings":
        """A copy with some fields changed (strings parsed like the constructor's)."""
        return dataclasses.replace(self, **changes)

    @property
    def values(self) -> dict[str, Any]:
        """The fields as plain JSON values (enums as their names)."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)
                if f.name != "origins"}

    @property
    def pair(self) -> str:
        return f"{self.backend}/{self.solver}"


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):  # engine_options: a table in JSON
        return dict(value)
    return value.value if isinstance(value, enum.Enum) else value


FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Settings) if f.name != "origins")


def settings_from(base: Settings | None = None, **given: Any) -> Settings:
    """``base`` (default: :class:`Settings`) with the given keywords that are not None."""
    changes = {k: v for k, v in given.items() if v is not None}
    return (base or Settings()).replace(**changes) if changes else (base or Settings())


__all__ = ["Backend", "FIELDS", "FormulationKind", "MAX_THREADS", "Presolve", "Settings",
           "Solver", "settings_from"]
