"""Solver sessions: one class per modelling layer, any formulation, any engine it reaches.

:data:`SESSIONS` is the registry keyed by (formulation, modelling layer);
:func:`session_for` opens one from a formulation's data and the
:class:`~thermomilp.core.settings.Settings`. Only the solve layer's facade
(:mod:`thermomilp.solve.engine`) opens sessions. Each backend module imports its
heavy library lazily. Which pairs exist and how to install a missing one:
:mod:`thermomilp.backends.matrix`.
"""

from __future__ import annotations

from typing import Any, Callable

from thermomilp.backends.base import Outcome, Session, SolverOptions
from thermomilp.core.settings import Backend, FormulationKind, Settings, settings_from
from thermomilp.model.registry import Formulated, recast

BACKENDS = tuple(b.value for b in Backend)


def _highs(form: Formulated, settings: Settings) -> Session:
    from thermomilp.backends.highs_backend import HighsSession

    return HighsSession(form, settings)


def _pulp(form: Formulated, settings: Settings) -> Session:
    from thermomilp.backends.pulp_backend import PulpSession

    return PulpSession(form, settings, settings.solver)


def _pyomo(form: Formulated, settings: Settings) -> Session:
    from thermomilp.backends.pyomo_backend import PyomoSession

    return PyomoSession(form, settings, settings.solver)


_LAYERS: dict[Backend, Callable[[Formulated, Settings], Session]] = {
    Backend.HIGHS: _highs, Backend.PULP: _pulp, Backend.PYOMO: _pyomo}
SESSIONS: dict[tuple[FormulationKind, Backend], Callable[[Formulated, Settings], Session]] = {
    (kind, backend): opener for kind in FormulationKind for backend, opener in _LAYERS.items()}
"""(formulation, modelling layer) -> the session opener. Every pair is wired:
each layer's session reads any :class:`~thermomilp.model.registry.Formulated`."""


def session_for(form: Formulated, settings: Settings) -> Session:
    """A session of ``form`` on the settings' pair, or :class:`SolverUnavailable`
    naming the installed pairs. ``form`` must already be of ``settings.formulation``
    (a cell formulation is turned into the compact one on the way)."""
    from thermomilp.backends.matrix import require_pair

    require_pair(settings.backend, settings.solver, settings.engine_path)
    form = recast(form, settings.formulation)
    return SESSIONS[FormulationKind(form.kind), settings.backend](form, settings)


def open_session(form: Formulated, backend: Any = None, solver: Any = None,
                 options: Settings | None = None, formulation: Any = None) -> Session:
    """The old entry point: :func:`session_for` with the pair given apart.

    Kept for callers outside the solve layer that have not moved to
    :mod:`thermomilp.solve.engine` yet; it opens a bare session (no verification,
    no second opinion)."""
    settings = settings_from(options, backend=backend, solver=solver,
                             formulation=formulation or form.kind)
    return session_for(form, settings)


__all__ = ["BACKENDS", "Outcome", "SESSIONS", "Session", "SolverOptions", "open_session",
           "session_for"]
