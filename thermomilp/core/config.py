"""Settings resolved in one place, with where each value came from.

Precedence, highest first (docs/solvers.md spells it out): command-line flag;
environment, ``THERMOMILP_`` and the setting's name in capitals
(``THERMOMILP_ENGINE_OPTIONS`` holds ``NAME=VALUE,NAME=VALUE``); the nearest config
file ([`find_config`][thermomilp.core.config.find_config]); defaults. Engine options
merge by name. A config file is untrusted (it may come with a downloaded puzzle
folder): it may not set ``engine_path`` -- a file in a folder never chooses a program.

The result is one immutable [`thermomilp.core.settings.Settings`][thermomilp.core.settings.Settings]
(enums, checked numbers) that every command hands to the solve layer unchanged.
"""

from __future__ import annotations

import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from thermomilp.core.errors import ConfigError
from thermomilp.core.files import read_regular
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
from thermomilp.core.untrusted import shown as untrusted_text

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
# logic "probing" everywhere (API, CLI, batch, serve); why: docs/logic.md, "Measured:
# presolve speed and the default" (benchmarks/presolve.py). logic="none" shows the MILP at work.

NOT_FROM_FILES = {
    "engine_path": "engine_path is not read from config files (a file found in a folder "
                   "must not choose a program to run); give --engine-path or "
                   "THERMOMILP_ENGINE_PATH",
}

CONFIG_NAME = "thermomilp.toml"


MAX_CONFIG_BYTES = 64 * 1024
"""A config file larger than this is refused before it is read (a settings file is a
few hundred bytes; a planted one could be gigabytes)."""
MAX_NESTING = 16
"""Brackets and braces nested deeper than this are refused before the file is parsed:
the settings nest two deep (``[engine_options]``), and a parser's recursion could be
run out by a planted file."""


@dataclass(frozen=True)
class ConfigSearch:
    """What the search for a config file found, and where and why it stopped."""

    values: dict[str, Any]
    where: str | None
    """The file (and table) the values came from, or None."""
    stopped: str
    """Where the search ended, and why."""
    ignored: tuple[str, ...] = ()
    """Config files passed over, each with the reason (the warnings)."""


def find_config(start: str | os.PathLike | None = None, *, user: int | None = None,
                home: str | os.PathLike | None = None) -> ConfigSearch:
    """The nearest config file's settings, where they are, and where the search stopped.

    From ``start`` (default: the working folder) upwards: ``thermomilp.toml``, else
    ``pyproject.toml`` with ``[tool.thermomilp]`` (a pyproject.toml without the table
    is passed over). A config file may come with a folder someone else made, so the
    search trusts no stranger, as git does:

    * it stops before a folder that ``user`` (default: this process's user) does not
      own, and after the home folder and after a folder holding ``.git`` (a
      repository's root);
    * a file owned by another user, or lying in a folder anyone may write to, is
      ignored ([`ConfigSearch.ignored`][thermomilp.core.config.ConfigSearch.ignored] says why; the
      command line warns).

    Raises:
        ConfigError: the file found is larger than
            [`MAX_CONFIG_BYTES`][thermomilp.core.config.MAX_CONFIG_BYTES], nests deeper than
            [`MAX_NESTING`][thermomilp.core.config.MAX_NESTING], is not valid TOML or holds an
            unknown or forbidden setting.
    """
    user = os.geteuid() if user is None else user
    top = Path(home) if home is not None else _home()
    folder = Path(start if start is not None else os.getcwd()).absolute()
    ignored: list[str] = []
    stopped = "reached the file system's root"
    for here in (folder, *folder.parents):
        try:
            info = here.stat()
        except OSError as exc:
            stopped = f"cannot look into {here}: {exc.strerror}"
            break
        if info.st_uid != user:
            stopped = f"{here} belongs to another user (uid {info.st_uid})"
            break
        for name, table in ((CONFIG_NAME, None), ("pyproject.toml", ("tool", "thermomilp"))):
            path = here / name
            if not path.is_file():
                continue
            why = _distrust(path, info, user)
            if why:
                ignored.append(f"{path} ignored: {why}")
                continue
            found = _read_toml(path, table)
            if found is not None:
                where = str(path) if table is None else f"{path} [tool.thermomilp]"
                return ConfigSearch(found, where, f"found {where}", tuple(ignored))
        if top is not None and here == top:
            stopped = f"reached the home folder {here}"
            break
        if (here / ".git").exists():
            stopped = f"reached the repository root {here} (it holds .git)"
            break
    return ConfigSearch({}, None, stopped, tuple(ignored))


