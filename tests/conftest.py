"""Shared fixtures; the shared helpers (folders, corpus, random boards) are in helpers.py.

The ``slow`` marker: long property runs and size sweeps. A default run skips them,
with the reason below; ``THERMOMILP_SLOW=1`` or ``-m slow`` runs them, and ``.ci/run``
runs the whole suite with ``THERMOMILP_SLOW=1`` (so CI skips none of them).
"""

from __future__ import annotations

import os

import pytest

from helpers import EXPECTED

SLOW_REASON = "long sweep: run with THERMOMILP_SLOW=1 or -m slow"


def _slow_selected(config: pytest.Config) -> bool:
    """The slow tests run: THERMOMILP_SLOW=1, or a -m expression that names the marker
    (``-m slow``; under ``-m "not slow"`` they are deselected anyway)."""
    if os.environ.get("THERMOMILP_SLOW", "") not in ("", "0"):
        return True
    return "slow" in (config.getoption("markexpr", "") or "")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _slow_selected(config):
        return
    skip = pytest.mark.skip(reason=SLOW_REASON)
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def expected() -> dict:
    return EXPECTED


@pytest.fixture(scope="session", autouse=True)
def grades_key_in_tmp(tmp_path_factory):
    """``thermomilp grade`` seals its rows with the grader's key file, created on first
    use at ``~/.config/thermomilp/grades.key``: the tests' key is the session's own
    (one per xdist worker), never the user's. Subprocesses inherit it."""
    with pytest.MonkeyPatch.context() as patch:
        key = tmp_path_factory.mktemp("grades-key") / "grades.key"
        patch.setenv("THERMOMILP_GRADES_KEY", str(key))
        yield key
