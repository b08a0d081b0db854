"""The function ``thermomilp.solve`` and the solve layer's package ``thermomilp.solving``
have different names, so the package's modules import the plain way."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest


def test_the_solving_package_imports_by_its_dotted_path_and_solve_is_the_function():
    import thermomilp
    import thermomilp.solving.engine as e

    assert callable(e.Engine)
    assert callable(thermomilp.solve) and not hasattr(thermomilp.solve, "__path__")
    from thermomilp.solving.api import solve

    assert thermomilp.solve is solve


def test_the_dotted_module_path_works_in_a_fresh_interpreter():
    code = ("import thermomilp.solving.engine as e, thermomilp\n"
            "assert e.__name__ == 'thermomilp.solving.engine'\n"
            "assert thermomilp.solve.__module__ == 'thermomilp.solving.api'\n")
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("old", ["thermomilp.puzzle", "thermomilp.engine", "thermomilp.render",
                                 "thermomilp._moved"])
def test_old_module_paths_are_gone(old):
    """No release was published with the flat layout, so it has no import shim."""
    sys.modules.pop(old, None)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(old)
