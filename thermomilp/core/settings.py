"""The one settings object every layer reads: typed, immutable, checked once.

Strings live only at the boundaries (command line, environment, config
files, JSON, the Python API's keyword arguments); [`Settings`][thermomilp.core.settings.Settings]
turns them into enums on construction, so the solve layer, the backends and the
model registry compare enum members, never spellings:

    Settings(solver="cbc", time_limit=5)
    -> Settings(backend=Backend.PULP, solver=Solver.CBC, logic=Logic.PROBING,
                formulation=FormulationKind.CELL, time_limit=5.0, ...)

This module is the only place where a solver, backend or formulation is
compared as a *name*: the aliases users know from PuLP and Pyomo
(``PULP_CBC_CMD``, ``appsi_highs``, a ``pulp.HiGHS()`` object) are mapped to
the closed enums here, and [`BACKEND_FOR`][thermomilp.core.settings.BACKEND_FOR] is the one rule
that picks a modelling layer when only the solver is given.

[`thermomilp.core.config.resolve`][thermomilp.core.config.resolve] builds one from flag >
environment > config file > default. A frozen dataclass of enums and numbers, it pickles
to a process pool or a Dask worker unchanged.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import os
from dataclasses import dataclass, field
from typing import Any, Mapping, TypedDict, cast

from thermomilp.core.engines import (
    ENGINES,
    FLAG,
    MAX_SEED,
    MAX_THREADS,
    MAX_TIME_LIMIT,
    Backend,
    EngineOptions,
    EngineOptionValue,
    Solver,
    _Choice,
)
from thermomilp.core.errors import ConfigError

BACKEND_FOR: dict[Solver, Backend] = {s: record.default_backend for s, record in ENGINES.items()}
"""The one rule: the modelling layer that drives a solver given alone
(``--solver cbc`` with no ``--backend``), read from each engine's record
(`thermomilp.core.engines.ENGINES`). docs/solvers.md shows this table."""

SOLVER_DEFAULT = Solver.HIGHS
"""The engine when neither a solver nor a backend that drives only one engine is given."""

DRIVES: dict[Backend, frozenset[Solver]] = {
    layer: frozenset(s for s, record in ENGINES.items() if layer in record.backends)
    for layer in Backend}
"""Which engines each modelling layer can drive (the records' ``backends``). CP-SAT is
reached through OR-Tools' own model only: PuLP and Pyomo have no interface to it, so
``--backend pulp --solver cpsat`` is refused rather than quietly run elsewhere."""

SOLVER_ALIASES: dict[str, tuple[Solver, Backend | None]] = {
    alias: (solver, layer) for solver, record in ENGINES.items()
    for layer, names in record.aliases for alias in names}
"""Other spellings of the closed list (each engine record's ``aliases``), understood at
the boundary only; a layer's own spelling implies that layer (when no backend is given).
The plain names are the members themselves and imply no layer."""

PULP_CLASSES: dict[str, Solver] = {
    name: solver for solver, record in ENGINES.items() for name in record.pulp_classes}
"""PuLP solver classes (and their subclasses) taken as a solver *object* (each record's
``pulp_classes``): ``solve(p, solver=pulp.HiGHS(msg=False))`` means solver highs
through PuLP."""


def _closed_list_message(value: Any) -> str:
    names = ", ".join(m.value for m in Solver)
    return (f"solver {value!r} is not an engine thermomilp runs; choose one of {names} "
            "(PuLP's names such as PULP_CBC_CMD, HiGHS, GLPK_CMD, SCIP_PY and Pyomo's "
            "such as appsi_highs are understood)")


def solver_identity(value: Any) -> tuple[Solver, Backend | None]:
    """The engine a solver name or PuLP solver object means, and the layer its
    spelling implies (None for the plain names).

    A PuLP solver object is kept by identity only: its class says the engine,
    and anything else it was given (a time limit, options, a path) would be
    silently dropped, so it is refused -- the [`Settings`][thermomilp.core.settings.Settings] fields
    say those.

    Raises:
        ConfigError: not one of the closed list (``gurobi``, ``pwn``, ...).
    """
    if isinstance(value, Solver):
        return value, None
    if isinstance(value, str):
        name = value.strip().lower()
        try:
            return Solver(name), None
        except ValueError:
            if name not in SOLVER_ALIASES:
                raise ConfigError(_closed_list_message(value)) from None
        return SOLVER_ALIASES[name]
    if type(value).__module__.split(".")[0] == "pulp":
        return _pulp_object(value), Backend.PULP
    raise ConfigError(f"solver {value!r}: give an engine's name ({', '.join(Solver)}) "
                      "or a PuLP solver object")


def _pulp_object(solver: Any) -> Solver:
    engine = next((PULP_CLASSES[c.__name__] for c in type(solver).__mro__
                   if c.__name__ in PULP_CLASSES), None)
    if engine is None:
        raise ConfigError(_closed_list_message(type(solver).__name__))
    try:  # what the same class holds when given nothing: PuLP's defaults of this version
        plain = type(solver)(msg=getattr(solver, "msg", True))
    except Exception:  # noqa: BLE001 - a class we cannot compare with: read nothing more
        plain = solver
    use = {"timeLimit": "time_limit=", "options": "engine_options=", "mip": "(a MILP)",
           "path": "engine_path="}
    given = [f"{name} (use {instead})" for name, instead in use.items()
             if getattr(solver, name, None) != getattr(plain, name, None)]
    mine, default = (getattr(x, "optionsDict", None) or {} for x in (solver, plain))
    given += [f"{name} (use threads=, seed= or engine_options=)" for name in sorted(mine)
              if mine.get(name) != default.get(name)]
    if given:
        raise ConfigError(f"the PuLP solver object {type(solver).__name__} is read for its "
                          f"engine only; it was also given {'; '.join(given)}")
    return engine


class Logic(_Choice):
    """How much the logic engine decides before the MILP sees the board (not
    an engine's own presolve: that is an engine option, ``presolve=off``)."""

    NONE = "none"
    INTERVALS = "intervals"
    PROBING = "probing"


RENAMED: dict[str, str] = {
    "presolve": "the logic presolve is now called 'logic' (--logic, THERMOMILP_LOGIC, "
                "logic = ...); the engine's own presolve is an engine option "
                "(--engine-option presolve=off)",
}
"""Old setting names: refused with the new name, never read as an alias."""


def engine_option_value(text: str) -> EngineOptionValue:
    """``KEY=VALUE`` text's value: ``true``/``false``, a whole number, a number, else the text."""
    word = text.strip()
    if word.lower() in ("true", "false"):
        return word.lower() == "true"
    try:
        return int(word)
    except ValueError:
        pass
    try:
        number = float(word)
    except ValueError:
        return word
    return word if math.isnan(number) else number


def _option_pairs(value: Any, what: str) -> list[tuple[Any, Any]]:
    if isinstance(value, str):  # the environment's "k=v,k=v"
        value = [part for part in value.split(",") if part.strip()]
    if isinstance(value, Mapping):
        return list(value.items())
    try:
        items = list(value)
    except TypeError:
        raise ConfigError(f"{what} = {value!r}: must be a table of name = value") from None
    pairs = []
    for item in items:
        if isinstance(item, str):  # one --engine-option KEY=VALUE
            name, sep, text = item.partition("=")
            if not sep:
                raise ConfigError(f"{what}: {item!r} must be NAME=VALUE")
            pairs.append((name.strip(), engine_option_value(text)))
        elif isinstance(item, tuple) and len(item) == 2:
            pairs.append(item)
        else:
            raise ConfigError(f"{what} = {value!r}: must be a table of name = value")
    return pairs


def check_engine_options(value: Any, what: str = "engine_options") -> EngineOptions:
    """Native engine options as a sorted tuple of ``(name, value)`` pairs (hashable, pickles).

    Takes a mapping (the API, a config table), ``NAME=VALUE`` texts (the
    command line) or one ``NAME=VALUE,NAME=VALUE`` text (the environment).
    Names are checked for shape here, against the engine's allowlist when the
    [`Settings`][thermomilp.core.settings.Settings] are made."""
    if value is None:
        return ()
    checked: dict[str, EngineOptionValue] = {}
    for name, option in _option_pairs(value, what):
        if not isinstance(name, str) or not name or not all(
                ch.isalnum() or ch in "_/-." for ch in name):
            raise ConfigError(f"{what}: option name {name!r} is not an engine option name")
        if not isinstance(option, (bool, int, float, str)) or (
                isinstance(option, float) and math.isnan(option)):
            raise ConfigError(f"{what}: {name} = {option!r} must be a number, true/false or text")
        checked[name] = option
    return tuple(sorted(checked.items()))


def check_engine_path(value: Any, what: str = "engine_path") -> str | None:
    """An engine executable named explicitly by the user: an absolute path to a file.

    Only the command line, the environment and the Python API may set it: a
    config file found in a folder never chooses a program
    ([`thermomilp.core.config`][thermomilp.core.config] refuses the key there)."""
    if value is None:
        return None
    if not isinstance(value, (str, os.PathLike)):
        raise ConfigError(f"{what} = {value!r}: must be the absolute path of an executable")
    path = os.fspath(value)
    if not os.path.isabs(path):
        raise ConfigError(f"{what} = {path!r}: must be an absolute path (engines are never "
                          "looked up in the working folder)")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise ConfigError(f"{what} = {path!r}: no executable file there")
    return path


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
    try:
        return bool(FLAG.parse(value))
    except ValueError:
        raise ConfigError(f"{what} = {value!r}: must be true or false (1/0, yes/no, on/off)"
                          ) from None


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Everything an engine run is told. Strings given here are parsed once
    (a [`ConfigError`][thermomilp.core.errors.ConfigError] says what is wrong); after
    that every field is an enum or a checked number.

    ``backend`` left out is chosen from the solver by
    [`BACKEND_FOR`][thermomilp.core.settings.BACKEND_FOR] (or by the layer its spelling names:
    ``PULP_CBC_CMD`` -> pulp), ``solver`` left out is the one engine the given backend drives
    when it drives only one (``backend="cpsat"`` -> CP-SAT), else HiGHS; ``backend_chosen`` and
    ``solver_chosen`` say so ([`replace`][thermomilp.core.settings.Settings.replace] then chooses
    again). A solver that is given is never replaced: a backend that is given and cannot drive it
    is a [`ConfigError`][thermomilp.core.errors.ConfigError]. Every field is a keyword.

    Args:
        backend: the modelling layer, ``highs`` (highspy direct), ``pulp``, ``pyomo`` or
            ``cpsat``. Default None: chosen from the solver (see above).
        solver: the engine, ``highs``, ``cbc``, ``glpk``, ``scip`` or ``cpsat``; PuLP's and
            Pyomo's names for them (``PULP_CBC_CMD``, ``appsi_highs``) and PuLP solver
            objects are understood. Default None: the backend's only engine, else ``highs``.
        logic: ``probing`` (the default), ``intervals`` or ``none``: how much the logic
            presolve decides before an engine sees the board.
        formulation: ``cell`` (the default), ``compact`` or ``level``; all give the same
            solutions.
        time_limit: seconds for one board, all solves and the logic together (positive, at
            most 1e7). Default None: no limit.
        threads: passed to the engine (1 to 256). Default None: the engine's own choice.
        seed: passed to the engine (0 to 2**31 - 1). Default None: the engine's own seed.
        verbose: let the engine write its log (on stderr). Default False.
        engine_options: the engine's own options by name, a mapping or ``(name, value)``
            pairs, checked against the engine's allowlist (docs/solvers.md); its native
            time, thread and seed options are folded into ``time_limit``, ``threads`` and
            ``seed``. Default: none.
        engine_path: the absolute path of the engine's executable. Default None: the
            engine found by its layer.
        origins: where each value came from, by field name (the command line fills it in);
            not part of equality. Default: empty.

    Raises:
        ConfigError: a name outside the known ones, a number out of range, a backend that
            cannot drive the given solver, an option the engine does not take, or a
            thread count or seed given twice with different values.
    """

    backend: Backend = cast(Backend, None)  # None: chosen from the solver
    solver: Solver = cast(Solver, None)  # None: the backend's only engine, else HiGHS
    logic: Logic = Logic.PROBING
    formulation: FormulationKind = FormulationKind.CELL
    time_limit: float | None = None
    threads: int | None = None
    seed: int | None = None
    verbose: bool = False
    engine_options: EngineOptions = ()
    engine_path: str | None = None
    origins: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    backend_chosen: bool = field(default=False, init=False, compare=False, repr=False)
    solver_chosen: bool = field(default=False, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        fix = object.__setattr__
        origins = dict(self.origins)
        spelling = self.solver
        if spelling is None:  # not given: never in place of one that was
            fix(self, "solver_chosen", True)
            spelling = SOLVER_DEFAULT
            if self.backend is not None:
                given = Backend.parse(self.backend, "backend")
                if len(DRIVES[given]) == 1:
                    (spelling,) = DRIVES[given]
                    origins["solver"] = (f"chosen for backend {given}: the only engine it "
                                         "drives")
            origins.setdefault("solver", "default")
        solver, implied = solver_identity(spelling)
        fix(self, "solver", solver)
        if self.backend is not None:
            backend = Backend.parse(self.backend, "backend")
        elif implied is not None:  # PULP_CBC_CMD, pulp.HiGHS(), appsi_highs: the user named it
            backend = implied
            origins["backend"] = f"named by solver {_shown(spelling)}"
        else:
            backend = BACKEND_FOR[solver]
            fix(self, "backend_chosen", True)
            origins["backend"] = f"chosen for solver {solver}: the rule of docs/solvers.md"
        if solver not in DRIVES[backend]:
            where = [f"{key} from {origins[key]}" for key in ("backend", "solver")
                     if key in origins]
            raise ConfigError(
                f"backend {backend} cannot drive solver {solver}"
                + (f" ({', '.join(where)})" if where else "")
                + f": it drives only {', '.join(sorted(DRIVES[backend]))}. Leave the backend "
                f"out (solver {solver} alone is driven by {BACKEND_FOR[solver]}, the rule in "
                f"docs/solvers.md) or choose backend {' or '.join(_drivers(solver))}")
        fix(self, "backend", backend)
        fix(self, "logic", Logic.parse(self.logic, "logic"))
        fix(self, "formulation", FormulationKind.parse(self.formulation, "formulation"))
        fix(self, "time_limit", check_time_limit(self.time_limit))
        fix(self, "threads", check_threads(self.threads))
        fix(self, "seed", check_seed(self.seed))
        fix(self, "verbose", check_bool(self.verbose))
        self._sort_engine_options(origins)
        fix(self, "engine_path", check_engine_path(self.engine_path))
        fix(self, "origins", origins)

    def _sort_engine_options(self, origins: dict[str, str]) -> None:
        """The engine options sorted by the engine's record (`EngineRecord.sort_options`),
        its native time, threads and seed folded into the common settings: the smaller
        time limit wins, a second, different thread count or seed is a ConfigError."""
        source = origins.get("engine_options", "")
        options, common = ENGINES[self.solver].sort_options(
            check_engine_options(self.engine_options), source)
        object.__setattr__(self, "engine_options", options)
        for key, value in common.items():
            mine = getattr(self, key)
            came = f"engine_options ({source})" if source else "engine_options"
            if key == "time_limit":
                if mine is None or value < mine:
                    object.__setattr__(self, key, float(value))
                    origins[key] = came
            elif mine is None:
                object.__setattr__(self, key, value)
                origins[key] = came
            elif mine != value:
                raise ConfigError(
                    f"{key} is given twice: {mine} ({origins.get(key, 'settings')}) and "
                    f"{value} as the engine's own option ({came}); give it once")

    def replace(self, **changes: Any) -> "Settings":
        """A copy with some fields changed (strings parsed like the constructor's).
        A backend that was chosen by the rule is chosen again for the new solver, a
        solver that was chosen (not given) again for the new backend."""
        _refuse_unknown(changes)
        if self.backend_chosen and "backend" not in changes:
            changes["backend"] = None
        if self.solver_chosen and "solver" not in changes:
            changes["solver"] = None
        origins = {k: v for k, v in self.origins.items() if k not in changes}
        return dataclasses.replace(self, origins=origins, **changes)

    @property
    def values(self) -> dict[str, Any]:
        """The fields as plain JSON values (enums as their names)."""
        return {name: _plain(getattr(self, name)) for name in FIELDS}

    @property
    def pair(self) -> str:
        return f"{self.backend}/{self.solver}"


def _drivers(solver: Solver) -> list[str]:
    """The modelling layers that can drive ``solver``, in the enum's order."""
    return [str(layer) for layer in Backend if solver in DRIVES[layer]]


def _shown(spelling: Any) -> str:
    return repr(spelling) if isinstance(spelling, str) else f"{type(spelling).__name__}()"


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):  # engine_options: a table in JSON
        return dict(value)
    return value.value if isinstance(value, enum.Enum) else value


FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Settings)
                                if f.init and f.name != "origins")
"""The settings a user gives: config keys, ``--flags``, the API's keyword arguments."""


class SettingsKeywords(TypedDict, total=False):
    """The keyword arguments of the solve API: exactly the
    [`Settings`][thermomilp.core.settings.Settings] fields."""

    backend: Backend | str | None
    solver: Any  # a Solver, a name (PuLP's and Pyomo's too) or a PuLP solver object
    logic: Logic | str | None
    formulation: FormulationKind | str | None
    time_limit: float | None
    threads: int | None
    seed: int | None
    verbose: bool | None
    engine_options: Mapping[str, EngineOptionValue] | None
    engine_path: str | os.PathLike | None


def _refuse_unknown(names: Mapping[str, Any]) -> None:
    unknown = sorted(set(names) - set(FIELDS))
    if unknown:
        hint = f" ({RENAMED[unknown[0]]})" if unknown[0] in RENAMED else ""
        raise TypeError(f"unexpected keyword argument {unknown[0]!r}{hint}; the settings are "
                        f"{', '.join(FIELDS)}")


def settings_from(base: Settings | None = None, /, **given: Any) -> Settings:
    """``base`` (default: [`Settings`][thermomilp.core.settings.Settings]) with the given fields
    that are not None: the one way the API takes settings. An unknown name is a `TypeError`,
    as for any Python function."""
    if not given and isinstance(base, Settings):  # the facade's own calls: nothing to change
        return base
    _refuse_unknown(given)
    changes = {k: v for k, v in given.items() if v is not None}
    base = base if base is not None else Settings()
    if not isinstance(base, Settings):
        raise TypeError(f"settings must be a Settings, not {type(base).__name__}")
    return base.replace(**changes) if changes else base


__all__ = ["BACKEND_FOR", "Backend", "DRIVES", "FIELDS", "FormulationKind", "Logic",
           "MAX_THREADS", "SOLVER_ALIASES", "Settings", "SettingsKeywords",
           "Solver", "settings_from", "solver_identity"]
