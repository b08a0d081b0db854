"""Settings resolved in one place, with where each value came from.

Precedence, highest first:

1. command-line flag (``--backend``, ``--solver``, ``--time-limit``, ...);
2. environment: ``THERMOMILP_BACKEND``, ``THERMOMILP_SOLVER``,
   ``THERMOMILP_TIME_LIMIT``, ``THERMOMILP_THREADS``, ``THERMOMILP_SEED``,
   ``THERMOMILP_PRESOLVE``;
3. ``thermomilp.toml`` in the working directory, else ``[tool.thermomilp]``
   in ``pyproject.toml`` there;
4. defaults: backend ``highs``, solver ``highs``, presolve ``probing``.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from thermomilp.errors import ConfigError

KEYS: dict[str, Callable[[str], Any]] = {}


def _positive_float(value: Any) -> float:
    number = float(value)
    if not number > 0:
        raise ValueError("must be positive")
    return number


def _positive_int(value: Any) -> int:
    if isinstance(value, bool) or int(value) != float(value) or int(value) < 1:
        raise ValueError("must be a whole number >= 1")
    return int(value)


def _int(value: Any) -> int:
    if isinstance(value, bool) or int(value) != float(value):
        raise ValueError("must be a whole number")
    return int(value)


def _choice(*names: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        text = str(value).strip().lower()
        if text not in names:
            raise ValueError(f"must be one of {', '.join(names)}")
        return text
    return check


def _name(value: Any) -> str:
    text = str(value).strip().lower()
    if not text:
        raise ValueError("must not be empty")
    return text


KEYS.update({
    "backend": _choice("highs", "pulp", "pyomo"),
    "solver": _name,
    "time_limit": _positive_float,
    "threads": _positive_int,
    "seed": _int,
    "presolve": _choice("none", "intervals", "probing"),
})
DEFAULTS: dict[str, Any] = {"backend": "highs", "solver": "highs", "time_limit": None,
                            "threads": None, "seed": None, "presolve": "probing"}
# presolve "probing": measured in docs/logic.md (benchmarks/presolve.py) -- on unique boards
# it decides 31 of 32 alone and cuts solve+uniqueness time to 0.04-0.06x on every backend.
# solve() itself keeps presolve="none" so the library path always exercises the MILP.


@dataclass(frozen=True)
class Settings:
    values: Mapping[str, Any]
    origins: Mapping[str, str] = field(default_factory=dict)

    def __getattr__(self, key: str) -> Any:
        try:
            return self.values[key]
        except KeyError:
            raise AttributeError(key) from None


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
    """Merge flags > environment > config file > defaults, checking every value."""
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
            except (TypeError, ValueError) as exc:
                raise ConfigError(f"{key} = {raw!r} from {origin}: {exc}") from None
            origins[key] = origin
            break
        else:
            values[key] = DEFAULTS[key]
            origins[key] = "default"
    return Settings(values, origins)
