"""The solver matrix: which (modelling layer, engine) pairs exist, which are installed.

A *pair* is ``(backend, solver)``: the modelling layer and the engine it hands the
model to. The pairs we wire and test are `KNOWN_PAIRS`, read from
[`thermomilp.core.settings.DRIVES`][thermomilp.core.settings.DRIVES] (docs/solvers.md draws
the table).

An engine is installed when it *solves* a small model (``PROBE_LP``),
found wherever users put it: PuLP 3's bundled CBC, the ``cbcbox`` wheel of
``pulp[cbc]``, Debian's ``cbc`` and ``glpsol`` (on PATH, absolute folders only:
`thermomilp.backends.executables`; or at the ``engine_path`` the user
named), SCIP through PySCIPOpt, CP-SAT through OR-Tools.
Versions are read from what the engine prints, for display only. Each probe
runs once per process. Each missing pair comes with the exact command that installs it.

Where an engine is looked for, how it is probed and installed, and what a pair
needs besides are its record's (`thermomilp.core.engines.ENGINES`: ``probe``,
``program``, ``needs``, the install hint; a layer's library: ``LAYERS``). This
module holds no table of engines: it runs the one mechanism of each probe kind
the records name (a program on ``PROBE_LP`` and its solution file, a package's
metadata, an in-process solve).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from thermomilp.backends.executables import (
    PROGRAMS,
    absolute_executable,
    on_path,
)
from thermomilp.core.engines import ENGINES, LAYERS, Carrier, Need
from thermomilp.core.errors import ConfigError, SolverUnavailable
from thermomilp.core.settings import DRIVES, Backend, Settings, Solver

KNOWN_PAIRS: tuple[tuple[Backend, Solver], ...] = tuple(
    (layer, engine) for layer in Backend for engine in Solver if engine in DRIVES[layer])
"""Every pair we wire and test: highspy drives HiGHS, PuLP and Pyomo drive every MILP
engine, OR-Tools' model drives CP-SAT."""


@dataclass(frozen=True)
class PairInfo:
    """One row of the matrix: is the pair usable here, which engine version, how to get it."""

    backend: str
    solver: str
    available: bool
    version: str | None = None
    install: str | None = None
    detail: str = ""

    def to_json(self) -> dict:
        return {"backend": self.backend, "solver": self.solver, "available": self.available,
                "version": self.version, "install": None if self.available else self.install,
                "detail": self.detail}


# A program probe must report PROBE_LP's only optimum; no banner decides anything. The
# model is decided by bound tightening alone, as a board whose cells the logic fixed is:
# a build that writes such an answer in another form (the cbcbox CBC leaves out the rows
# Pyomo reads first) fails here.

PROBE_LP = """\\ thermomilp engine probe: the only optimum is a = 0, b = 1 (and c = 1)
Minimize
 obj: a
Subject To
 one: a + b = 1
 two: b + c = 2
Binaries
 a
 b
 c
End
"""


@dataclass(frozen=True)
class Probe:
    """What probing one engine found: does it solve, which version it names, why not."""

    works: bool
    version: str | None = None
    detail: str = ""
    present: bool = False
    """A program was found but did not solve the test model: installing it again is not
    the answer (the hint says so instead of an install command)."""


