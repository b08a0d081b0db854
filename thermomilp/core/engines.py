"""One record per engine: what thermomilp knows about each MILP engine, in one place.

`ENGINES` holds one `EngineRecord` per [`Solver`][thermomilp.core.settings.Solver]: its label, the
modelling layers that drive it, its native names for the time limit, threads and seed
(folded into the common settings by `EngineRecord.sort_options`), the quirks the
session skeleton acts on and the **allowlist** of native options a user may set, each
with its type and range (`Option`). Nothing else reaches an engine -- not an option
that reads or writes a file, prints, ends the search early, or changes which grids are
feasible (tolerances, objective bounds, cutoffs, numerics, solution counting) -- and
the check never asks the engine's program.

The record also says, as data, how the solver matrix (`thermomilp.backends.matrix`)
finds the engine and learns that it works (`Carrier`, `ProbeRule`, `Need`); `LAYERS`
holds the same facts for PuLP and Pyomo. Every engine run outside the session
skeleton is in a record: its probe, or one of its `fixed_uses`.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Self

from thermomilp.core.errors import ConfigError
from thermomilp.core.install import pip_install

EngineOptionValue = bool | int | float | str
"""A native engine option's value (HiGHS ``mip_rel_gap=0``, CBC ``cuts=off``)."""

EngineOptions = tuple[tuple[str, EngineOptionValue], ...]


class _Choice(enum.StrEnum):
    """A closed set of names: ``str(member)`` and ``format`` give the name itself."""

    @classmethod
    def parse(cls, value: Any, what: str) -> Self:
        if isinstance(value, cls):
            return value
        try:
            if not isinstance(value, str):
                raise ValueError(value)
            return cls(value.strip().lower())
        except ValueError:
            names = ", ".join(m.value for m in cls)
            raise ConfigError(f"{what} {value!r} is unknown; choose one of {names}") from None


class Backend(_Choice):
    """The modelling layer a model is built in."""

    HIGHS = "highs"  # highspy direct, from numpy arrays
    PULP = "pulp"
    PYOMO = "pyomo"
    CPSAT = "cpsat"  # OR-Tools' CpModel: the same linear model, for the CP-SAT engine


class Solver(_Choice):
    """The MILP engine: a closed list. A name that is not a member (or an alias
    of one, [`thermomilp.core.settings.SOLVER_ALIASES`][thermomilp.core.settings.SOLVER_ALIASES]) is
    refused before any modelling layer sees it (Pyomo would look an unknown name up as a program to
    run, the working folder included)."""

    HIGHS = "highs"
    CBC = "cbc"
    GLPK = "glpk"
    SCIP = "scip"
    CPSAT = "cpsat"  # OR-Tools CP-SAT: clause learning on the same linear model


# -- the types of an allowed option ---------------------------------------------------


_TRUE = ("true", "on", "yes", "1")
_FALSE = ("false", "off", "no", "0")


