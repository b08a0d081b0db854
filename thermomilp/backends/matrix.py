"""The solver matrix: which (modelling layer, engine) pairs exist, which are installed.

A *pair* is ``(backend, solver)``: the backend is the modelling layer
(``highs`` = highspy direct, ``pulp``, ``pyomo``) and the solver the engine
that layer hands the model to. The pairs we wire and test are ``KNOWN_PAIRS``:

    backend  highs  cbc  glpk  scip  cpsat
    highs      x
    pulp       x     x     x     x
    pyomo      x     x     x     x
    cpsat                                 x

([`thermomilp.core.settings.DRIVES`][thermomilp.core.settings.DRIVES]: CP-SAT is reached through
OR-Tools' own model only.) The list is closed: no other engine name reaches a layer (Pyomo would
look an unknown name up as a program, the working folder included).

An engine is installed when it *solves* a two-variable model (``PROBE_LP``),
found wherever users put it: PuLP 3's bundled CBC, the ``cbcbox`` wheel of
``pulp[cbc]``, Debian's ``cbc`` and ``glpsol`` (on PATH, absolute folders only:
`thermomilp.backends.executables`; or at the ``engine_path`` the user
named), SCIP through PySCIPOpt, CP-SAT through OR-Tools.
Versions are read from what the engine prints, for display only. Each probe
runs once per process. Each missing pair comes with the exact command that installs it.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

from thermomilp.backends.executables import (
    PROGRAMS,
    absolute_executable,
    engine_executable,
    on_path,
)
from thermomilp.core.engines import ENGINES
from thermomilp.core.errors import SolverUnavailable
from thermomilp.core.settings import DRIVES, Backend, Settings, Solver

KNOWN_PAIRS: tuple[tuple[Backend, Solver], ...] = tuple(
    (layer, engine) for layer in Backend for engine in Solver if engine in DRIVES[layer])
"""Every pair we wire and test: highspy drives HiGHS, PuLP and Pyomo drive every MILP
engine, OR-Tools' model drives CP-SAT."""

def install_hint(engine: Solver) -> str:
    """How to install an engine (the command a missing pair's row names): its record's."""
    return ENGINES[engine].install_hint()


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


# Engine probes -------------------------------------------------------------
#
# An engine counts as installed when it solves PROBE_LP -- minimise a subject
# to a + b = 1, a and b binary -- and reports its only optimum a = 0, b = 1.
# No banner is parsed to decide anything: builds print what they like.
# Each probe runs once per process (lru_cache).

