"""Which kernel runs the interval propagation and the probing: compiled or Python.

The hot loops of the logic -- the interval line revision to its fixpoint
(`thermomilp.logic.intervals.propagate_conflict`) and the probe / shave /
witness sweep (`thermomilp.logic.probing.probe_fixpoint`) -- have two
implementations with the same answers:

* ``"python"``: the reference, in ``intervals.py`` and ``probing.py``
  (``reference_propagate_conflict``, ``reference_probe_fixpoint``);
* ``"compiled"``: ``thermomilp/logic/_kernel.c``, an optional C extension
  (``setup.py`` builds it when a compiler is at hand), the same algorithms step for
  step on flat integer arrays built once per board (`board`): the same
  domains, contradictions, line revisions and calls to ``stop`` -- the work ticks of
  `thermomilp.logic.budget.Work` -- so the same decisions, faster
  (docs/performance.md). ``tests/test_logic_kernel.py`` checks the two agree.

`KERNEL` is chosen once, here: ``"compiled"`` when the extension imports,
unless the environment variable ``THERMOMILP_KERNEL=python`` forces the reference.
A board with a vessel of more than `MAX_DEPTH` levels (a domain wider than a
64-bit word) always runs the reference.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

from thermomilp.core.deadline import TimeUp
from thermomilp.logic.domains import LineTables

ENV = "THERMOMILP_KERNEL"
MAX_DEPTH = 63
"""The deepest vessel the compiled kernel takes: its domains are 64-bit words."""


def _load() -> tuple[ModuleType | None, str, str]:
    """The extension (or None), the kernel's name and why."""
    wanted = os.environ.get(ENV, "").strip().lower()
    if wanted == "python":
        return None, "python", f"{ENV}=python"
    try:
        module = importlib.import_module("thermomilp.logic._kernel")
    except ImportError:
        return None, "python", "the C extension is not built"
    return module, "compiled", "C extension thermomilp.logic._kernel"


_compiled, KERNEL, REASON = _load()
"""``KERNEL``: ``"compiled"`` or ``"python"``; ``REASON``: why, in a few words."""

_KEY = "_kernel_board"  # where a LineTables keeps its compiled Board (or None); not pickled


def describe() -> str:
    """One line for ``thermomilp solvers``: the kernel that runs and why."""
    return f"{KERNEL} ({REASON})"


def available() -> bool:
    """Whether the compiled extension is loaded (not when ``THERMOMILP_KERNEL=python``:
    then it is not even imported); `KERNEL` may still be set to "python"."""
    return _compiled is not None


def board(tables: LineTables) -> Any:
    """The compiled kernel's arrays of this board (built once, kept on ``tables``), or
    None: the Python kernel runs (`KERNEL` is ``"python"``, or a vessel is deeper
    than `MAX_DEPTH`)."""
    if KERNEL != "compiled":
        return None
    kept = tables.__dict__.get(_KEY, _KEY)
    if kept is _KEY:
        kept = compile_board(tables)
        object.__setattr__(tables, _KEY, kept)  # a frozen dataclass: its own cache slot
    return kept


def compile_board(tables: LineTables) -> Any:
    """A new compiled Board of ``tables`` (None when the extension is missing or a vessel
    is deeper than `MAX_DEPTH`), whatever `KERNEL` says: the tests compare
    it with the reference."""
    if _compiled is None or any(d > MAX_DEPTH for d in tables.depths):
        return None
    line_start: list[int] = [0]
    entry_vessel: list[int] = []
    flat: list[int] = []
    for vessels, tabs in zip(tables.line_vessels, tables.line_tables, strict=True):
        for v, tab in zip(vessels, tabs, strict=True):
            entry_vessel.append(v)
            flat.extend(tab)
        line_start.append(len(entry_vessel))
    vessel_start: list[int] = [0]
    vessel_lines: list[int] = []
    for lines in tables.vessel_lines:
        vessel_lines.extend(lines)
        vessel_start.append(len(vessel_lines))
    return _compiled.Board(
        depths=list(tables.depths),
        clues=[0 if clue is None else clue for clue in tables.clues],
        clued=[clue is not None for clue in tables.clues],
        line_start=line_start, entry_vessel=entry_vessel, tables=flat,
        vessel_start=vessel_start, vessel_lines=vessel_lines, time_up=TimeUp)


def revisions() -> int:
    """Line revisions the compiled kernel made in this process (0 without it)."""
    return 0 if _compiled is None else int(_compiled.revisions())
