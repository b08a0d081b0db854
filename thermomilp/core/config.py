"""Settings resolved in one place, with where each value came from.

Precedence, highest first:

1. command-line flag (``--backend``, ``--solver``, ``--time-limit``, ...);
2. environment: ``THERMOMILP_BACKEND``, ``THERMOMILP_SOLVER``,
   ``THERMOMILP_TIME_LIMIT``, ``THERMOMILP_THREADS``, ``THERMOMILP_SEED``,
   ``THERMOMILP_PRESOLVE``, ``THERMOMILP_FORMULATION``, ``THERMOMILP_VERBOSE``;
3. ``thermomilp.toml`` in the working directory, else ``[tool.thermomilp]``
   in ``pyproject.toml`` there;
4. defaults: backend ``highs``, solver ``highs``, presolve ``probing``, formulation
   ``cell``.

The result is one immutable :class:`thermomilp.core.settings.Settings` (enums, checked
numbers) that every command hands to the solve layer unchanged.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Callable, Mapping

from thermomilp.core.errors import ConfigError
from thermomilp.core.settings import (
    FIELDS,
    Backend,
    FormulationKind,
    Presolve,
    Settings,
    Solver,
    check_bool,
    check_engine_options,
    check_engine_path,
    check_seed,
    check_threads,
    check_time_limit,
)

KEYS: dict[str, Callable[[Any], Any]] = {
    "backend": lambda v: Backend.parse(v, "backend"),
    "solver": lambda v: Solver.parse(v, "solver"),
    "presolve": lambda v: Presolve.parse(v, "presolve"),
    "formulation": lambda v: FormulationKind.parse(v, "formulation"),
    "time_limit": check_time_limit,
    "threads": check_threads,
    "seed": check_seed,
    "verbose": check_bool,
    "engine_options": check_engine_options,
    "engine_path": check_engine_path,
}
assert tuple(KEYS) == FIELDS, "every Settings field is a config key"
DEFAULTS: dict[str, Any] = Settings().values
# presolve "probing": measured in docs/logic.md (benchmarks/presolve.py) -- on unique boards
# it decides 31 of 32 alone and cuts solve+uniqueness time to 0.04-0.06x on every backend.
# solve() itself keeps presolve="none" so the library path always exercises the MILP.


def _from_file(cwd: Path) -> tuple[dict[str, Any], str | None]:
    own = cwd / "thermomilp.toml"
    if own.is_file():
        return _read_toml(own, None), str(own)
    project = cwd / "pyproject.toml"
    if project.is_file():
        table = _read_toml(project, ("tool", "thermomilp"))
        if table:
            return table, f"{project} [tool.thermomilp]"
    return {}, None


def _read_toml(path: Path, table: tuple[str, ...] | None) -> dict[str, Any]:
    try:
        data: Any = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    for key in table or ():
        data = data.get(key, {}) if isinstance(data, dict) else {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: [{'.'.join(table or ())}] must be a table")
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise ConfigError(f"{path}: unknown setting {unknown[0]!r}; known: {', '.join(KEYS)}")
    return dict(data)


def resolve(flags: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None,
            cwd: str | os.PathLike | None = None) -> Settings:
    """Merge flags > environment > config file > defaults into one checked :class:`Settings`."""
    env = os.environ if env is None else env
    file_values, file_origin = _from_file(Path(cwd or os.getcwd()))
    values: dict[str, Any] = {}
    origins: dict[str, str] = {}
    for key, check in KEYS.items():
        candidates = [
            ((flags or {}).get(key), "command line"),
            (env.get(f"THERMOMILP_{key.upper()}"), f"environment THERMOMILP_{key.upper()}"),
            (file_values.get(key), file_origin or ""),
        ]
        for raw, origin in candidates:
            if raw is None or raw == "":
                continue
            try:
                values[key] = check(raw)
            except ConfigError as exc:
                raise ConfigError(f"{exc} (from {origin})") from None
            origins[key] = origin
            break
        else:
            values[key] = DEFAULTS[key]
            origins[key] = "default"
    return Settings(**values, origins=origins)
