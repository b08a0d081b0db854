"""Install hints that work from where the user stands (issue 36): thermomilp is not on a
package index, so a hint names the clone or the wheel this copy came from, never
``thermomilp[extra]`` (which fails in a fresh venv)."""

from __future__ import annotations

import json

import pytest

from thermomilp.core import install
from thermomilp.core.engines import ENGINES, Solver

from helpers import ROOT


@pytest.fixture(autouse=True)
def fresh_source():
    install.source.cache_clear()
    yield
    install.source.cache_clear()


def test_from_a_clone_the_hint_names_the_clone():
    assert install.source() == str(ROOT)
    assert install.pip_install("cbc") == f'pip install "{ROOT}[cbc]"'
    assert ENGINES[Solver.CBC].install_hint() == (f'pip install "{ROOT}[cbc]"  or  '
                                                  "apt-get install coinor-cbc")


class _Installed:
    def __init__(self, record: str | None):
        self.record = record

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        return self.record


@pytest.mark.parametrize("url,source", [
    ("file:///home/me/dist/thermomilp-0.1.0-py3-none-any.whl",
     "/home/me/dist/thermomilp-0.1.0-py3-none-any.whl"),
    ("file:///home/me/my%20clone", "/home/me/my clone"),
])
def test_from_an_install_the_hint_names_what_pip_installed_from(url, source, monkeypatch,
                                                                tmp_path):
    import importlib.metadata

    monkeypatch.setattr(install, "CHECKOUT", tmp_path)  # not a clone
    monkeypatch.setattr(importlib.metadata, "distribution",
                        lambda name: _Installed(json.dumps({"url": url})))
    assert install.source() == source
    assert install.pip_install("scip") == f'pip install "{source}[scip]"'


def test_from_an_index_the_hint_is_the_plain_extra(monkeypatch, tmp_path):
    import importlib.metadata

    monkeypatch.setattr(install, "CHECKOUT", tmp_path)
    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: _Installed(None))
    assert install.pip_install("cpsat") == 'pip install "thermomilp[cpsat]"'