@dataclass(frozen=True)
class Option:
    """An allowed native option: ``kind`` is ``flag`` (on/off), ``whole`` (an integer
    from ``low`` to ``high``), ``number`` (a real from ``low`` to ``high``) or ``word``
    (one of ``words``, written as listed)."""

    kind: str
    low: float | None = None
    high: float | None = None
    words: tuple[str, ...] = ()

    def parse(self, value: EngineOptionValue) -> EngineOptionValue:
        """The value in this option's type, or ValueError."""
        if self.kind == "flag":
            word = str(value).strip().lower() if not isinstance(value, bool) else str(value).lower()
            if word in _TRUE or word in _FALSE:
                return word in _TRUE
            raise ValueError(value)
        if self.kind == "word":
            for word in self.words:
                if isinstance(value, str) and value.strip().lower() == word.lower():
                    return word
            raise ValueError(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(value)
        number: int | float = value
        if self.kind == "whole":
            if isinstance(value, float) and not value.is_integer():
                raise ValueError(value)
            number = int(value)
        elif not math.isfinite(value):
            raise ValueError(value)
        else:
            number = float(value)
        if (self.low is not None and number < self.low) or (
                self.high is not None and number > self.high):
            raise ValueError(value)
        return number

    def accepted(self) -> str:
        """The accepted forms, for a refusal."""
        if self.kind == "flag":
            return "on or off (true/false, yes/no, 1/0)"
        if self.kind == "word":
            return "one of " + ", ".join(self.words)
        what = "a whole number" if self.kind == "whole" else "a number"
        low = "" if self.low is None else f"{self.low:g}"
        high = "" if self.high is None else f"{self.high:g}"
        if low and high:
            return f"{what} from {low} to {high}"
        return f"{what} of at least {low}" if low else f"{what} of at most {high}"

    def samples(self) -> tuple[EngineOptionValue, ...]:
        """Values at the edges and inside the range (the allowlist's fuzz test)."""
        if self.kind == "flag":
            return (True, False)
        if self.kind == "word":
            return self.words
        low = self.low if self.low is not None else -1e6
        high = self.high if self.high is not None else 1e6
        picks = [low, high, (low + high) / 2, low + (high - low) / 7]
        if self.kind == "whole":
            return tuple(sorted({int(round(v)) for v in picks}))
        return tuple(sorted({float(v) for v in picks}))


FLAG = Option("flag")


def whole(low: int, high: int) -> Option:
    return Option("whole", low, high)


def number(low: float, high: float | None = None) -> Option:
    return Option("number", low, high)


def words(*choices: str) -> Option:
    return Option("word", words=choices)


MAX_THREADS = 256
"""More engine threads than this is a typo, not a machine (HiGHS would try to start them)."""
MAX_SEED = 2**31 - 1
"""Engines take 32-bit seeds (HiGHS ``random_seed``, CBC ``randomCbcSeed``)."""
MAX_TIME_LIMIT = 10.0**7
"""About four months: anything longer is no limit (say nothing instead)."""
GAP = number(0.0, 1e6)
"""A MIP gap: only a question with an objective reads it (the rival search's, which
runs without user options); a feasibility question ends at its first grid."""


# -- how the solver matrix finds and probes an engine (data: backends/matrix.py runs it) --


@dataclass(frozen=True)
class Carrier:
    """A Python package that carries an engine's program, looked in after PATH."""

    origin: str
    """How the matrix names this place when the program there fails the probe."""
    module: str
    """The package: looked up (``find_spec``) before a board, imported by the probe."""
    path: tuple[str, ...]
    """The attributes from the imported package to the program's path; a step that
    ends in ``()`` is called: ``("cbc_bin_path()",)``."""
    marker: str | None = None
    """A folder inside the package that shows the program is there, looked up without
    importing the package; None: the package being installed is enough."""


@dataclass(frozen=True)
class ProbeRule:
    """How the solver matrix learns that an engine works here, and its version.

    An engine is installed when it *solves* the matrix's small model
    (``PROBE_LP``), whatever it prints. ``kind`` names the mechanism that runs:

    * ``package``: nothing is run; the version is that of the installed package
      ``module``, read from its metadata (a core dependency, so that the check of the
      default pair imports nothing);
    * ``program``: the record's ``program`` (at the user's ``engine_path``, else on
      PATH, else in a ``carriers`` package) runs ``argv`` on the model and must write
      the optimum to its solution file, read by the ``solution`` reader; the version
      is the first group of the first ``banner`` pattern that matches what it printed;
    * ``scip_model``, ``cp_model``: the model is solved in-process through ``module``'s
      own API (a new kind is one function in `thermomilp.backends.matrix`).
    """

    kind: str
    module: str | None = None
    """The Python library that brings the engine (looked up before a board, imported by
    the probe); None for a program."""
    argv: tuple[str, ...] = ()
    """The program's command line: ``{program}``, ``{model}`` and ``{solution}`` are
    filled in."""
    solution: str = ""
    """The reader of the solution file it writes (``coin``: CBC's ``-solution`` file;
    ``glpk``: glpsol's ``-w`` file)."""
    banner: tuple[str, ...] = ()
    """Regular expressions for the version the program prints, for display only."""
    carriers: tuple[Carrier, ...] = ()
    """Packages that carry the program, in the order they are tried after PATH."""
    missing: str = ""
    """What the matrix says when the engine is nowhere (default: the library is not
    installed)."""
    layer_reads: tuple[tuple[Backend, tuple[str, ...], str], ...] = ()
    """``(layer, argv, solution)`` for a layer that reads the program's answer its own
    way: the probe for that layer runs this ``argv`` and this reader instead, so a build
    whose answer the layer cannot read is no candidate for it."""

    def not_found(self) -> str:
        return self.missing or f"{self.module} is not installed"

    def reads_for(self, layer: Backend | None) -> tuple[tuple[str, ...], str]:
        """The ``argv`` and ``solution`` reader of the probe for ``layer``."""
        return next(((argv, solution) for reader_layer, argv, solution in self.layer_reads
                     if reader_layer is layer), (self.argv, self.solution))


@dataclass(frozen=True)
class Need:
    """A pair's own requirement beyond its layer and engine: ``name`` importable from
    ``module`` when the engine is driven by ``backend``."""

    backend: Backend
    module: str
    name: str
    why: str
    """What the matrix says when it is missing."""
    install: str
    """The command that meets it."""


@dataclass(frozen=True)
class FixedUse:
    """A question that runs one engine whatever ``--solver`` says, outside the session
    skeleton: ``question`` says which and why (`thermomilp solvers` prints it)."""

    question: str
    module: str
    """The module that runs the engine for it (tests/test_engine_records.py finds every
    engine run outside the sessions in a record)."""

    def __str__(self) -> str:
        return self.question


# -- the record ------------------------------------------------------------------------


@dataclass(frozen=True)
class EngineRecord:
    """Everything about one engine that is not code: read by the settings (the
    allowlist, the common options), the session skeleton (quirks) and the docs."""

    solver: Solver
    label: str
    default_backend: Backend
    """The layer that drives the engine when the solver is given alone (docs/solvers.md)."""
    backends: frozenset[Backend]
    """Every layer that can drive it."""
    options: Mapping[str, Option] = field(default_factory=dict)
    """The allowlist: native name -> type and range. Nothing else reaches the engine."""
    time_options: tuple[str, ...] = ()
    """Native names of the time limit in seconds: folded into ``time_limit``."""
    threads_option: str | None = None
    """Native name of the thread count: folded into ``threads``, and how it is passed."""
    seed_option: str | None = None
    """Native name of the random seed: folded into ``seed``, and how it is passed."""
    presolve_off: tuple[tuple[str, EngineOptionValue], ...] = ()
    """Native options that turn the engine's presolve off: with them the skeleton, and the
    rival search (`thermomilp.backends.highs_arrays`), retry an engine that ended in
    its own error state (HiGHS's "Solve error": benchmarks/highs_solve_error_8x8.json)."""
    second_opinion: bool = False
    """An "infeasible" of this engine is worth a re-solve in another configuration
    (presolve off, another seed) when no independent method decides: HiGHS 1.16 has
    called a feasible board infeasible (benchmarks/highs_wrong_infeasible_15x15.txt)."""
    whole_seconds: bool = False
    """The engine takes its time limit in whole seconds (glpsol ``--tmlim``)."""
    flags: str = "bool"
    """How an on/off option is written: ``bool`` (a boolean, in-process engines),
    ``on/off`` (the words ``on`` and ``off``: CBC) or ``switch`` (a bare ``--name`` for
    on, nothing for off: glpsol)."""
    aliases: tuple[tuple[Backend, tuple[str, ...]], ...] = ()
    """Other spellings of the engine (lower case), each implying the layer it is spelled
    for: PuLP's class names, Pyomo's ``SolverFactory`` names, OR-Tools' own."""
    pulp_classes: tuple[str, ...] = ()
    """PuLP solver classes taken as this engine (``solve(p, solver=pulp.HiGHS())``)."""
    program: str | None = None
    """The program a command-line engine runs (found on PATH, never in the working
    folder, or at the user's ``engine_path``); None: it runs in-process."""
    fixed_uses: tuple[FixedUse, ...] = ()
    """The questions that run this engine whatever ``--solver`` says, each with its reason:
    every other engine run goes through the session skeleton with the settings' engine
    (or is the matrix's ``probe`` of the engine)."""
    probe: ProbeRule = field(kw_only=True)
    """How the solver matrix finds the engine and learns that it works (every record says)."""
    needs: tuple[Need, ...] = ()
    """A pair's own requirements beyond its layer and engine."""
    extra: str | None = None
    """The pip extra of thermomilp that brings the engine (``cbc``: the cbcbox wheel)."""
    debian: str | None = None
    """The Debian package that brings it (its program on PATH)."""
    def install_hint(self) -> str:
        """The command(s) that install the engine, from where this copy came from."""
        ways = ([pip_install(self.extra)] if self.extra else []) + (
            [f"apt-get install {self.debian}"] if self.debian else [])
        return "  or  ".join(ways) or "reinstall thermomilp (it depends on highspy)"

    def allowed_names(self) -> tuple[str, ...]:
        """Every name a user may give: the allowlist and the common options' native names."""
        common = (*self.time_options, self.threads_option, self.seed_option)
        return tuple(sorted({*self.options, *(n for n in common if n)}))

    def sort_options(self, given: EngineOptions, source: str = ""
                     ) -> tuple[EngineOptions, dict[str, float | int]]:
        """``given`` checked against the allowlist: (the engine's own options, typed;
        the common settings among them: ``time_limit``, ``threads``, ``seed``).

        Raises:
            ConfigError: a name that is not allowed (with the allowed ones), or a value
                outside its type or range (with the accepted forms).
        """
        options: dict[str, EngineOptionValue] = {}
        common: dict[str, float | int] = {}
        for name, value in given:
            where = f" (engine_options from {source})" if source else ""
            if name in self.time_options:
                common["time_limit"] = min(_common(name, value, number(0.0, MAX_TIME_LIMIT),
                                                   self.label, where, positive=True),
                                           common.get("time_limit", math.inf))
            elif name == self.threads_option:
                common["threads"] = int(_common(name, value, whole(1, MAX_THREADS),
                                                self.label, where))
            elif name == self.seed_option:
                common["seed"] = int(_common(name, value, whole(0, MAX_SEED), self.label, where))
            elif name in self.options:
                typed = _common(name, value, self.options[name], self.label, where)
                if self.options[name].kind == "flag" and self.flags == "on/off":
                    typed = "on" if typed else "off"
                if typed is not False or self.flags != "switch":  # an off switch: unsaid
                    options[name] = typed
            else:
                raise ConfigError(
                    f"option {name} is not one thermomilp lets {self.label} take{where}; "
                    f"allowed: {', '.join(self.allowed_names())} (docs/solvers.md)")
        return tuple(sorted(options.items())), common


def _common(name: str, value: EngineOptionValue, option: Option, label: str, where: str,
            positive: bool = False) -> Any:
    try:
        parsed = option.parse(value)
        if positive and not parsed:
            raise ValueError(value)
    except ValueError:
        accepted = option.accepted() + (" (above 0)" if positive else "")
        raise ConfigError(f"option {name} = {value!r} is refused for {label}: {name} takes "
                          f"{accepted}{where}") from None
    return parsed


_PULP_PYOMO = frozenset({Backend.PULP, Backend.PYOMO})

ENGINES: dict[Solver, EngineRecord] = {
    Solver.HIGHS: EngineRecord(
        Solver.HIGHS, "HiGHS", Backend.HIGHS, frozenset({Backend.HIGHS}) | _PULP_PYOMO,
        options={
            "mip_rel_gap": GAP, "mip_abs_gap": GAP,
            "presolve": words("off", "choose", "on"),
            "mip_heuristic_effort": number(0.0, 1.0),
            "mip_detect_symmetry": FLAG,
            "parallel": words("off", "choose", "on"),
        },
        time_options=("time_limit",), threads_option="threads", seed_option="random_seed",
        presolve_off=(("presolve", "off"),), second_opinion=True,
        aliases=((Backend.PULP, ("highs_cmd",)), (Backend.PYOMO, ("appsi_highs",))),
        pulp_classes=("HiGHS", "HiGHS_CMD"),
        probe=ProbeRule("package", module="highspy"),
        fixed_uses=(
            FixedUse(
                "the generators' rival search (solving.engine.find_other): a node budget, a "
                "stop at the first improving rival and a distance objective, on the cell "
                "model as arrays, none of which the other engines take in one form "
                "(generate honours the time limit only)", "thermomilp/backends/highs_arrays.py"),
            FixedUse(
                "the autograder's copy of a student's model (solving.engine.solve_rows): a "
                "MILP given as numbers that no formulation of ours describes (grade honours "
                "the time limit on each run; a board's own solutions use every setting)",
                "thermomilp/backends/highs_arrays.py"),
            FixedUse(
                "the LP relaxation (analyze, the page's LP view: backends/relaxation.py): an "
                "LP and its vertex, not a MILP (analyze honours the time limit; its solution "
                "count uses every setting)", "thermomilp/backends/relaxation.py"))),
    Solver.CBC: EngineRecord(
        Solver.CBC, "CBC", Backend.PULP, _PULP_PYOMO,
        options={
            "ratioGap": GAP, "allowableGap": GAP,
            "cuts": words("off", "on", "root", "ifmove", "forceOn"),
            "gomoryCuts": words("off", "on", "root", "ifmove", "forceOn"),
            "probingCuts": words("off", "on", "root", "ifmove", "forceOn"),
            "heuristics": FLAG, "feasibilityPump": FLAG,
            "presolve": words("on", "off", "more"),
            "preprocess": words("off", "on", "equal", "sos", "trysos", "equalall"),
            "strongBranching": whole(0, 1000),
        },
        time_options=("sec", "seconds"), threads_option="threads",
        seed_option="randomCbcSeed", flags="on/off", extra="cbc", debian="coinor-cbc",
        program="cbc",
        probe=ProbeRule(
            "program",
            # dashed options, which every build takes (the cbcbox build reads bare words
            # such as ``solve`` as file names)
            argv=("{program}", "{model}", "-solve", "-solution", "{solution}"),
            solution="coin",
            # Debian's cbc says "Version: 2.10.8", the cbcbox wheel "CBC devel (git:...)"
            banner=(r"Version:\s*(\S+)", r"CBC\s+(devel\s*\(git:[0-9a-f]+\))"),
            carriers=(
                # the pulp[cbc] wheel (the cbc extra, PuLP 4)
                Carrier("the cbcbox wheel", "cbcbox", ("cbc_bin_path()",)),
                # PuLP 3.x only; the check before a board looks for its solverdir/cbc
                # folder without importing PuLP
                Carrier("the CBC bundled with PuLP 3", "pulp", ("PULP_CBC_CMD()", "path"),
                        marker="solverdir/cbc")),
            missing="no cbc binary found (PATH, the cbcbox wheel, PuLP 3's bundled CBC)",
            # Pyomo reads the rows of the solution file, then its columns: it asks for
            # both (-printingOptions all), which the cbcbox build ignores -- it writes the
            # columns alone, and Pyomo would read no value from it
            layer_reads=((Backend.PYOMO, ("{program}", "{model}", "-printingOptions", "all",
                                          "-solve", "-solution", "{solution}"), "coin_rows"),)),
        aliases=((Backend.PULP, ("pulp_cbc_cmd", "coin_cmd", "coin")),
                 (Backend.PYOMO, ("appsi_cbc",))),
        pulp_classes=("PULP_CBC_CMD", "COIN_CMD", "COINMP_DLL")),
    Solver.GLPK: EngineRecord(
        Solver.GLPK, "GLPK", Backend.PULP, _PULP_PYOMO,
        options={
            "mipgap": GAP, "cuts": FLAG, "gomory": FLAG, "mir": FLAG, "cover": FLAG,
            "clique": FLAG, "fpump": FLAG, "nopresol": FLAG,
        },
        time_options=("tmlim",), whole_seconds=True, flags="switch", debian="glpk-utils",
        program="glpsol",
        probe=ProbeRule(
            "program", argv=("{program}", "--lp", "{model}", "-w", "{solution}"),
            solution="glpk",
            banner=(r"GLPSOL[^\n]*?v?(\d+\.\d+(?:\.\d+)?)", r"GLPK[^\n]*?\s(\d+\.\d+(?:\.\d+)?)"),
            missing="no glpsol in an absolute folder of PATH"),
        aliases=((Backend.PULP, ("glpk_cmd", "pyglpk")),),
        pulp_classes=("GLPK_CMD", "PYGLPK")),
    Solver.SCIP: EngineRecord(
        Solver.SCIP, "SCIP", Backend.PULP, _PULP_PYOMO,
        options={
            "limits/gap": GAP, "limits/absgap": GAP,
            "presolving/maxrounds": whole(-1, 1000),
            "separating/maxrounds": whole(-1, 1000),
            "separating/maxroundsroot": whole(-1, 1000),
            "randomization/permutevars": FLAG,
            "randomization/permutationseed": whole(0, MAX_SEED),
        },
        time_options=("limits/time",), seed_option="randomization/randomseedshift",
        extra="scip", probe=ProbeRule("scip_model", module="pyscipopt"),
        needs=(Need(Backend.PYOMO, "pyomo.contrib.solver.solvers.scip.scip_persistent",
                    "ScipPersistent", "Pyomo >= 6.10 is needed for its pyscipopt interface",
                    'pip install "pyomo>=6.10"'),),
        aliases=((Backend.PULP, ("scip_cmd", "scip_py")),
                 (Backend.PYOMO, ("scip_persistent", "scip_direct"))),
        pulp_classes=("SCIP_CMD", "SCIP_PY")),
    # CP-SAT's "infeasible" is a proof by clause learning, not an LP bound: no known
    # fault to second-guess (the solve layer still confirms it independently)
    Solver.CPSAT: EngineRecord(
        Solver.CPSAT, "CP-SAT", Backend.CPSAT, frozenset({Backend.CPSAT}),
        options={
            "linearization_level": whole(0, 2),
            "cp_model_presolve": FLAG,
            "cp_model_probing_level": whole(0, 2),
            "symmetry_level": whole(0, 2),
            "randomize_search": FLAG,
        },
        time_options=("max_time_in_seconds",), threads_option="num_workers",
        seed_option="random_seed", presolve_off=(("cp_model_presolve", False),),
        extra="cpsat", aliases=((Backend.CPSAT, ("cp-sat", "cp_sat")),),
        probe=ProbeRule("cp_model", module="ortools"),
        fixed_uses=(
            FixedUse(
                "the confirmation of an engine's \"infeasible\" (solving/confirm.py), where "
                "OR-Tools is installed and the engine is not CP-SAT: a second method must "
                "not be the engine it confirms", "thermomilp/solving/confirm.py"),)),
}
"""The records, one per member of the closed list."""

assert set(ENGINES) == set(Solver), "every engine has its record"


@dataclass(frozen=True)
class LayerRecord:
    """A modelling layer's own library, where it is not the engine's (PuLP, Pyomo):
    the solver matrix checks it is installed before probing the engine behind it."""

    backend: Backend
    label: str
    module: str | None = None
    """The library (also its pip name); None: the layer is the engine's own library."""
    version: str = ""
    """Where its version is: ``module:attribute``, read by importing the module."""


LAYERS: dict[Backend, LayerRecord] = {
    Backend.HIGHS: LayerRecord(Backend.HIGHS, "highspy"),
    Backend.PULP: LayerRecord(Backend.PULP, "PuLP", "pulp", "pulp:__version__"),
    Backend.PYOMO: LayerRecord(Backend.PYOMO, "Pyomo", "pyomo", "pyomo.version:version"),
    Backend.CPSAT: LayerRecord(Backend.CPSAT, "OR-Tools"),
}
"""The layers, one per member of `Backend`."""

assert set(LAYERS) == set(Backend), "every layer has its record"

__all__ = ["Carrier", "ENGINES", "Backend", "EngineOptionValue", "EngineOptions", "EngineRecord",
           "FixedUse", "LAYERS", "LayerRecord", "MAX_SEED", "MAX_THREADS", "MAX_TIME_LIMIT",
           "Need", "Option", "ProbeRule", "Solver"]