def _home() -> Path | None:
    try:
        return Path.home().absolute()
    except (KeyError, RuntimeError):  # no HOME and no passwd entry
        return None


def _distrust(path: Path, folder: os.stat_result, user: int) -> str | None:
    """Why the config file ``path`` (in a folder with ``folder``'s status) is not to be
    read, or None: another user owns it, or anyone may write to its folder."""
    try:
        owner = path.stat().st_uid
    except OSError as exc:
        return f"cannot read its owner: {exc.strerror}"
    if owner != user:
        return f"it belongs to another user (uid {owner})"
    if folder.st_mode & stat.S_IWOTH:
        return "its folder is writable by every user"
    return None


def _config_text(path: Path) -> str:
    """The file's text, read only when it is a regular file of at most
    [`MAX_CONFIG_BYTES`][thermomilp.core.config.MAX_CONFIG_BYTES], never blocking
    (`thermomilp.core.files.read_regular`: a FIFO is refused, not waited on)."""
    try:
        size = path.stat().st_size
        if size > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: {size} bytes; a config file may hold at most "
                              f"{MAX_CONFIG_BYTES} bytes")
        data = read_regular(path, MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: a config file may hold at most {MAX_CONFIG_BYTES} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None


def nesting_depth(text: str) -> int:
    """How deep ``[`` and ``{`` nest in TOML ``text``, strings and comments left out."""
    depth = deepest = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, i) else ch
            i += len(quote)
            while i < n and not text.startswith(quote, i):
                if ch == '"' and text[i] == "\\":
                    i += 1  # an escape in a basic string
                elif text[i] == "\n" and len(quote) == 1:
                    break  # an unclosed one-line string: the parser says so
                i += 1
            i += len(quote)
            continue
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(depth - 1, 0)
        i += 1
    return deepest


def _read_toml(path: Path, table: tuple[str, ...] | None) -> dict[str, Any] | None:
    import tomllib  # only where a config file is found

    text = _config_text(path)
    if nesting_depth(text) > MAX_NESTING:
        raise ConfigError(f"{path}: nested deeper than {MAX_NESTING} levels; a settings file "
                          "nests two deep ([engine_options])")
    try:
        data: Any = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply") from None
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


def _warn(message: str) -> None:
    sys.stderr.write(f"thermomilp: warning: {untrusted_text(message)}\n")


def resolve(flags: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None,
            cwd: str | os.PathLike | None = None,
            warn: Callable[[str], None] | None = None) -> Settings:
    """Merge flags > environment > config file > defaults into one checked
    [`Settings`][thermomilp.core.settings.Settings].

    ``flags`` holds None for a flag not given (``engine_options``: the list of
    ``NAME=VALUE`` texts). Every error names where the bad value came from."""
    env = os.environ if env is None else env
    flags = flags or {}
    for old, message in RENAMED.items():
        if env.get(env_name(old)):
            raise ConfigError(f"{env_name(old)} is set: {message}")
    search = find_config(cwd)
    for warning in search.ignored:
        (warn or _warn)(warning)
    file_values, file_origin = search.values, search.where
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
        elif key in ("backend", "solver"):
            values[key] = None  # chosen by the rule (backend from the solver, solver from a
            # backend that drives only one engine, else the default); Settings records why
        else:
            values[key] = DEFAULTS[key]
            origins[key] = "default"
    return Settings(**values, origins=origins)


__all__ = ["CONFIG_NAME", "ConfigSearch", "DEFAULTS", "KEYS", "MAX_CONFIG_BYTES", "MAX_NESTING",
           "env_name", "find_config", "resolve"]
