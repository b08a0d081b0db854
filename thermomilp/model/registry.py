"""Formulations as one protocol, and the registry that builds each one.

Every formulation of a board -- ``cell`` (:mod:`thermomilp.model.formulation`),
``compact`` (:mod:`thermomilp.model.compact`) and ``level``
(:class:`LevelFormulation`, built by :mod:`thermomilp.model.level_pulp` /
:mod:`thermomilp.model.level_pyomo` / :mod:`thermomilp.model.level_highs`)
-- is plain data with the same variable interface, :class:`Formulated`:
how many variables, which cells a vector of values fills, which variables
a filled-cell set switches on. That is all a session needs to read a
solution back and to write the no-good cut of it, so one session class per
modelling layer serves every formulation; the registry of sessions is
:data:`thermomilp.backends.SESSIONS`, keyed by (formulation, modelling layer).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol, runtime_checkable

from thermomilp.core.puzzle import Cell, Puzzle
from thermomilp.core.settings import FormulationKind
from thermomilp.model.formulation import Formulation, formulate


@runtime_checkable
class Formulated(Protocol):
    """What every formulation offers the sessions."""

    @property
    def kind(self) -> str: ...

    @property
    def height(self) -> int: ...

    @property
    def width(self) -> int: ...

    @property
    def n_vars(self) -> int: ...

    def ones_from_values(self, values) -> frozenset[Cell]: ...

    def vars_of(self, ones: frozenset[Cell]) -> set[int]: ...


@dataclass(frozen=True)
class LevelFormulation:
    """The level formulation (L0)-(L4): variable ``k`` is ``z_{v,l}`` for the
    pairs (vessel, level) in vessel order, levels 0..depth. ``fixed`` (cell ->
    0/1) becomes bounds on the cell expressions (L2)."""

    puzzle: Puzzle
    fixed: dict[Cell, int] = field(default_factory=dict)
    kind: str = "level"

    @property
    def height(self) -> int:
        return self.puzzle.height

    @property
    def width(self) -> int:
        return self.puzzle.width

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        return tuple((v, k) for v, vessel in enumerate(self.puzzle.vessels)
                     for k in range(vessel.depth + 1))

    @property
    def n_vars(self) -> int:
        return sum(vessel.depth + 1 for vessel in self.puzzle.vessels)

    def ones_from_values(self, values) -> frozenset[Cell]:
        """Each vessel at its chosen level (the z closest to 1)."""
        ones: set[Cell] = set()
        k = 0
        for vessel in self.puzzle.vessels:
            block = [float(values[k + level]) for level in range(vessel.depth + 1)]
            ones.update(vessel.filled_cells(max(range(len(block)), key=block.__getitem__)))
            k += vessel.depth + 1
        return frozenset(ones)

    def vars_of(self, ones: frozenset[Cell]) -> set[int]:
        """The one z per vessel that the filled cells ``ones`` switch on."""
        on: set[int] = set()
        k = 0
        for vessel in self.puzzle.vessels:
            level = sum(1 for layer in vessel.layers if layer[0] in ones)
            on.add(k + level)
            k += vessel.depth + 1
        return on


Builder = Callable[[Puzzle, "dict[Cell, int] | None"], Formulated]


def _compact(puzzle: Puzzle, fixed: dict[Cell, int] | None) -> Formulated:
    from thermomilp.model.compact import compact_from

    return compact_from(formulate(puzzle, fixed))


def _level(puzzle: Puzzle, fixed: dict[Cell, int] | None) -> Formulated:
    if not puzzle.all_chains:
        from thermomilp.core.errors import ConfigError

        raise ConfigError("the level formulation needs one level per vessel; a pool-rule "
                          "tank has none (use --formulation cell or compact)")
    return LevelFormulation(puzzle, dict(fixed or {}))


FORMULATIONS: dict[FormulationKind, Builder] = {
    FormulationKind.CELL: formulate,
    FormulationKind.COMPACT: _compact,
    FormulationKind.LEVEL: _level,
}


def formulation_for(puzzle: Puzzle, kind: FormulationKind | str = FormulationKind.CELL,
                    fixed: dict[Cell, int] | None = None) -> Formulated:
    """The data of ``kind``'s formulation of ``puzzle`` (cells in ``fixed`` bounded)."""
    return FORMULATIONS[FormulationKind.parse(kind, "formulation")](puzzle, fixed)


def recast(form: Formulated, kind: FormulationKind | str) -> Formulated:
    """A cell :class:`Formulation` turned into ``kind`` (for callers that built
    the cell data themselves); the level formulation needs the puzzle."""
    kind = FormulationKind.parse(kind, "formulation")
    if form.kind == kind:
        return form
    if kind is FormulationKind.COMPACT and isinstance(form, Formulation):
        from thermomilp.model.compact import compact_from

        return compact_from(form)
    from thermomilp.core.errors import ConfigError

    raise ConfigError(f"cannot turn the {form.kind} formulation into the {kind} one; "
                      "build it from the puzzle (model.registry.formulation_for)")


__all__ = ["FORMULATIONS", "Formulated", "LevelFormulation", "formulation_for", "recast"]
