"""Shared fixtures; the shared helpers (folders, corpus, random boards) are in helpers.py."""

from __future__ import annotations

import pytest

from helpers import EXPECTED


@pytest.fixture(scope="session")
def expected() -> dict:
    return EXPECTED
