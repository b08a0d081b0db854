"""Formulations as one protocol, and the one registry: formulation x layer -> builder.

Every formulation of a board -- ``cell`` (`thermomilp.model.formulation`),
``compact`` (`thermomilp.model.compact`) and ``level`` (`LevelFormulation`) -- is
plain data with the same variable interface, `Formulated`, so one session class per
modelling layer serves every formulation. What each kind knows about its own
variables is in `KINDS`; the model each layer builds of each kind is in
[`MODELS`][thermomilp.model.registry.MODELS]: ``build_model``, the LP/MPS exports and
the sessions all build through it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Iterable, Iterator, Mapping, Protocol, Sequence, runtime_checkable

from thermomilp.core.errors import ConfigError
from thermomilp.core.puzzle import Cell, Puzzle
from thermomilp.core.settings import Backend, FormulationKind
from thermomilp.model.formulation import Formulation, formulate


@runtime_checkable
class Formulated(Protocol):
    """What every formulation offers the sessions: how many variables, which cells a vector
    of values fills, which variables a filled-cell set switches on (enough to read a
    solution back and to cut it off)."""

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

    @cached_property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """(vessel, level) of each variable, in variable order (made once: the builders
        name variable ``k`` by ``pairs[k]``)."""
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
    return recast(formulate(puzzle, fixed), FormulationKind.COMPACT)


def _level(puzzle: Puzzle, fixed: dict[Cell, int] | None) -> Formulated:
    if not puzzle.all_chains:
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
    """A cell [`Formulation`][thermomilp.model.Formulation] turned into ``kind`` (for callers that
    built the cell data themselves); the level formulation needs the puzzle."""
    kind = FormulationKind.parse(kind, "formulation")
    if kind_of(form) is kind:
        return form
    if kind is FormulationKind.COMPACT and isinstance(form, Formulation):
        from thermomilp.model.compact import compact_from  # loaded when used: start-up

        return compact_from(form)
    raise ConfigError(f"cannot turn the {form.kind} formulation into the {kind} one; "
                      "build it from the puzzle (model.registry.formulation_for)")


def kind_of(form: Formulated) -> FormulationKind:
    return FormulationKind.parse(form.kind, "formulation")


# -- what each kind knows about its variables --------------------------------------


def _cell_free(form: Any) -> frozenset[int]:
    touched = {cell for pair in form.arcs + form.ties for cell in pair}
    touched.update(cell for cell in form.cells
                   if cell[0] in form.row_clues or cell[1] in form.col_clues)
    return frozenset(form.index(cell) for cell in form.cells if cell not in touched)


def _compact_free(form: Any) -> frozenset[int]:
    touched = {k for chain in form.chains for k in chain}
    for terms in (*form.row_terms.values(), *form.col_terms.values()):
        touched.update(k for k, _ in terms)
    return frozenset(range(form.n_vars)) - touched


def _no_cut(form: Any, over: frozenset[Cell]) -> list[int]:
    raise ConfigError("a cut over a subset of cells needs the cell or compact formulation")


@dataclass(frozen=True)
class Kind:
    """What one kind of formulation knows about its variables.

    ``free``: the variables in no row (before any cut); ``fixed_value``: the value
    the logic fixed a variable at (0 when not fixed); ``cut_columns``: the variables
    a no-good cut over some cells runs over; ``var_name``: variable k's name; ``keys``:
    the keys of [`BuiltModel.x`][thermomilp.model.BuiltModel], variable k's k-th (the
    cells row-major, the layer indices, the (vessel, level) pairs)."""

    free: Callable[[Any], frozenset[int]]
    fixed_value: Callable[[Any, int], int]
    cut_columns: Callable[[Any, frozenset[Cell]], list[int]]
    var_name: Callable[[Any, int], str]
    keys: Callable[[Any], Sequence[Any]]


KINDS: dict[FormulationKind, Kind] = {
    FormulationKind.CELL: Kind(_cell_free, lambda form, k: form.fixed.get(divmod(k, form.width), 0),
                               lambda form, over: sorted(form.vars_of(over)),
                               lambda form, k: "x_{}_{}".format(*divmod(k, form.width)),
                               lambda form: form.cells),
    FormulationKind.COMPACT: Kind(_compact_free, lambda form, k: form.fixed.get(k, 0),
                                  lambda form, over: [k for k, layer in enumerate(form.layers)
                                                      if any(c in over for c in layer)],
                                  lambda form, k: form.var_name(k),
                                  lambda form: range(form.n_vars)),
    FormulationKind.LEVEL: Kind(lambda form: frozenset(),  # every z is in its (L1) row
                                lambda form, k: 0, _no_cut,
                                lambda form, k: "z_{}_{}".format(*form.pairs[k]),
                                lambda form: form.pairs),
}


def kind_info(form: Formulated) -> Kind:
    return KINDS[kind_of(form)]


# -- formulation x layer -> the model ------------------------------------------------


@dataclass(frozen=True)
class BuiltModel:
    """A layer's model of one formulation, with its variable map.

    ``model`` is the layer's own object (a PuLP ``LpProblem``, a Pyomo
    ``ConcreteModel``, a ``highspy.Highs``, an OR-Tools ``CpModel``); ``x`` maps the
    formulation's names to the layer's variables (cell -> variable for the cell
    formulation, layer index for the compact one, (vessel, level) for the level one;
    a column index on highspy); ``variables`` holds the same variables in the formulation's order
    (variable k of `Formulated`). It unpacks as ``model, x``."""

    model: Any
    x: Mapping[Any, Any]
    variables: tuple[Any, ...]
    form: Any = field(repr=False, compare=False)

    def __iter__(self) -> Iterator[Any]:
        return iter((self.model, self.x))


LayerBuilder = Callable[[Any, "BuildOptions"], BuiltModel]


@dataclass(frozen=True)
class BuildOptions:
    """How to build: the model's name (PuLP), row names (highspy), the engine log."""

    name: str | None = None
    names: bool = True
    verbose: bool = False


