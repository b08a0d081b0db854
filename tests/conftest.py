"""Shared fixtures: the repository root, the instances, the janko corpus (optional)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"


def corpus_dir() -> Path | None:
    """The janko 6x6 corpus beside the repository (``../shared``), if present."""
    for candidate in (ROOT.parent / "shared" / "corpus" / "janko-6x6",
                      Path("/work/shared/corpus/janko-6x6"),
                      Path(os.environ.get("THERMOMILP_CORPUS", "/nonexistent"))):
        if candidate.is_dir() and any(candidate.glob("*.txt")):
            return candidate
    return None


def janko_files() -> list[Path]:
    found = corpus_dir()
    return sorted(found.glob("*.txt")) if found else []


@pytest.fixture(scope="session")
def expected() -> dict:
    return json.loads((INSTANCES / "expected.json").read_text())


needs_corpus = pytest.mark.skipif(corpus_dir() is None,
                                  reason="the janko corpus (../shared/corpus) is not present")
