"""The solver matrix: which (modelling layer, engine) pairs exist, which are installed.

A *pair* is ``(backend, solver)``: the backend is the modelling layer
(``highs`` = highspy direct, ``pulp``, ``pyomo``) and the solver the engine
that layer hands the model to. The pairs we wire and test are ``KNOWN_PAIRS``:

    backend  highs  cbc  glpk  scip
    highs      x
    pulp       x     x     x     x
    pyomo      x     x     x     x

Anything else a layer reaches (Gurobi, CPLEX, ...) is passed through by name
(``--backend pulp --solver gurobi``) when that layer reports it available.

An engine is installed when it *solves* a two-variable model (``PROBE_LP``),
found wherever users put it: PuLP 3's bundled CBC, the ``cbcbox`` wheel of
``pulp[cbc]``, Debian's ``cbc`` and ``glpsol``, SCIP through PySCIPOpt.
Versions are read from what the engine prints, for display only. Each probe
runs once per process, so ``thermomilp solvers`` still answers in about a
second. Each missing pair comes with the exact command that installs it.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

from thermomilp.core.errors import SolverUnavailable

BACKENDS = ("highs", "pulp", "pyomo")
SOLVERS = ("highs", "cbc", "glpk", "scip")
KNOWN_PAIRS: tuple[tuple[str, str], ...] = (
    ("highs", "highs"),
    ("pulp", "highs"), ("pulp", "cbc"), ("pulp", "glpk"), ("pulp", "scip"),
    ("pyomo", "highs"), ("pyomo", "cbc"), ("pyomo", "glpk"), ("pyomo", "scip"),
)

INSTALL = {
    "highs": 'pip install thermomilp  (highspy is a core dependency)',
    "cbc": 'pip install "thermomilp[cbc]"  or  apt-get install coinor-cbc',
    "glpk": "apt-get install glpk-utils",
    "scip": 'pip install "thermomilp[scip]"',
}


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
# No banner is parsed to decide anything: builds print what they like (the
# cbcbox wheel says "CBC devel (git:...)", Debian's cbc "Version: 2.10.8").
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
    import importlib.metadata
    import importlib.util

    if importlib.util.find_spec("highspy") is None:
        return None
    try:
        return importlib.metadata.version("highspy")
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _executable(path: str | None) -> str | None:
    return path if path and os.path.isfile(path) and os.access(path, os.X_OK) else None


def cbc_candidates() -> list[tuple[str, str]]:
    """Every ``cbc`` binary this machine offers, as (path, where it came from), in order:
    Debian's coinor-cbc (or any cbc) on PATH, the cbcbox wheel (``pip install
    "thermomilp[cbc]"``, PuLP 4's ``pulp[cbc]``), the binary PuLP 3 bundles."""
    found: list[tuple[str, str]] = []
    on_path = shutil.which("cbc")
    if on_path:
        found.append((on_path, "cbc on PATH"))
    try:
        import cbcbox  # type: ignore[import-not-found]  # the pulp[cbc] wheel

        path = _executable(cbcbox.cbc_bin_path())
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
                path = _executable(getattr(bundled(msg=False), "path", None))
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
def cbc_probe() -> tuple[str | None, Probe]:
    """(the first cbc binary that solves the probe model, what probing found)."""
    tried = []
    for path, origin in cbc_candidates():
        ok, said, why = _solve_probe(_cbc_argv(path), _cbc_solution)
        if ok:
            return path, Probe(True, _banner_version(said) or "?")
        tried.append(f"{path} ({origin}): {why}")
    if not tried:
        return None, Probe(False, None, "no cbc binary found (PATH, the cbcbox wheel, "
                                        "PuLP 3's bundled CBC)")
    return None, Probe(False, None, "no cbc binary solved the test model: " + "; ".join(tried))


def cbc_executable() -> str | None:
    """The ``cbc`` binary PuLP and Pyomo run: the first candidate that solves the probe.

    PuLP 3.x bundles CBC; PuLP 4.x finds the ``cbcbox`` wheel of the
    ``pulp[cbc]`` extra; Debian ships ``coinor-cbc``. Pyomo has no CBC of its
    own, so it borrows whichever of these works.
    """
    return cbc_probe()[0]


@functools.lru_cache(maxsize=None)
def glpk_probe() -> Probe:
    path = shutil.which("glpsol")
    if path is None:
        return Probe(False, None, "no glpsol on PATH")
    ok, said, why = _solve_probe(lambda lp, sol: [path, "--lp", lp, "-w", sol], _glpk_solution)
    return Probe(True, _banner_version(said) or "?") if ok else Probe(False, None,
                                                                       f"{path}: {why}")


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


def _highs_probe() -> Probe:
    version = highs_version()
    return Probe(version is not None, version, "" if version else "highspy is not installed")


def cbc_version() -> str | None:
    return cbc_probe()[1].version


def glpk_version() -> str | None:
    return glpk_probe().version


def scip_version() -> str | None:
    return scip_probe().version


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


def _cbc_engine_probe() -> Probe:
    return cbc_probe()[1]


