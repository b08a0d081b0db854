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
    """The MILP engine. The four wired ones are members; any other name a
    modelling layer reaches (``gurobi``, ``cplex``, ...) becomes a
    pass-through member of its own (``Solver("gurobi")``)."""

    HIGHS = "highs"
    CBC = "cbc"
    GLPK = "glpk"
    SCIP = "scip"

    @classmethod
    def _missing_(cls, value: object) -> "Solver | None":
        if not isinstance(value, str):
            return None
        name = value.strip().lower()
        if not name or not all(ch.isalnum() or ch in "_-." for ch in name):
            return None
        if name in cls._value2member_map_:
            # the map of cls holds members of cls (typeshed says Enum)
            return cls._value2member_map_[name]  # type: ignore[return-value]
        member = str.__new__(cls, name)
        member._name_ = name.upper()
        member._value_ = name
        return cls._value2member_map_.setdefault(name, member)  # type: ignore[return-value]  # as above


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
    return value.value if isinstance(value, enum.Enum) else value


FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Settings) if f.name != "origins")


def settings_from(base: Settings | None = None, **given: Any) -> Settings:
    """``base`` (default: :class:`Settings`) with the given keywords that are not None."""
    changes = {k: v for k, v in given.items() if v is not None}
    return (base or Settings()).replace(**changes) if changes else (base or Settings())


__all__ = ["Backend", "FIELDS", "FormulationKind", "MAX_THREADS", "Presolve", "Settings",
           "Solver", "settings_from"]
