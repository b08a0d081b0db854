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

Probes here are cheap -- an import, a ``which``, one ``--version`` call --
and never solve anything, so ``thermomilp solvers`` answers in about a second.
Each missing pair comes with the exact step that installs it.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass

from thermomilp.errors import SolverUnavailable

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

def _run_version(argv: list[str], pattern: str) -> str | None:
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=20,
                             stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(pattern, out.stdout + out.stderr)
    return match.group(1) if match else None


@functools.lru_cache(maxsize=None)
def highs_version() -> str | None:
    """The highspy wheel's version (it is the HiGHS version it ships), read from
    the package metadata so that checking the default pair imports nothing:
    a board the logic decides then never loads numpy or highspy."""
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


@functools.lru_cache(maxsize=None)
def cbc_executable() -> str | None:
    """A ``cbc`` binary: on PATH (Debian coinor-cbc), else the one PuLP brings.

    PuLP 3.x bundles CBC (``PULP_CBC_CMD``); PuLP 4.x finds the ``cbcbox``
    wheel of the ``pulp[cbc]`` extra. Pyomo has no CBC of its own, so it
    borrows whichever of these exists.
    """
    found = shutil.which("cbc")
    if found:
        return found
    try:
        import cbcbox  # type: ignore[import-not-found]  # pulp[cbc] on PuLP 4
        path = _executable(cbcbox.cbc_bin_path())
        if path:
            return path
    except Exception:  # noqa: BLE001 - any failure just means "not this way"
        pass
    try:
        import pulp

        for name in ("COIN_CMD", "PULP_CBC_CMD"):
            cls = getattr(pulp, name, None)
            if cls is None:
                continue
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                path = _executable(getattr(cls(msg=False), "path", None))
            if path:
                return path
    except Exception:  # noqa: BLE001
        pass
    return None


@functools.lru_cache(maxsize=None)
def cbc_version() -> str | None:
    path = cbc_executable()
    return _run_version([path, "-quit"], r"Version:\s*(\S+)") if path else None


@functools.lru_cache(maxsize=None)
def glpk_version() -> str | None:
    path = shutil.which("glpsol")
    return _run_version([path, "--version"], r"GLPK[^\n]*?\s(\d+\.\d+(?:\.\d+)?)") if path else None


@functools.lru_cache(maxsize=None)
def scip_version() -> str | None:
    try:
        import pyscipopt
    except ImportError:
        return None
    try:
        model = pyscipopt.Model()
        model.hideOutput()
        return (f"{model.getMajorVersion()}.{model.getMinorVersion()}."
                f"{model.getTechVersion()} (pyscipopt {pyscipopt.__version__})")
    except Exception:  # noqa: BLE001 - older pyscipopt without the getters
        return f"pyscipopt {pyscipopt.__version__}"


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


ENGINE_VERSION = {"highs": highs_version, "cbc": cbc_version, "glpk": glpk_version,
                  "scip": scip_version}
LAYER_VERSION = {"pulp": pulp_version, "pyomo": pyomo_version}


def _pyomo_scip_ok() -> bool:
    try:
        from pyomo.contrib.solver.solvers.scip.scip_persistent import ScipPersistent  # noqa: F401
    except ImportError:
        return False
    return True


def _pass_through(backend: str, solver: str) -> PairInfo:
    """A solver outside the matrix: ask the layer whether it reaches it."""
    if backend == "pulp":
        from thermomilp.backends.pulp_backend import pulp_class_for

        cls = pulp_class_for(solver)
        ok = bool(cls is not None and _quiet_available(lambda: cls(msg=False).available()))
        return PairInfo(backend, solver, ok, None,
                        f"install {solver} and its PuLP interface (see PuLP's docs)",
                        "" if ok else f"PuLP has no available solver {solver!r}")
    if backend == "pyomo":
        from thermomilp.backends.pyomo_probe import pyomo_solver_available

        ok = pyomo_solver_available(solver)
        return PairInfo(backend, solver, ok, None,
                        f"install {solver} so that Pyomo's SolverFactory({solver!r}) finds it",
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
        detail = detail or f"the {solver} engine was not found"
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
