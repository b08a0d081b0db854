"""The old module paths (before the layer folders) still import, for one release.

This file names the old paths on purpose.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import types
import warnings

import pytest

import thermomilp
from thermomilp._moved import MOVED

from helpers import ROOT


@pytest.fixture(autouse=True)
def _forget_the_old_names():
    """Leave no old name behind for other tests (docs/api.md's example expects the warning)."""
    yield
    for old in MOVED:
        sys.modules.pop(old, None)
        leaf = old.rpartition(".")[2]
        if isinstance(thermomilp.__dict__.get(leaf), types.ModuleType):
            delattr(thermomilp, leaf)


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_imports_warns_and_is_the_new_module(old, monkeypatch):
    new = importlib.import_module(MOVED[old])
    monkeypatch.delitem(sys.modules, old, raising=False)
    with pytest.warns(DeprecationWarning, match=rf"{old} moved to {MOVED[old]}"):
        served = importlib.import_module(old)
    assert served is new
    assert served.__name__ == MOVED[old] and served.__spec__.name == MOVED[old]


def test_from_an_old_path_import_a_name():
    code = ("import warnings; warnings.simplefilter('error', DeprecationWarning)\n"
            "try:\n    from thermomilp.puzzle import Puzzle\n"
            "except DeprecationWarning as w:\n    print(w)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT)}, check=True).stdout
    assert "thermomilp.puzzle moved to thermomilp.core.puzzle" in out


def test_the_warning_points_at_the_importing_line():
    """Python shows a DeprecationWarning by default only when it is attributed to
    __main__: the warning names the user's file and line, not importlib's."""
    code = "import thermomilp.errors\n"
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT)}, check=True).stderr
    assert "<string>:1: DeprecationWarning: thermomilp.errors moved to" in err


def test_old_and_new_paths_share_their_objects(monkeypatch):
    monkeypatch.delitem(sys.modules, "thermomilp.puzzle", raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from thermomilp.puzzle import Puzzle as OldPuzzle
    from thermomilp.core.puzzle import Puzzle

    assert OldPuzzle is Puzzle is thermomilp.Puzzle


def test_solve_is_still_the_function_after_its_package_modules_are_imported():
    from thermomilp.solve import api, engine  # noqa: F401

    importlib.import_module("thermomilp.solve.conflict")
    importlib.import_module("thermomilp.solve.swap")
    assert callable(thermomilp.solve) and thermomilp.solve is api.solve
    p = thermomilp.load(ROOT / "instances" / "thermometers" / "t01_4x4.txt")
    assert thermomilp.solve(p).status == "unique"


def test_solve_package_offers_what_the_old_module_offered():
    importlib.import_module("thermomilp.solve.api")
    package = sys.modules["thermomilp.solve"]
    api = sys.modules["thermomilp.solve.api"]
    for name in api.__all__:
        assert getattr(package, name) is getattr(api, name)


def test_the_table_names_only_modules_that_are_gone_and_targets_that_exist():
    for old, new in MOVED.items():
        assert not (ROOT / (old.replace(".", "/") + ".py")).exists(), old
        assert (ROOT / (new.replace(".", "/") + ".py")).is_file(), new
    assert "thermomilp.solve" not in MOVED  # still a real package


def test_an_unknown_old_name_is_still_an_import_error():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("thermomilp.no_such_module")


def test_an_old_module_as_an_attribute_of_the_package(monkeypatch):
    """``import thermomilp; thermomilp.puzzle.Puzzle`` worked because the package imported
    the module; it still does, with the warning."""
    if "verify" in vars(thermomilp):  # (hasattr would import it: that is the point)
        monkeypatch.delattr(thermomilp, "verify")
    monkeypatch.delitem(sys.modules, "thermomilp.verify", raising=False)
    with pytest.warns(DeprecationWarning, match="thermomilp.core.verify"):
        module = thermomilp.verify
    assert module.solution_problems is thermomilp.solution_problems
    with pytest.raises(AttributeError):
        thermomilp.no_such_name  # noqa: B018


def test_no_code_reaches_the_solve_package_through_the_attribute():
    """``thermomilp.solve`` is the function: ``import thermomilp.solve.engine as e`` and
    ``thermomilp.solve.engine.X`` look the module up on it and fail, when they run."""
    import ast

    modules = {p.stem for p in (ROOT / "thermomilp" / "solve").glob("*.py")}
    bad = []
    for folder in ("thermomilp", "tests", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    bad += [f"{path.relative_to(ROOT)}:{node.lineno}" for alias in node.names
                            if alias.name.startswith("thermomilp.solve.") and alias.asname]
                elif (isinstance(node, ast.Attribute) and node.attr in modules
                      and ast.unparse(node.value) == "thermomilp.solve"):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert bad == []
