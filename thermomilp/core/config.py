"""Settings resolved in one place, with where each value came from.

Precedence, highest first:

1. command-line flag (``--backend``, ``--solver``, ``--logic``, ``--time-limit``,
   ``--engine-option KEY=VALUE``, ``--engine-path``, ...);
2. environment: ``THERMOMILP_`` and the setting's name in capitals
   (``THERMOMILP_SOLVER``, ``THERMOMILP_LOGIC``, ``THERMOMILP_TIME_LIMIT``, ...;
   ``THERMOMILP_ENGINE_OPTIONS`` holds ``NAME=VALUE,NAME=VALUE``);
3. the nearest config file, looked for as ruff and pytest do: from the working
   folder upwards, the first ``thermomilp.toml``, or ``pyproject.toml`` with a
   ``[tool.thermomilp]`` table, stopping after the folder that holds ``.git``
   (the project's root) or at the file system's root;
4. defaults: solver ``highs`` (backend chosen from the solver by
   :data:`thermomilp.core.settings.BACKEND_FOR`), logic ``probing``,
   formulation ``cell``.

Engine options merge by name (a flag's ``threads`` beats the file's, the
file's ``mip_rel_gap`` stays). A config file is untrusted (it may come with a
downloaded puzzle folder): its solver must be one of the closed list, and it
may not set ``engine_path`` -- a file in a folder never chooses a program.

The result is one immutable :class:`thermomilp.core.settings.Settings` (enums,
checked numbers) that every command hands to the solve layer unchanged.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Mapping

from thermomilp.core.errors import ConfigError
from thermomilp.core.settings import (
    FIELDS,
    RENAMED,
    Backend,
    FormulationKind,
    Logic,
    Settings,
    check_bool,
    check_engine_options,
    check_engine_path,
    check_seed,
    check_threads,
    check_time_limit,
    solver_identity,
)

KEYS: dict[str, Callable[[Any], Any]] = {
    "backend": lambda v: Backend.parse(v, "backend"),
    "solver": lambda v: (solver_identity(v), v)[1],  # checked here; the alias kept for Settings
    "logic": lambda v: Logic.parse(v, "logic"),
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
# logic "probing" everywhere (API, CLI, batch, serve): measured in docs/logic.md
# (benchmarks/presolve.py) -- on unique boards it decides 31 of 32 alone and cuts
# solve+uniqueness time to 0.04-0.06x on every backend. logic="none" shows the MILP at work.

NOT_FROM_FILES = {
    "engine_path": "engine_path is not read from config files (a file found in a folder "
                   "must not choose a program to run); give --engine-path or "
                   "THERMOMILP_ENGINE_PATH",
}

CONFIG_NAME = "thermomilp.toml"


def find_config(start: str | os.PathLike | None = None) -> tuple[dict[str, Any], str | None]:
    """The nearest config file's settings and a description of where they are.

    From ``start`` (default: the working folder) upwards: ``thermomilp.toml``,
    else ``pyproject.toml`` with ``[tool.thermomilp]`` (a pyproject.toml
    without the table is passed over); the search ends after a folder holding
    ``.git`` or at the root. ``({}, None)`` when there is none."""
    folder = Path(start if start is not None else os.getcwd()).absolute()
    for here in (folder, *folder.parents):
        own = here / CONFIG_NAME
        if own.is_file():
            return _read_toml(own, None) or {}, str(own)
        project = here / "pyproject.toml"
        if project.is_file():
            table = _read_toml(project, ("tool", "thermomilp"))
            if table is not None:
                return table, f"{project} [tool.thermomilp]"
        if (here / ".git").exists():
            break
    return {}, None


def _read_toml(path: Path, table: tuple[str, ...] | None) -> dict[str, Any] | None:
    import tomllib  # only where a config file is found

    try:
        data: Any = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    for key in table or ():
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    where = f"{path} [{'.'.join(table)}]" if table else str(path)
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: must be a table of settings")
    for key in sorted(data):
        if key in RENAMED:
            raise ConfigError(f"{where}: setting {key!r} was renamed: {RENAMED[key]}")
        if key in NOT_FROM_FILES:
            raise ConfigError(f"{where}: {NOT_FROM_FILES[key]}")
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise ConfigError(f"{where}: unknown setting{'s' * (len(unknown) > 1)} "
                          f"{', '.join(map(repr, unknown))}; known: {', '.join(KEYS)}")
    return dict(data)


def env_name(key: str) -> str:
    return f"THERMOMILP_{key.upper()}"


def resolve(flags: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None,
            cwd: str | os.PathLike | None = None) -> Settings:
    """Merge flags > environment > config file > defaults into one checked :class:`Settings`.

    ``flags`` holds None for a flag not given (``engine_options``: the list of
    ``NAME=VALUE`` texts). Every error names where the bad value came from."""
    env = os.environ if env is None else env
    flags = flags or {}
    for old, message in RENAMED.items():
        if env.get(env_name(old)):
            raise ConfigError(f"{env_name(old)} is set: {message}")
    file_values, file_origin = find_config(cwd)
    values: dict[str, Any] = {}
    origins: dict[str, str] = {}
    for key, check in KEYS.items():
        candidates = [
            (flags.get(key), "command line"),
            (env.get(env_name(key)), f"environment {env_name(key)}"),
            (file_values.get(key), file_origin or ""),
        ]
        found = []
        for raw, origin in candidates:
            if raw is None or raw == "" or raw == []:
                continue
            try:
                found.append((check(raw), origin))
            except ConfigError as exc:
                raise ConfigError(f"{exc} (from {origin})") from None
            if key != "engine_options":
                break  # the first one given wins; engine options merge by name
        if key == "engine_options" and found:
            merged: dict[str, Any] = {}
            for options, _ in reversed(found):  # lowest first, each level overrides
                merged.update(options)
            values[key] = tuple(sorted(merged.items()))
            origins[key] = " + ".join(origin for _, origin in found)
        elif found:
            values[key], origins[key] = found[0]
        elif key == "backend":
            values[key] = None  # chosen from the solver by the rule; Settings records why
        else:
            values[key] = DEFAULTS[key]
            origins[key] = "default"
    return Settings(**values, origins=origins)


__all__ = ["CONFIG_NAME", "DEFAULTS", "KEYS", "env_name", "find_config", "resolve"]
