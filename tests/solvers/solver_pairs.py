"""One fixture drives the solver tests: ``solver_pair``, over every (backend, solver) pair.

Test modules import it (``from solver_pairs import solver_pair``) rather than
find it in a conftest.py, so this folder's helpers never shadow the
``conftest`` module of ``tests/``.

A pair that is not installed here is skipped with the reason and the install
step -- or, with ``THERMOMILP_REQUIRE_ALL_SOLVERS=1`` (as ``.ci/run`` sets),
fails, so CI cannot go green with a pair silently missing.
"""

from __future__ import annotations

import pytest

from thermomilp.backends.matrix import KNOWN_PAIRS

from helpers import use_pair


@pytest.fixture(params=KNOWN_PAIRS, ids=[f"{b}-{s}" for b, s in KNOWN_PAIRS])
def solver_pair(request) -> tuple[str, str]:
    """(backend, solver), installed on this machine."""
    return use_pair(*request.param)
