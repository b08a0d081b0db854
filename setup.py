"""Build hook: ship the repository's ``instances/`` inside the package.

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


class BuildPyWithInstances(build_py):
    def run(self):
        super().run()
        source = Path(__file__).resolve().parent / "instances"
        if not source.is_dir():
            return
        target = Path(self.build_lib) / "thermomilp" / "_instances"
        for path in sorted(source.rglob("*")):
            if path.is_file() and not path.is_symlink() and path.suffix in SUFFIXES:
                dest = target / path.relative_to(source)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, dest)


setup(cmdclass={"build_py": BuildPyWithInstances})
