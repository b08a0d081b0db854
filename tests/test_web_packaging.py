"""An installed package carries the page, the bundled instances and ``py.typed``.

Runs setuptools' ``build_py`` (what ``pip install .`` runs to fill the wheel)
on a copy of the project and imports thermomilp from the built tree alone:
the static files must be there (package-data) and ``thermomilp/_instances``
too (the ``setup.py`` copy step), and the catalogue must come from there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT


def test_build_ships_static_files_and_instances(tmp_path):
    pytest.importorskip("setuptools")
    project = tmp_path / "project"
    project.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, project / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "thermomilp", project / "thermomilp", ignore=ignore)
    shutil.copytree(ROOT / "instances", project / "instances", ignore=ignore)
    built = tmp_path / "built"
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "-d", str(built)],
                          cwd=project, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (built / "thermomilp" / "py.typed").is_file()  # PEP 561: the package is typed
    source_modules = sorted(p.relative_to(ROOT).as_posix()
                            for p in (ROOT / "thermomilp").rglob("*.py"))
    assert sorted(p.relative_to(built).as_posix()
                  for p in (built / "thermomilp").rglob("*.py")) == source_modules  # every layer
    static = built / "thermomilp" / "web" / "static"
    assert {"index.html", "app.js", "style.css"} <= {p.name for p in static.iterdir()}
    shipped = built / "thermomilp" / "_instances"
    source = sorted(p.relative_to(ROOT / "instances").as_posix()
                    for p in (ROOT / "instances").rglob("*.txt"))
    assert sorted(p.relative_to(shipped).as_posix() for p in shipped.rglob("*.txt")) == source

    # Import thermomilp from the built tree only, from a folder without instances/.
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = ("import json; from thermomilp.web.instances import catalogue, instances_root; "
             "from thermomilp.web.server import static_files; "
             "print(json.dumps([str(instances_root()), sorted(catalogue()), "
             "sorted(static_files())]))")
    env = {**os.environ, "PYTHONPATH": str(built)}
    done = subprocess.run([sys.executable, "-c", probe], cwd=elsewhere, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    root, ids, files = json.loads(done.stdout)
    assert Path(root) == shipped.resolve()
    assert sorted(ids) == source
    assert "/" in files and "/static/app.js" in files
