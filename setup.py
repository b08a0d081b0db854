"""Build hooks: ship the repository's ``instances/`` and ``models/`` inside the package,
and compile the logic's probing kernel when a C compiler is at hand.

All metadata lives in ``pyproject.toml``. This file extends ``build_py`` so
that a plain ``pip install .`` copies the bundled puzzles (``instances/**/*.txt``
and ``*.json``) to ``thermomilp/_instances/``, where ``thermomilp serve`` finds
them (see ``thermomilp/web/instances.py``). The repository keeps one copy at
its root; nothing is duplicated in git.

``thermomilp.logic._kernel`` (``thermomilp/logic/_kernel.c``, the plain C API,
no build dependency) is optional: without a compiler or the Python headers the
build says so and goes on, and the logic runs its pure-Python reference
(``thermomilp/logic/propagation.py``; ``thermomilp solvers`` says which one runs).
"""

import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

SUFFIXES = (".txt", ".json")


# the teaching kit (models/: .mod files, the Pyomo AbstractModel, example students and
# their solutions) ships as thermomilp/_models/ (``thermomilp grade --copy-kit DIR``)
KIT_SUFFIXES = (".mod", ".py")


class BuildPyWithInstances(build_py):
    def run(self):
        super().run()
        root = Path(__file__).resolve().parent
        for folder, suffixes, name in (("instances", SUFFIXES, "_instances"),
                                       ("models", KIT_SUFFIXES, "_models")):
            source = root / folder
            if not source.is_dir():
                continue
            target = Path(self.build_lib) / "thermomilp" / name
            for path in sorted(source.rglob("*")):
                if path.is_file() and not path.is_symlink() and path.suffix in suffixes \
                        and "__pycache__" not in path.parts:
                    dest = target / path.relative_to(source)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, dest)


class OptionalBuildExt(build_ext):
    """Build the extensions; on any failure (no compiler, no ``Python.h``) warn and go on
    without them: the package then runs its pure-Python logic kernel."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - setuptools' errors differ between versions
            self._skip(exc)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            self._skip(exc)

    @staticmethod
    def _skip(exc):
        print(f"warning: the compiled logic kernel was not built ({exc}); thermomilp will "
              "use its pure-Python kernel", file=sys.stderr)


KERNEL = Extension("thermomilp.logic._kernel", ["thermomilp/logic/_kernel.c"], optional=True)

setup(cmdclass={"build_py": BuildPyWithInstances, "build_ext": OptionalBuildExt},
      ext_modules=[KERNEL])
