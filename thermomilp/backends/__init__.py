"""Solver sessions: one class per modelling layer, any formulation, any engine it reaches.

[`SESSIONS`][thermomilp.backends.SESSIONS] maps each modelling layer to its session class (each
reads every formulation: the models come from the one registry,
[`thermomilp.model.registry.MODELS`][thermomilp.model.registry.MODELS]);
[`session_for`][thermomilp.backends.session_for] opens one from a formulation's data, the
[`Settings`][thermomilp.core.settings.Settings] and the board's deadline. Only the solve layer's
facade (`thermomilp.solving.engine`) opens sessions. Each backend module imports its heavy library
lazily. Which pairs exist and how to install a missing one: `thermomilp.backends.matrix`.
"""

from __future__ import annotations

import importlib

from thermomilp.backends.base import Outcome, Session
from thermomilp.core.deadline import Deadline
from thermomilp.core.settings import Backend, Settings
from thermomilp.model.registry import Formulated, recast

SESSIONS: dict[Backend, str] = {
    Backend.HIGHS: "thermomilp.backends.highs_backend:HighsSession",
    Backend.PULP: "thermomilp.backends.pulp_backend:PulpSession",
    Backend.PYOMO: "thermomilp.backends.pyomo_backend:PyomoSession",
    Backend.CPSAT: "thermomilp.backends.cpsat_backend:CpsatSession",
}
"""Modelling layer -> its session class (module:name, imported when first opened)."""


def session_class(backend: Backend) -> type[Session]:
    module, name = SESSIONS[backend].split(":")
    return getattr(importlib.import_module(module), name)


def session_for(form: Formulated, settings: Settings, deadline: Deadline | None = None) -> Session:
    """A session of ``form`` on the settings' pair, or
    [`SolverUnavailable`][thermomilp.core.errors.SolverUnavailable] naming the installed pairs.
    ``form`` must already be of ``settings.formulation`` (a cell formulation is turned into the
    compact one on the way)."""
    from thermomilp.backends.matrix import require_pair

    require_pair(settings.backend, settings.solver, settings.engine_path)
    form = recast(form, settings.formulation)
    return session_class(settings.backend)(form, settings, deadline)


__all__ = ["Outcome", "SESSIONS", "Session", "session_class", "session_for"]