ENGINE_VERSION: dict[str, Callable[[], str | None]] = {
    "highs": highs_version, "cbc": cbc_version, "glpk": glpk_version, "scip": scip_version}
ENGINE_PROBE: dict[str, Callable[[], Probe]] = {
    "highs": _highs_probe, "cbc": _cbc_engine_probe, "glpk": glpk_probe, "scip": scip_probe}
LAYER_VERSION: dict[str, Callable[[], str | None]] = {"pulp": pulp_version, "pyomo": pyomo_version}


def _pyomo_scip_ok() -> bool:
    try:
        from pyomo.contrib.solver.solvers.scip.scip_persistent import ScipPersistent  # noqa: F401
    except ImportError:
        return False
    return True


# Pass-through names (PuLP class names, Pyomo SolverFactory names) -> the command
# that installs the engine behind them; matched on the name's first word.
PASS_THROUGH_INSTALL = {
    "coin": INSTALL["cbc"], "pulp_cbc": INSTALL["cbc"], "cbc": INSTALL["cbc"],
    "glpk": INSTALL["glpk"], "scip": INSTALL["scip"], "appsi_highs": INSTALL["highs"],
    "highs": INSTALL["highs"], "highs_cmd": "pip install highsbox",
    "gurobi": "pip install gurobipy  (needs a Gurobi licence)",
    "cplex": "pip install cplex  (needs a CPLEX licence for large models)",
    "xpress": "pip install xpress", "copt": "pip install coptpy", "mosek": "pip install mosek",
    "cylp": "pip install cylp", "cuopt": "pip install cuopt",
}


def pass_through_install(solver: str) -> str:
    """The command that installs the engine behind a pass-through name, or where to look."""
    name = solver.lower()
    for prefix in sorted(PASS_THROUGH_INSTALL, key=len, reverse=True):
        if name.startswith(prefix):
            return PASS_THROUGH_INSTALL[prefix]
    return (f"no known install command for {solver!r}; the names PuLP reaches: "
            "python -c \"import pulp; print(pulp.listSolvers(onlyAvailable=True))\"")


def _pass_through(backend: str, solver: str) -> PairInfo:
    """A solver outside the matrix: ask the layer whether it reaches it."""
    if backend == "pulp":
        from thermomilp.backends.pulp_probe import pulp_class_for

        cls = pulp_class_for(solver)
        ok = bool(cls is not None and _quiet_available(lambda: cls(msg=False).available()))
        return PairInfo(backend, solver, ok, None, pass_through_install(solver),
                        "" if ok else f"PuLP has no available solver {solver!r}")
    if backend == "pyomo":
        from thermomilp.backends.pyomo_probe import pyomo_solver_available

        ok = pyomo_solver_available(solver)
        return PairInfo(backend, solver, ok, None, pass_through_install(solver),
                        "" if ok else f"Pyomo's SolverFactory has no available solver {solver!r}")
    return PairInfo(backend, solver, False, None, None,
                    "the highs backend drives only the HiGHS engine; use --backend pulp "
                    "or --backend pyomo for other solvers")


def _quiet_available(check) -> bool:
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return bool(check())
    except Exception:  # noqa: BLE001 - a crashing probe means "not available"
        return False


def pair_info(backend: str, solver: str) -> PairInfo:
    """Probe one pair (cheap; results of the engine probes are cached)."""
    backend, solver = backend.lower(), solver.lower()
    if backend not in BACKENDS:
        return PairInfo(backend, solver, False, None, None,
                        f"unknown backend; choose one of {', '.join(BACKENDS)}")
    if (backend, solver) not in KNOWN_PAIRS:
        return _pass_through(backend, solver)
    layer = LAYER_VERSION.get(backend)
    if layer is not None and layer() is None:
        return PairInfo(backend, solver, False, None, f"pip install {backend}",
                        f"{backend} is not installed")
    version = ENGINE_VERSION[solver]()
    detail = ""
    if backend == "pyomo" and solver == "scip" and version and not _pyomo_scip_ok():
        version, detail = None, "Pyomo >= 6.10 is needed for its pyscipopt interface"
    if version is None:
        detail = detail or ENGINE_PROBE[solver]().detail or f"the {solver} engine was not found"
        return PairInfo(backend, solver, False, None, INSTALL[solver], detail)
    return PairInfo(backend, solver, True, version, INSTALL[solver], "")


def matrix() -> list[PairInfo]:
    """Every known pair, available or not."""
    return [pair_info(b, s) for b, s in KNOWN_PAIRS]


def available_pairs() -> list[tuple[str, str]]:
    return [(p.backend, p.solver) for p in matrix() if p.available]


def require_pair(backend: str, solver: str) -> PairInfo:
    """The pair's info, or :class:`SolverUnavailable` naming the installed pairs."""
    info = pair_info(backend, solver)
    if info.available:
        return info
    installed = ", ".join(f"{b}/{s}" for b, s in available_pairs()) or "none"
    how = f"; to install it: {info.install}" if info.install else ""
    why = f" ({info.detail})" if info.detail else ""
    raise SolverUnavailable(f"solver pair {backend}/{solver} is not available{why}{how}. "
                            f"Installed pairs: {installed}")
