"""The cell formulation as plain data: sets and parameters, no solver.

Sets and parameters (docs/formulation.md, same names everywhere):

    I, J         rows, columns;  cells (i, j) in I x J
    R_i          row clue of row i        (rows with a clue only)
    C_j          column clue of column j  (columns with a clue only)
    A            precedence arcs (s, p): cell s fills only if cell p does
    E            ties (a, b): cells a and b fill together (one tank row)

Model:

    x_ij in {0, 1}                                     (0)
    sum_j x_ij = R_i           for every clued row i   (1)
    sum_i x_ij = C_j           for every clued col j   (2)
    x_s <= x_p                 for every (s, p) in A   (3)
    x_a  = x_b                 for every (a, b) in E   (4)

Arcs join each layer of a vessel to its parent layer (the next one up;
for a chain, simply the next layer) through one representative cell per
layer (the first); ties chain the cells of one layer. For a thermometer,
(3) is ``x_succ <= x_pred`` along the tube and E is empty. A pool-rule tank
is a tree of layers (docs/aquarium-model.md): one arc per child, the same
algebra.

The optional ``fixed`` map (cell -> 0/1) carries what the logic presolve
decided; every builder turns it into variable bounds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from thermomilp.core.puzzle import Cell, Puzzle


@dataclass(frozen=True)
class Formulation:
    height: int
    width: int
    row_clues: dict[int, int]
    col_clues: dict[int, int]
    arcs: tuple[tuple[Cell, Cell], ...]
    ties: tuple[tuple[Cell, Cell], ...]
    fixed: dict[Cell, int] = field(default_factory=dict)
    kind: str = "cell"

    @property
    def cells(self) -> list[Cell]:
        return [(i, j) for i in range(self.height) for j in range(self.width)]

    def index(self, cell: Cell) -> int:
        """Column index of ``x_cell`` in the row-major variable vector."""
        return cell[0] * self.width + cell[1]

    # The variable interface shared with model.compact.CompactFormulation:
    @property
    def n_vars(self) -> int:
        return self.height * self.width

    def ones_from_values(self, values) -> frozenset[Cell]:
        """Cells whose variable is (close to) 1; values are row-major."""
        return frozenset(divmod(k, self.width) for k, v in enumerate(values) if v > 0.5)

    def vars_of(self, ones: frozenset[Cell]) -> set[int]:
        """Indices of the variables that are 1 in the solution ``ones``."""
        return {self.index(cell) for cell in ones}


def formulate(puzzle: Puzzle, fixed: dict[Cell, int] | None = None) -> Formulation:
    arcs: list[tuple[Cell, Cell]] = []
    ties: list[tuple[Cell, Cell]] = []
    for vessel in puzzle.vessels:
        for layer in vessel.layers:
            ties.extend((upper, lower) for lower, upper in pairwise(layer))
        for k, lower in enumerate(vessel.layers):
            above = vessel.parent_of(k)
            if above is not None:
                arcs.append((vessel.layers[above][0], lower[0]))
    return Formulation(
        height=puzzle.height,
        width=puzzle.width,
        row_clues={i: v for i, v in enumerate(puzzle.rows) if v is not None},
        col_clues={j: v for j, v in enumerate(puzzle.cols) if v is not None},
        arcs=tuple(arcs),
        ties=tuple(ties),
        fixed=dict(fixed or {}),
    )


def cell_name(cell: Cell) -> str:
    return f"{cell[0]}_{cell[1]}"
