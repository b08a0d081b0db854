"""How the session skeleton passes an engine its native options.

Everything known about an engine is its record, `thermomilp.core.engines.ENGINES`:
the allowlist of native options, checked and
typed when the [`Settings`][thermomilp.core.settings.Settings] are made, and the quirks the
skeleton acts on. `native_options` puts the common options under the engine's
names beside the user's; `set_parameter` types a CP-SAT parameter by its field.
"""

from __future__ import annotations

from typing import Any

from thermomilp.core.engines import ENGINES
from thermomilp.core.settings import EngineOptionValue, Settings


def native_options(settings: Settings) -> dict[str, EngineOptionValue]:
    """The native options of every solve: the common ones under the engine's names,
    then the user's ``engine_options``."""
    traits = ENGINES[settings.solver]
    options: dict[str, EngineOptionValue] = {}
    if traits.threads_option and settings.threads is not None:
        options[traits.threads_option] = int(settings.threads)
    if traits.seed_option and settings.seed is not None:
        options[traits.seed_option] = int(settings.seed)
    options.update(settings.engine_options)
    return options


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


__all__ = ["native_options", "set_parameter"]