PROBE_LP = """\\ thermomilp engine probe: the only optimum is a = 0, b = 1
Minimize
 obj: a
Subject To
 one: a + b = 1
Binaries
 a
 b
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


def _solve_probe(argv_for: Callable[[str, str], list[str]],
                 read_solution: Callable[[str], dict[str, float] | None]) -> tuple[bool, str, str]:
    """Run an engine on PROBE_LP in a scratch folder: (solved right, its output, why not)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="thermomilp-probe-") as tmp:
        model, solution = os.path.join(tmp, "probe.lp"), os.path.join(tmp, "probe.sol")
        with open(model, "w", encoding="ascii") as handle:
            handle.write(PROBE_LP)
        try:
            out = subprocess.run(argv_for(model, solution), capture_output=True, text=True,
                                 timeout=30, stdin=subprocess.DEVNULL, cwd=tmp, check=False)
        except (OSError, subprocess.SubprocessError) as exc:
            return False, "", f"could not run it: {exc}"
        said = out.stdout + out.stderr
        try:
            with open(solution, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            return False, said, f"it wrote no solution (exit code {out.returncode})"
        if read_solution(text) != {"a": 0.0, "b": 1.0}:
            return False, said, "it did not solve a two-variable test model correctly"
        return True, said, ""


def _cbc_solution(text: str) -> dict[str, float] | None:
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


def _glpk_solution(text: str) -> dict[str, float] | None:
    """glpsol's ``-w`` file: ``s mip ROWS COLS o OBJ`` (o = optimal), ``j COL VALUE``."""
    values: dict[str, float] = {}
    optimal = False
    for line in text.splitlines():
        parts = line.split()
        if parts[:2] == ["s", "mip"] and len(parts) >= 5:
            optimal = parts[4] == "o"
        elif parts[:1] == ["j"] and len(parts) >= 3:
            values["ab"[int(parts[1]) - 1]] = round(float(parts[2]), 6)
    return values if optimal else None


def _banner_version(text: str) -> str | None:
    """The version an engine names in its output, for display only."""
    for pattern in (r"Version:\s*(\S+)", r"CBC\s+(devel\s*\(git:[0-9a-f]+\))",
                    r"GLPSOL[^\n]*?v?(\d+\.\d+(?:\.\d+)?)", r"GLPK[^\n]*?\s(\d+\.\d+(?:\.\d+)?)"):
        match = re.search(pattern, text)
        if match:
            return match.group(1)
    return None


@functools.lru_cache(maxsize=None)
def highs_version() -> str | None:
    """The highspy wheel's version (it is the HiGHS version it ships), read from
    the package metadata so that checking the default pair imports nothing:
    a board the logic decides then never loads numpy or highspy. highspy is a
    core dependency, so it is the one engine not probed by a solve."""
    import importlib.util

    spec = importlib.util.find_spec("highspy")
    if spec is None:
        return None
    # the wheel's dist-info folder beside the package names the version: read without
    # importing importlib.metadata (a start-up cost: docs/journal.md, 2026-12-03)
    for folder in spec.submodule_search_locations or ():
        parent = os.path.dirname(folder)
        try:
            names = os.listdir(parent)
        except OSError:
            continue
        found = [n[len("highspy-"):-len(".dist-info")] for n in names
                 if n.startswith("highspy-") and n.endswith(".dist-info")]
        if len(found) == 1:
            return found[0]
    import importlib.metadata

    try:
        return importlib.metadata.version("highspy")
    except importlib.metadata.PackageNotFoundError:
        return "?"


def cbc_candidates() -> list[tuple[str, str]]:
    """Every ``cbc`` binary this machine offers, as (absolute path, where it came from),
    in order: Debian's coinor-cbc (or any cbc) on PATH (absolute folders only), the
    cbcbox wheel (the ``cbc`` extra, PuLP 4's ``pulp[cbc]``), the
    binary PuLP 3 bundles."""
    found: list[tuple[str, str]] = []
    path = on_path(PROGRAMS[Solver.CBC])
    if path:
        found.append((path, "cbc on PATH"))
    try:
        # the pulp[cbc] wheel; untyped, and absent unless that extra is installed
        import cbcbox  # type: ignore[import-not-found,import-untyped,unused-ignore]

        path = absolute_executable(cbcbox.cbc_bin_path())
        if path:
            found.append((path, "the cbcbox wheel"))
    except Exception:  # noqa: BLE001 - any failure just means "not this way"
        pass
    try:
        import warnings

        import pulp

        bundled = getattr(pulp, "PULP_CBC_CMD", None)  # PuLP 3.x only
        if bundled is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                path = absolute_executable(getattr(bundled(msg=False), "path", None))
            if path:
                found.append((path, "the CBC bundled with PuLP 3"))
    except Exception:  # noqa: BLE001
        pass
    seen: set[str] = set()
    unique = []
    for path, origin in found:  # Debian's cbc may also be what some wheel points to
        if os.path.realpath(path) not in seen:
            seen.add(os.path.realpath(path))
            unique.append((path, origin))
    return unique


def _cbc_argv(cbc: str) -> Callable[[str, str], list[str]]:
    """cbc's command line for the probe: dashed options, which every build takes
    (the cbcbox build reads bare words such as ``solve`` as file names)."""
    return lambda model, solution: [cbc, model, "-solve", "-solution", solution]


@functools.lru_cache(maxsize=None)
def cbc_probe(explicit: str | None = None) -> tuple[str | None, Probe]:
    """(the cbc binary that solves the probe model, what probing found): the
    ``explicit`` path the user named, else the first of `cbc_candidates`."""
    candidates = [(explicit, "engine_path")] if explicit else cbc_candidates()
    tried = []
    for path, origin in candidates:
        ok, said, why = _solve_probe(_cbc_argv(path), _cbc_solution)
        if ok:
            return path, Probe(True, _banner_version(said) or "?")
        tried.append(f"{path} ({origin}): {why}")
    if not tried:
        return None, Probe(False, None, "no cbc binary found (PATH, the cbcbox wheel, "
                                        "PuLP 3's bundled CBC)")
    return None, Probe(False, None, "no cbc binary solved the test model: " + "; ".join(tried),
                       present=True)


def cbc_executable(settings: Settings | None = None) -> str | None:
    """The ``cbc`` binary PuLP and Pyomo run: the settings' ``engine_path`` when the
    user named one, else the first candidate that solves the probe.

    PuLP 3.x bundles CBC; PuLP 4.x finds the ``cbcbox`` wheel of the
    ``pulp[cbc]`` extra; Debian ships ``coinor-cbc``. Pyomo has no CBC of its
    own, so it borrows whichever of these works.
    """
    explicit = settings.engine_path if settings is not None else None
    return explicit or cbc_probe()[0]


@functools.lru_cache(maxsize=None)
def glpk_probe(explicit: str | None = None) -> Probe:
    path = explicit or engine_executable(Solver.GLPK)
    if path is None:
        return Probe(False, None, "no glpsol in an absolute folder of PATH")
    ok, said, why = _solve_probe(lambda lp, sol: [path, "--lp", lp, "-w", sol], _glpk_solution)
    return Probe(True, _banner_version(said) or "?") if ok else Probe(False, None,
                                                                       f"{path}: {why}",
                                                                       present=True)


def glpk_executable(settings: Settings | None = None) -> str | None:
    """The ``glpsol`` PuLP and Pyomo run (the user's ``engine_path``, else PATH's)."""
    return engine_executable(Solver.GLPK, settings)


@functools.lru_cache(maxsize=None)
def scip_probe() -> Probe:
    try:
        import pyscipopt
    except ImportError:
        return Probe(False, None, "pyscipopt is not installed")
    try:
        model = pyscipopt.Model()
        model.hideOutput()
        a, b = model.addVar("a", vtype="B"), model.addVar("b", vtype="B")
        model.addCons(a + b == 1)
        model.setObjective(a, "minimize")
        model.optimize()
        if model.getStatus() != "optimal" or round(model.getVal(b)) != 1:
            return Probe(False, None, "pyscipopt did not solve a two-variable test model")
    except Exception as exc:  # noqa: BLE001 - a broken wheel is "not installed"
        return Probe(False, None, f"pyscipopt failed on a test model: {exc}")
    try:
        version = (f"{model.getMajorVersion()}.{model.getMinorVersion()}."
                   f"{model.getTechVersion()} (pyscipopt {pyscipopt.__version__})")
    except Exception:  # noqa: BLE001 - older pyscipopt without the getters
        version = f"pyscipopt {pyscipopt.__version__}"
    return Probe(True, version)


def cpsat_version() -> str | None:
    """The OR-Tools version (it is the CP-SAT version), or None when not installed."""
    try:
        import ortools
    except ImportError:
        return None
    return str(getattr(ortools, "__version__", "?"))


@functools.lru_cache(maxsize=None)
def cpsat_probe() -> Probe:
    """CP-SAT (OR-Tools) solves the probe model in-process, on one worker."""
    version = cpsat_version()
    if version is None:
        return Probe(False, None, "ortools is not installed")
    try:
        from ortools.sat.python import cp_model

        model = cp_model.CpModel()
        a, b = model.new_bool_var("a"), model.new_bool_var("b")
        model.add(a + b == 1)
        model.minimize(a)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if solver.solve(model) != cp_model.OPTIMAL or solver.value(b) != 1:
            return Probe(False, None, "CP-SAT did not solve a two-variable test model",
                         present=True)
    except Exception as exc:  # noqa: BLE001 - a broken wheel is "not working"
        return Probe(False, None, f"CP-SAT failed on a test model: {exc}", present=True)
    return Probe(True, f"OR-Tools {version}")


def _highs_probe() -> Probe:
    version = highs_version()
    return Probe(version is not None, version, "" if version else "highspy is not installed")


@functools.lru_cache(maxsize=None)
def pulp_version() -> str | None:
    try:
        import pulp
    except ImportError:
        return None
    return str(getattr(pulp, "__version__", "?"))


@functools.lru_cache(maxsize=None)
def pyomo_version() -> str | None:
    try:
        import pyomo.version
    except ImportError:
        return None
    return str(pyomo.version.version)


ENGINE_PROBE: dict[Solver, Callable[[str | None], Probe]] = {
    Solver.HIGHS: lambda explicit: _highs_probe(),
    Solver.CBC: lambda explicit: cbc_probe(explicit)[1],
    Solver.GLPK: glpk_probe,
    Solver.SCIP: lambda explicit: scip_probe(),
    Solver.CPSAT: lambda explicit: cpsat_probe()}
"""Probe an engine (at the user's ``engine_path``, where it takes one): a version
exactly when it solved the test model."""
LAYER_VERSION: dict[Backend, Callable[[], str | None]] = {
    Backend.PULP: pulp_version, Backend.PYOMO: pyomo_version}


def _pyomo_scip_ok() -> str:
    try:
        from pyomo.contrib.solver.solvers.scip.scip_persistent import ScipPersistent  # noqa: F401
    except ImportError:
        return "Pyomo >= 6.10 is needed for its pyscipopt interface"
    return ""


PAIR_NEEDS: dict[tuple[Backend, Solver], tuple[Callable[[], str], str]] = {
    (Backend.PYOMO, Solver.SCIP): (_pyomo_scip_ok, 'pip install "pyomo>=6.10"')}
"""A pair's own requirement beyond its layer and engine: (check -- "" when met, else
why not --, the command that meets it)."""
BROKEN = "it is installed but failed the test solve: repair it, or name a working one " \
         "with engine_path"


def _has_module(name: str) -> bool:
    """Is ``name`` importable? Found by `importlib.util.find_spec`, not imported."""
    import importlib.util

    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


LAYER_MODULE: dict[Backend, str] = {Backend.PULP: "pulp", Backend.PYOMO: "pyomo"}
"""The library of a modelling layer that is not the engine's own."""


def _pulp3_cbc() -> bool:
    """Does the installed PuLP carry its own CBC (PuLP 3's ``solverdir/cbc``)? Looked up
    in PuLP's folder, without importing PuLP."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("pulp")
    except (ImportError, ValueError):
        return False
    folders = (spec.submodule_search_locations or ()) if spec is not None else ()
    return any(os.path.isdir(os.path.join(folder, "solverdir", PROGRAMS[Solver.CBC]))
               for folder in folders)


ENGINE_FOUND: dict[Solver, Callable[[str | None], bool]] = {
    Solver.HIGHS: lambda explicit: _has_module("highspy"),
    Solver.CBC: lambda explicit: (bool(absolute_executable(explicit)) if explicit else
                                  bool(on_path(PROGRAMS[Solver.CBC])) or _has_module("cbcbox")
                                  or _pulp3_cbc()),
    Solver.GLPK: lambda explicit: bool(absolute_executable(explicit) if explicit
                                       else engine_executable(Solver.GLPK)),
    Solver.SCIP: lambda explicit: _has_module("pyscipopt"),
    Solver.CPSAT: lambda explicit: _has_module("ortools")}
"""Is an engine's program or library there? Looked up, never run or imported: the
check before a board (`require_pair` with ``probe=False``), whose engine may
never run -- the logic decides most boards. The engine is probed (it solves
``PROBE_LP``) when a session opens."""


def pair_info(backend: Backend | str, solver: Solver | str,
              engine_path: str | None = None, probe: bool = True) -> PairInfo:
    """Probe one pair (cheap; results of the engine probes are cached). A name outside
    the closed lists is a [`ConfigError`][thermomilp.core.errors.ConfigError]; ``engine_path``
    probes the program the user named instead of the one on PATH.

    ``probe=False``: when the layer's library and the engine's program or library are
    found (`ENGINE_FOUND`, `importlib.util.find_spec`), the pair is taken as
    available without importing the layer or running the engine (``version`` None);
    otherwise it is probed as usual, so a missing pair says the same either way."""
    layer, engine = Backend.parse(backend, "backend"), Solver.parse(solver, "solver")
    if (layer, engine) not in KNOWN_PAIRS:
        drivers = " or ".join(f"--backend {b}" for b in Backend if engine in DRIVES[b])
        return PairInfo(layer, engine, False, None, None,
                        f"the {layer} backend drives only "
                        f"{', '.join(sorted(DRIVES[layer]))}; use {drivers} for {engine}")
    if (not probe and (layer not in LAYER_MODULE or _has_module(LAYER_MODULE[layer]))
            and (layer, engine) not in PAIR_NEEDS and ENGINE_FOUND[engine](engine_path)):
        # found: taken as available; the session probes it
        return PairInfo(layer, engine, True, None, install_hint(engine),
                        "found, not probed: it is probed when a session opens")
    layer_version = LAYER_VERSION.get(layer)
    if layer_version is not None and layer_version() is None:
        return PairInfo(layer, engine, False, None, f"pip install {layer}",
                        f"{layer} is not installed")
    probed = ENGINE_PROBE[engine](engine_path)
    version = probed.version
    need = PAIR_NEEDS.get((layer, engine))
    if version and need is not None and need[0]():
        return PairInfo(layer, engine, False, None, need[1], need[0]())
    if version is None:
        install = BROKEN if probed.present else install_hint(engine)
        return PairInfo(layer, engine, False, None, install,
                        probed.detail or f"the {engine} engine was not found")
    return PairInfo(layer, engine, True, version, install_hint(engine), "")


def matrix() -> list[PairInfo]:
    """Every known pair, available or not."""
    return [pair_info(b, s) for b, s in KNOWN_PAIRS]


def available_pairs() -> list[tuple[str, str]]:
    return [(p.backend, p.solver) for p in matrix() if p.available]


def require_pair(backend: Backend | str, solver: Solver | str,
                 engine_path: str | None = None, probe: bool = True) -> PairInfo:
    """The pair's info, or [`SolverUnavailable`][thermomilp.core.errors.SolverUnavailable] naming
    the installed pairs. ``probe=False``: found is enough (`pair_info`): the check before a board,
    which must not import PuLP or Pyomo or run an engine the logic may not need."""
    engine = Solver.parse(solver, "solver")
    if engine_path is not None and engine not in PROGRAMS:
        from thermomilp.core.errors import ConfigError

        raise ConfigError(f"engine_path = {engine_path!r}: the {engine} engine runs inside "
                          "Python, not as a program; engine_path is for "
                          + " and ".join(str(s) for s in PROGRAMS))
    info = pair_info(backend, engine, engine_path, probe)
    if info.available:
        return info
    installed = ", ".join(f"{b}/{s}" for b, s in available_pairs()) or "none"
    how = f"; to install it: {info.install}" if info.install else ""
    why = f" ({info.detail})" if info.detail else ""
    where = f" at {engine_path}" if engine_path else ""
    raise SolverUnavailable(f"solver pair {info.backend}/{info.solver}{where} is not "
                            f"available{why}{how}. Installed pairs: {installed}")
