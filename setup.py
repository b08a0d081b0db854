"""Build hook: ship the repository's ``instances/`` and ``models/`` inside the package.

All metadata lives in ``pyproject.toml``. This file only extends
``build_py`` so that a plain ``pip install .`` copies the bundled puzzles
(``instances/**/*.txt`` and ``*.json``) to ``thermomilp/_instances/``, where
``thermomilp serve`` finds them (see ``thermomilp/web/instances.py``). The
repository keeps one copy at its root; nothing is duplicated in git.
"""

from pathlib import Path
import shutil

from setuptools import setup
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


setup(cmdclass={"build_py": BuildPyWithInstances})