def _solve_probe(argv: list[str], read_solution: Callable[[str], dict[str, float] | None],
                 model: str, solution: str) -> tuple[bool, str, str]:
    """Run ``argv`` (a program on PROBE_LP, written to ``model`` in a scratch folder, its
    answer in ``solution``): (solved right, its output, why not)."""
    tmp = os.path.dirname(model)
    with open(model, "w", encoding="ascii") as handle:
        handle.write(PROBE_LP)
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=30,
                             stdin=subprocess.DEVNULL, cwd=tmp, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return False, "", f"could not run it: {exc}"
    said = out.stdout + out.stderr
    try:
        with open(solution, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return False, said, f"it wrote no solution (exit code {out.returncode})"
    if read_solution(text) != {"a": 0.0, "b": 1.0}:
        return False, said, "it did not solve a small test model correctly"
    return True, said, ""


def _coin_solution(text: str) -> dict[str, float] | None:
    """CBC's ``-solution`` file: ``Optimal - objective value 0`` then ``index name value ...``."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("Optimal"):
        return None
    values = {"a": 0.0, "b": 0.0}  # CBC lists only the non-zero columns by default
    for line in lines[1:]:
        parts = line.split()
        if len(parts) >= 3 and parts[1] in values:
            values[parts[1]] = round(float(parts[2]), 6)
    return values


def _coin_rows_solution(text: str) -> dict[str, float] | None:
    """CBC's ``-solution`` file under ``-printingOptions all``, as Pyomo reads it: every
    row from index 0, then every column from index 0 again."""
    lines = text.splitlines()
    starts = [k for k, line in enumerate(lines) if line.split()[:1] == ["0"]]
    if len(starts) != 2:
        return None
    return _coin_solution("\n".join([lines[0], *lines[starts[1]:]]))


def _glpk_solution(text: str) -> dict[str, float] | None:
    """glpsol's ``-w`` file: ``s mip ROWS COLS o OBJ`` (o = optimal), ``j COL VALUE``."""
    values: dict[str, float] = {}
    optimal = False
    for line in text.splitlines():
        parts = line.split()
        if parts[:2] == ["s", "mip"] and len(parts) >= 5:
            optimal = parts[4] == "o"
        elif parts[:1] == ["j"] and len(parts) >= 3 and parts[1] in ("1", "2"):
            values["ab"[int(parts[1]) - 1]] = round(float(parts[2]), 6)
    return values if optimal else None


SOLUTION_READERS: dict[str, Callable[[str], dict[str, float] | None]] = {
    "coin": _coin_solution, "coin_rows": _coin_rows_solution, "glpk": _glpk_solution}
"""The solution-file readers a record's ``ProbeRule.solution`` names."""


def _banner_version(patterns: tuple[str, ...], text: str) -> str | None:
    """The version an engine names in its output, for display only."""
    for pattern in patterns:
        match = re.search(pattern, text)
        if match:
            return match.group(1)
    return None


def _spec(name: str) -> Any:
    """Where module ``name`` is (`importlib.util.find_spec`, nothing imported), or None."""
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


def _has_module(name: str) -> bool:
    """Is ``name`` importable? Looked up, not imported."""
    return _spec(name) is not None


@functools.lru_cache(maxsize=None)
def package_version(name: str) -> str | None:
    """The version of installed package ``name``, read from its wheel's dist-info folder
    without importing it or importlib.metadata (docs/journal.md: its start-up cost)."""
    spec = _spec(name)
    if spec is None:
        return None
    for folder in spec.submodule_search_locations or ():
        parent = os.path.dirname(folder)
        try:
            names = os.listdir(parent)
        except OSError:
            continue
        found = [n[len(name) + 1:-len(".dist-info")] for n in names
                 if n.startswith(f"{name}-") and n.endswith(".dist-info")]
        if len(found) == 1:
            return found[0]
    import importlib.metadata

    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _carried(carrier: Carrier) -> str | None:
    """The program a package carries, at an absolute path, or None."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found = importlib.import_module(carrier.module)
            for step in carrier.path:
                found = getattr(found, step.removesuffix("()"))
                if step.endswith("()"):
                    found = found()
        return absolute_executable(os.fspath(found))
    except Exception:  # noqa: BLE001 - any failure just means "not this way"
        return None


def program_candidates(engine: Solver, explicit: str | None = None) -> list[tuple[str, str]]:
    """Every binary of a command-line engine this machine offers, as (absolute path,
    where it came from), in order: the ``explicit`` path the user named alone, else the
    program on PATH (absolute folders only), then each package of the record's
    ``carriers`` (CBC: the cbcbox wheel, PuLP 3's bundled binary)."""
    if explicit:
        return [(explicit, "engine_path")]
    record = ENGINES[engine]
    found = [(on_path(record.program) if record.program else None, f"{record.program} on PATH")]
    found += [(_carried(carrier), carrier.origin) for carrier in record.probe.carriers]
    first: dict[str, tuple[str, str]] = {}
    for path, origin in found:  # Debian's cbc may also be what some wheel points to
        if path:
            first.setdefault(os.path.realpath(path), (path, origin))
    return list(first.values())


def _program_probe(engine: Solver, explicit: str | None,
                   layer: Backend | None) -> tuple[str | None, Probe]:
    """The first candidate binary that solves the probe model as ``layer`` reads it (the
    record's ``reads_for``), and what probing found."""
    import tempfile

    record = ENGINES[engine]
    rule = record.probe
    words, reader = rule.reads_for(layer)
    tried = []
    for path, origin in program_candidates(engine, explicit):
        with tempfile.TemporaryDirectory(prefix="thermomilp-probe-") as tmp:
            model, solution = os.path.join(tmp, "probe.lp"), os.path.join(tmp, "probe.sol")
            argv = [word.format(program=path, model=model, solution=solution)
                    for word in words]
            ok, said, why = _solve_probe(argv, SOLUTION_READERS[reader], model, solution)
        if not ok and reader != rule.solution:
            why += f", read as the {layer} layer reads it"
        if ok:
            return path, Probe(True, _banner_version(rule.banner, said) or "?")
        tried.append((path, origin, why))
    if not tried:
        return None, Probe(False, None, rule.not_found())
    if not rule.carriers:  # one place to look: the one program it found
        path, _, why = tried[0]
        return None, Probe(False, None, f"{path}: {why}", present=True)
    return None, Probe(False, None, f"no {record.program} binary solved the test model: "
                       + "; ".join(f"{path} ({origin}): {why}" for path, origin, why in tried),
                       present=True)


def _package_probe(engine: Solver) -> Probe:
    """A core dependency: its version, read from its package metadata, nothing run."""
    rule = ENGINES[engine].probe
    version = package_version(rule.module or "")
    return Probe(version is not None, version, "" if version else rule.not_found())


def _scip_model_probe(engine: Solver) -> Probe:
    """PySCIPOpt solves the probe model in-process."""
    rule = ENGINES[engine].probe
    try:
        import pyscipopt
    except ImportError:
        return Probe(False, None, rule.not_found())
    try:
        model = pyscipopt.Model()
        model.hideOutput()
        a, b = model.addVar("a", vtype="B"), model.addVar("b", vtype="B")
        model.addCons(a + b == 1)
        model.setObjective(a, "minimize")
        model.optimize()
        if model.getStatus() != "optimal" or round(model.getVal(b)) != 1:
            return Probe(False, None, f"{rule.module} did not solve a two-variable test model")
    except Exception as exc:  # noqa: BLE001 - a broken wheel is "not installed"
        return Probe(False, None, f"{rule.module} failed on a test model: {exc}")
    try:
        version = (f"{model.getMajorVersion()}.{model.getMinorVersion()}."
                   f"{model.getTechVersion()} (pyscipopt {pyscipopt.__version__})")
    except Exception:  # noqa: BLE001 - older pyscipopt without the getters
        version = f"pyscipopt {pyscipopt.__version__}"
    return Probe(True, version)


def _cp_model_probe(engine: Solver) -> Probe:
    """CP-SAT (OR-Tools) solves the probe model in-process, on one worker."""
    try:
        import ortools
    except ImportError:
        return Probe(False, None, ENGINES[engine].probe.not_found())
    version = str(getattr(ortools, "__version__", "?"))
    label = ENGINES[engine].label
    try:
        from ortools.sat.python import cp_model

        model = cp_model.CpModel()
        a, b = model.new_bool_var("a"), model.new_bool_var("b")
        model.add(a + b == 1)
        model.minimize(a)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if solver.solve(model) != cp_model.OPTIMAL or solver.value(b) != 1:
            return Probe(False, None, f"{label} did not solve a two-variable test model",
                         present=True)
    except Exception as exc:  # noqa: BLE001 - a broken wheel is "not working"
        return Probe(False, None, f"{label} failed on a test model: {exc}", present=True)
    return Probe(True, f"OR-Tools {version}")


IN_PROCESS_PROBES: dict[str, Callable[[Solver], Probe]] = {
    "package": _package_probe, "scip_model": _scip_model_probe, "cp_model": _cp_model_probe}
"""The probe kinds a record's ``ProbeRule.kind`` names, besides ``program``."""


@functools.lru_cache(maxsize=None)
def probe_engine(engine: Solver, explicit: str | None = None,
                 layer: Backend | None = None) -> tuple[str | None, Probe]:
    """(the program that solved the probe model -- None for an engine that runs inside
    Python --, what probing found), as the engine's record says: at the ``explicit``
    path the user named, where the engine is a program, its answer read as ``layer``
    reads it. A version exactly when it solved the test model."""
    engine = Solver(engine)
    rule = ENGINES[engine].probe
    if layer is not None and rule.reads_for(layer) == rule.reads_for(None):
        return probe_engine(engine, explicit)  # every layer reads it alike: one probe
    if rule.kind == "program":
        return _program_probe(engine, explicit, layer)
    return None, IN_PROCESS_PROBES[rule.kind](engine)


def program_path(engine: Solver, settings: Settings | None = None) -> str | None:
    """The binary of a command-line engine PuLP and Pyomo run: the settings'
    ``engine_path`` when the user named one, else the first candidate
    (`program_candidates`) that solves the probe as the settings' layer reads it."""
    explicit = settings.engine_path if settings is not None else None
    return explicit or probe_engine(engine, None, settings.backend if settings else None)[0]


def require_program(settings: Settings, missing: str) -> str:
    """`program_path` of the settings' engine, the one binary PuLP and Pyomo run, or
    [`SolverUnavailable`][thermomilp.core.errors.SolverUnavailable] saying ``missing``."""
    path = program_path(settings.solver, settings)
    if path is None:
        raise SolverUnavailable(missing)
    return path


@functools.lru_cache(maxsize=None)
def layer_version(layer: Backend) -> str | None:
    """The version of a modelling layer's own library (PuLP, Pyomo), None when it is not
    installed or the layer is the engine's own library."""
    record = LAYERS[layer]
    if record.module is None:
        return None
    module, attribute = record.version.split(":")
    try:
        loaded = importlib.import_module(module)
    except ImportError:
        return None
    return str(getattr(loaded, attribute, "?"))


def unmet_need(layer: Backend, engine: Solver) -> Need | None:
    """The pair's own requirement (the engine's record's ``needs``) that is not met here."""
    for need in ENGINES[engine].needs:
        if need.backend is layer:
            try:
                getattr(importlib.import_module(need.module), need.name)
            except (ImportError, AttributeError):
                return need
    return None


BROKEN = "it is installed but failed the test solve: repair it, or name a working one " \
         "with engine_path"


def engine_found(engine: Solver, explicit: str | None = None) -> bool:
    """Is an engine's program or library there? Looked up, never run or imported: the
    check before a board (`require_pair` with ``probe=False``), whose engine may never
    run -- the logic decides most boards. The engine is probed (it solves ``PROBE_LP``)
    when a session opens."""
    record = ENGINES[engine]
    if record.program is None:
        return _has_module(record.probe.module or "")
    if explicit:
        return bool(absolute_executable(explicit))
    return bool(on_path(record.program)) or any(map(_carries, record.probe.carriers))


def _carries(carrier: Carrier) -> bool:
    """Does the package look as if it carries the program? Looked up, not imported."""
    spec = _spec(carrier.module)
    if spec is None or carrier.marker is None:
        return spec is not None
    return any(os.path.isdir(os.path.join(folder, *carrier.marker.split("/")))
               for folder in spec.submodule_search_locations or ())


def pair_info(backend: Backend | str, solver: Solver | str,
              engine_path: str | None = None, probe: bool = True) -> PairInfo:
    """Probe one pair (cheap; results of the engine probes are cached). A name outside
    the closed lists is a [`ConfigError`][thermomilp.core.errors.ConfigError]; ``engine_path``
    probes the program the user named instead of the one on PATH.

    ``probe=False``: when the layer's library and the engine's program or library are
    found (`engine_found`, `importlib.util.find_spec`), the pair is taken as
    available without importing the layer or running the engine (``version`` None);
    otherwise it is probed as usual, so a missing pair says the same either way."""
    layer, engine = Backend.parse(backend, "backend"), Solver.parse(solver, "solver")
    if (layer, engine) not in KNOWN_PAIRS:
        drivers = " or ".join(f"--backend {b}" for b in Backend if engine in DRIVES[b])
        return PairInfo(layer, engine, False, None, None,
                        f"the {layer} backend drives only "
                        f"{', '.join(sorted(DRIVES[layer]))}; use {drivers} for {engine}")
    library = LAYERS[layer].module
    needs = any(need.backend is layer for need in ENGINES[engine].needs)
    if (not probe and (library is None or _has_module(library)) and not needs
            and engine_found(engine, engine_path)):
        return PairInfo(layer, engine, True, None, ENGINES[engine].install_hint(),
                        "found, not probed: it is probed when a session opens")
    if library is not None and layer_version(layer) is None:
        return PairInfo(layer, engine, False, None, f"pip install {library}",
                        f"{library} is not installed")
    probed = probe_engine(engine, engine_path, layer)[1]
    version = probed.version
    need = unmet_need(layer, engine) if version else None
    if need is not None:
        return PairInfo(layer, engine, False, None, need.install, need.why)
    if version is None:
        install = BROKEN if probed.present else ENGINES[engine].install_hint()
        return PairInfo(layer, engine, False, None, install,
                        probed.detail or f"the {engine} engine was not found")
    return PairInfo(layer, engine, True, version, ENGINES[engine].install_hint(), "")


def matrix() -> list[PairInfo]:
    """Every known pair, available or not."""
    return [pair_info(b, s) for b, s in KNOWN_PAIRS]


def require_pair(backend: Backend | str, solver: Solver | str,
                 engine_path: str | None = None, probe: bool = True) -> PairInfo:
    """The pair's info, or [`SolverUnavailable`][thermomilp.core.errors.SolverUnavailable] naming
    the installed pairs. ``probe=False``: found is enough (`pair_info`): the check before a board,
    which must not import PuLP or Pyomo or run an engine the logic may not need."""
    engine = Solver.parse(solver, "solver")
    if engine_path is not None and engine not in PROGRAMS:
        raise ConfigError(f"engine_path = {engine_path!r}: the {engine} engine runs inside "
                          "Python, not as a program; engine_path is for "
                          + " and ".join(str(s) for s in PROGRAMS))
    info = pair_info(backend, engine, engine_path, probe)
    if info.available:
        return info
    installed = ", ".join(f"{p.backend}/{p.solver}" for p in matrix() if p.available) or "none"
    how = f"; to install it: {info.install}" if info.install else ""
    why = f" ({info.detail})" if info.detail else ""
    where = f" at {engine_path}" if engine_path else ""
    raise SolverUnavailable(f"solver pair {info.backend}/{info.solver}{where} is not "
                            f"available{why}{how}. Installed pairs: {installed}")