def _built(model: Any, form: Any, variables: Iterable[Any]) -> BuiltModel:
    """``model`` with its ``variables`` in the formulation's order (each builder reads them
    out by the formulation's own keys, never by the order it made them in), keyed by the
    kind's keys."""
    in_order = tuple(variables)
    return BuiltModel(model, dict(zip(kind_info(form).keys(form), in_order, strict=True)),
                      in_order, form)


def _cell_pulp(form: Any, opt: BuildOptions) -> BuiltModel:
    from thermomilp.model.pulp_model import build_pulp

    prob, x = build_pulp(form, **({"name": opt.name} if opt.name else {}))
    return _built(prob, form, (x[cell] for cell in form.cells))


def _compact_pulp(form: Any, opt: BuildOptions) -> BuiltModel:
    from thermomilp.model.pulp_model import build_pulp_compact

    prob, y = build_pulp_compact(form, **({"name": opt.name} if opt.name else {}))
    return _built(prob, form, (y[k] for k in range(form.n_vars)))


def _level_pulp(form: Any, opt: BuildOptions) -> BuiltModel:
    from thermomilp.model.level_pulp import build_level_pulp

    prob, z, x = build_level_pulp(form.puzzle, **({"name": opt.name} if opt.name else {}))
    for cell, value in sorted(form.fixed.items()):  # (L2): a fixed cell bounds its expression
        prob += x[cell] == value, f"fixed_{cell[0]}_{cell[1]}"
    return _built(prob, form, (z[pair] for pair in form.pairs))


def _cell_pyomo(form: Any, opt: BuildOptions) -> BuiltModel:
    from thermomilp.model.pyomo_model import build_pyomo

    m = build_pyomo(form)
    return _built(m, form, (m.x[cell] for cell in form.cells))


def _compact_pyomo(form: Any, opt: BuildOptions) -> BuiltModel:
    from thermomilp.model.pyomo_model import build_pyomo_compact

    m = build_pyomo_compact(form)
    return _built(m, form, (m.y[k] for k in range(form.n_vars)))


def _level_pyomo(form: Any, opt: BuildOptions) -> BuiltModel:
    import pyomo.environ as pyo

    from thermomilp.model.level_pyomo import build_level_pyomo

    m = build_level_pyomo(form.puzzle)
    if form.fixed:
        m.fixed_cells = pyo.ConstraintList()
        for cell, value in sorted(form.fixed.items()):
            m.fixed_cells.add(m.x[cell] == value)
    return _built(m, form, (m.z[pair] for pair in form.pairs))


def _highs(form: Any, opt: BuildOptions) -> BuiltModel:
    """Any formulation in highspy: variable k is column k."""
    from thermomilp.model.highs_model import build_highs, build_highs_compact
    from thermomilp.model.level_highs import build_highs_level

    build_kind = {FormulationKind.CELL: build_highs, FormulationKind.COMPACT: build_highs_compact,
                  FormulationKind.LEVEL: build_highs_level}[kind_of(form)]
    h = build_kind(form, names=opt.names, verbose=opt.verbose)
    return _built(h, form, range(form.n_vars))


def _cpsat(form: Any, opt: BuildOptions) -> BuiltModel:
    """Any formulation in OR-Tools' ``CpModel``."""
    from thermomilp.model.cpsat_model import build_cpsat, build_cpsat_compact, build_cpsat_level

    build_kind = {FormulationKind.CELL: build_cpsat, FormulationKind.COMPACT: build_cpsat_compact,
                  FormulationKind.LEVEL: build_cpsat_level}[kind_of(form)]
    model, variables = build_kind(form)
    return _built(model, form, variables)


MODELS: dict[tuple[FormulationKind, Backend], LayerBuilder] = {
    (FormulationKind.CELL, Backend.PULP): _cell_pulp,
    (FormulationKind.CELL, Backend.PYOMO): _cell_pyomo,
    (FormulationKind.COMPACT, Backend.PULP): _compact_pulp,
    (FormulationKind.COMPACT, Backend.PYOMO): _compact_pyomo,
    (FormulationKind.LEVEL, Backend.PULP): _level_pulp,
    (FormulationKind.LEVEL, Backend.PYOMO): _level_pyomo,
    **{(kind, Backend.HIGHS): _highs for kind in FormulationKind},
    **{(kind, Backend.CPSAT): _cpsat for kind in FormulationKind},
}
"""(formulation, modelling layer) -> the builder of that layer's model: the one
dispatcher of ``build_model``, the exports and the sessions."""


def build(form: Formulated, backend: Backend | str,
          options: BuildOptions = BuildOptions()) -> BuiltModel:
    """``form`` built by the modelling layer ``backend`` (a ConfigError for a name
    outside the closed lists)."""
    layer = Backend.parse(backend, "backend")
    return MODELS[kind_of(form), layer](form, options)


__all__ = ["BuildOptions", "BuiltModel", "FORMULATIONS", "Formulated", "KINDS", "Kind",
           "LevelFormulation", "MODELS", "build", "formulation_for", "kind_info", "kind_of",
           "recast"]
