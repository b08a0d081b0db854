"""Where a command-line engine's program is: never the working folder.

Every engine that runs as a program (``cbc``, ``glpsol``) is looked for with
this module and nowhere else: the solver matrix probes the program it finds
(`thermomilp.backends.matrix.program_path`, in the places its record names), and
the PuLP and Pyomo sessions hand that path to the layer (``COIN_CMD(path=...)``,
``GLPK_CMD(path=...)``, ``SolverFactory(name, executable=...)``). A layer left to
itself looks further: Pyomo's ``pyomo.common.fileutils`` tries the current folder
before PATH, and ``shutil.which`` takes an empty or relative PATH entry as the
current folder. A puzzle folder holding a script named ``glpsol`` would then be run.

The order (`thermomilp.backends.matrix.program_candidates`): the user's
``engine_path``, else PATH's absolute folders (`on_path`), else a package that
carries the program (`absolute_executable`), else nothing.
"""

from __future__ import annotations

import os

from thermomilp.core.engines import ENGINES
from thermomilp.core.settings import Solver

PROGRAMS: dict[Solver, str] = {
    solver: record.program for solver, record in ENGINES.items() if record.program}
"""The program each command-line engine runs (its record's ``program``; the others run
in-process)."""


def _runnable(path: str) -> bool:
    return os.path.isabs(path) and os.path.isfile(path) and os.access(path, os.X_OK)


def on_path(program: str) -> str | None:
    """``program`` in an absolute folder of PATH, or None; empty and relative
    entries (both mean the working folder) are skipped."""
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        if not folder or not os.path.isabs(folder):
            continue
        candidate = os.path.join(folder, program)
        if _runnable(candidate):
            return candidate
    return None


def absolute_executable(path: str | None) -> str | None:
    """``path`` if it is an absolute path of an executable file, else None (a path a
    library reports -- a wheel's bundled binary -- is used only when absolute)."""
    return path if path and _runnable(path) else None


__all__ = ["PROGRAMS", "absolute_executable", "on_path"]
