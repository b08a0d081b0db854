"""The old import paths of modules that moved into the layer folders (one release only).

``from thermomilp.puzzle import Puzzle`` still works, with a ``DeprecationWarning`` that
names the new path (``thermomilp.core.puzzle``); the old name is the very same module
object as the new one, so patching either patches both. :data:`MOVED` is the one table;
docs/api.md shows it. :func:`install` (called by ``thermomilp/__init__.py``) puts the
finder on ``sys.meta_path``; it imports nothing until an old name is asked for.

``thermomilp.solve`` did not move: it is a package now, whose ``__init__`` offers what the
old module offered.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

MOVED = {
    "thermomilp.errors": "thermomilp.core.errors",
    "thermomilp.deadline": "thermomilp.core.deadline",
    "thermomilp.settings": "thermomilp.core.settings",
    "thermomilp.config": "thermomilp.core.config",
    "thermomilp.puzzle": "thermomilp.core.puzzle",
    "thermomilp.verify": "thermomilp.core.verify",
    "thermomilp.render": "thermomilp.pictures.text",
    "thermomilp.svg": "thermomilp.pictures.svg",
    "thermomilp.engine": "thermomilp.solving.engine",
    "thermomilp.confirm": "thermomilp.solving.confirm",
    "thermomilp.swap": "thermomilp.solving.swap",
    "thermomilp.conflict": "thermomilp.solving.conflict",
    "thermomilp.export": "thermomilp.teach.export",
    "thermomilp.analyze": "thermomilp.teach.analyze",
}


class _MovedModuleLoader(importlib.abc.Loader):
    """Serve an old name as the new module object itself (no copy, no second import)."""

    def __init__(self, new: str) -> None:
        self.new = new
        self.own_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(f"{spec.name} moved to {self.new}; import it from there "
                      "(the old path goes away in the next release)",
                      DeprecationWarning, stacklevel=2)  # warnings skips importlib's frames
        module = importlib.import_module(self.new)
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the new module is already imported. Importlib has just set its
        ``__spec__`` to the old name's; give it back its own (reload, pickle, -m use it)."""
        module.__spec__ = self.own_spec


class MovedModuleFinder(importlib.abc.MetaPathFinder):
    """Find the old dotted names of :data:`MOVED`, and nothing else."""

    def find_spec(self, fullname: str, path: object = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _MovedModuleLoader(new))


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedModuleFinder())
