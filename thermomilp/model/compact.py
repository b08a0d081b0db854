"""The compact formulation: one binary per vessel layer instead of per cell.

A tank row (or a thermometer cell) fills as one piece, so it needs one
variable. Sets and parameters (docs/formulation.md):

    L            layers: the cells of one vessel at one rank (a tank row;
                 a single cell of a thermometer)
    P            chain pairs (u, l): layer u lies directly above layer l
                 in the same vessel
    n_il         cells of layer l in row i      (only rows with a clue)
    m_jl         cells of layer l in column j   (only columns with a clue)

Model:

    y_l in {0, 1}                                          (0')
    sum_l n_il y_l = R_i      for every clued row i        (1')
    sum_l m_jl y_l = C_j      for every clued column j     (2')
    y_u <= y_l                for every (u, l) in P        (3')

Written for a tank t with rows k = 1..depth_t (lowest first), (3') is
``y_{t,k+1} <= y_{t,k}``. The ties (4) of the cell model disappear: a layer
is one variable. A cell is filled iff its layer's ``y`` is 1, so the map
y -> cells is one-to-one and the sessions hand back cell sets exactly as the
cell model does (the checker verifies them).

The compact model is derived from the cell [`Formulation`][thermomilp.model.Formulation] alone:
layers are the connected components of the ties E, chains are the arcs A
between them. So it works for Thermometers too (every layer one cell, the
same size as the cell model) and for any future vessel kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from thermomilp.core.puzzle import Cell
from thermomilp.model.formulation import Formulation


@dataclass(frozen=True)
class CompactFormulation:
    height: int
    width: int
    row_clues: dict[int, int]
    col_clues: dict[int, int]
    layers: tuple[tuple[Cell, ...], ...]
    chains: tuple[tuple[int, int], ...]
    row_terms: dict[int, tuple[tuple[int, int], ...]]
    col_terms: dict[int, tuple[tuple[int, int], ...]]
    fixed: dict[int, int] = field(default_factory=dict)
    kind: str = "compact"

    @property
    def n_vars(self) -> int:
        return len(self.layers)

    def var_name(self, layer: int) -> str:
        r, c = self.layers[layer][0]
        return f"y_{r}_{c}"

    def ones_from_values(self, values) -> frozenset[Cell]:
        """The filled cells: every cell of a layer whose y is (close to) 1."""
        return frozenset(cell for layer, v in zip(self.layers, values, strict=True) if v > 0.5
                         for cell in layer)

    def vars_of(self, ones: frozenset[Cell]) -> set[int]:
        """Indices of the layers a filled-cell set switches on."""
        return {k for k, layer in enumerate(self.layers) if layer[0] in ones}


def compact_from(form: Formulation) -> CompactFormulation:
    """Group the cells of ``form`` into layers (ties) and chain them (arcs)."""
    parent: dict[Cell, Cell] = {cell: cell for cell in form.cells}

    def root(cell: Cell) -> Cell:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for a, b in form.ties:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    members: dict[Cell, list[Cell]] = {}
    for cell in form.cells:
        members.setdefault(root(cell), []).append(cell)
    layers = tuple(tuple(sorted(cells)) for _, cells in sorted(members.items()))
    layer_of = {cell: k for k, layer in enumerate(layers) for cell in layer}
    chains = tuple((layer_of[s], layer_of[p]) for s, p in form.arcs)

    def terms(clued: dict[int, int], axis: int) -> dict[int, tuple[tuple[int, int], ...]]:
        """Per clued line, (layer, its cells in the line) for every layer that meets it."""
        out = {}
        for line in clued:
            counts = ((k, sum(cell[axis] == line for cell in layer))
                      for k, layer in enumerate(layers))
            out[line] = tuple((k, n) for k, n in counts if n)
        return out

    fixed = {layer_of[cell]: value for cell, value in form.fixed.items()}
    return CompactFormulation(
        height=form.height, width=form.width,
        row_clues=dict(form.row_clues), col_clues=dict(form.col_clues),
        layers=layers, chains=chains,
        row_terms=terms(form.row_clues, 0), col_terms=terms(form.col_clues, 1),
        fixed=fixed)
