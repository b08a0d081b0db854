"""One deduction of the logic, the type every hint and explanation step has.

A `Deduction` names the rule that fired (a stable id, lower case with
underscores: ``bookkeeping``, ``line_count``, ``chained_count``, ``probe``,
``pair_probe`` for Thermometers and Aquarium; ``gravity``, ``subset_sum``
for Aquarium's own hints; the terminal ``solved``, ``stalled``,
``contradiction``, ``mistake``; ``reveal`` when the page reads a cell from
the MILP solution), the cells it decides and why. `thermomilp.logic.hints`,
`thermomilp.logic.aquarium_hints`, the explanations of ``thermomilp
explain`` and the page's hints (`thermomilp.web.hints`) all speak it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from thermomilp.core.notation import glyph
from thermomilp.core.puzzle import Cell

MISTAKE_RULES = ("contradiction", "mistake")
"""The rules that blame the marks (or the clues) instead of deciding cells."""


@dataclass(frozen=True)
class Deduction:
    """The rule, the cells it sets (cell, 1 filled / 0 empty), and why.

    ``line`` and ``vessel`` name what the rule looked at; ``levels_out`` the
    vessel levels it erased; ``wrong`` the marks to blame (a ``mistake``, or
    marks that clash). ``text`` counts rows, columns and cells from 1 (a person reads
    it); the cells in the fields and in `to_json` are 0-based indices, with the
    values in the marks notation (``#`` filled, ``.`` empty: core.notation).
    """

    rule: str
    cells: tuple[tuple[Cell, int], ...]
    text: str
    line: str | None = None
    vessel: str | None = None
    levels_out: tuple[int, ...] = ()
    wrong: tuple[Cell, ...] = ()

    @property
    def values(self) -> dict[Cell, int]:
        """The cells it sets, as a mapping cell -> 1 filled / 0 empty."""
        return dict(self.cells)

    @property
    def blames_marks(self) -> bool:
        return self.rule in MISTAKE_RULES

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "text": self.text, "line": self.line, "vessel": self.vessel,
                "levels_out": list(self.levels_out),
                "cells": [{"cell": [r, c], "value": glyph(v)}
                          for (r, c), v in self.cells],
                "wrong": [list(c) for c in self.wrong]}
