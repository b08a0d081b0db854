"""Every benchmark script runs, with its smallest arguments (slow: THERMOMILP_SLOW=1).

``tests/test_benchmarks.py`` reads the scripts without running them; what only a run
shows -- a value the package now refuses, a figure that comes out ``nan``, a
disagreement between methods -- is caught here. Each script runs in a subprocess, in
a temporary folder, with the repository first on ``PYTHONPATH``; it must exit 0 and
print no traceback, no ``nan`` figure and no disagreement. What a script writes goes
to the temporary folder (``--page``, ``--out``) or nowhere (``peers.py --quick``,
``scale.py --sizes``): the committed pages of ``benchmarks/results/`` are never
rewritten; so do the bytecode caches (``PYTHONPYCACHEPREFIX``). A timeout only stops
a run that hangs: no time is asserted.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from helpers import ROOT, need_kernel, use_pair

BENCHMARKS = ROOT / "benchmarks"
TIMEOUT_S = 600
LIBRARIES = {"_common.py", "corpora.py", "machine.py", "peer_models.py", "report.py"}
"""Imported by the scripts, run by none: no ``__main__``."""


def cpsat() -> None:
    use_pair("cpsat", "cpsat")


def cbc() -> None:
    use_pair("pulp", "cbc")


def run(script: str, *args: str, needs=(), label: str = "") -> pytest.ParameterSet:
    """One smoke run: ``script`` with ``args`` ({tmp}: the test's folder, {root}: the
    repository), after each of ``needs`` (a skip when an optional engine is absent)."""
    return pytest.param(script, args, needs, id=script + (f" ({label})" if label else ""))


RUNS = [
    run("aquarium_formulations.py", "--repeat", "1"),
    run("aquarium_generate.py", "--sizes", "6", "--seeds", "1"),
    run("backends.py", "--repeat", "1"),
    run("cpsat_compare.py", "--smoke", "--repeats", "1", needs=(cpsat,)),
    run("cpsat_compare.py", "--hard", "--smoke", "--repeats", "1", needs=(cpsat,),
        label="hard"),
    run("cpsat_compare.py", "--planted", "--smoke", "--repeats", "1", needs=(cpsat,),
        label="planted"),
    run("cpsat_counter.py", "{root}/instances/thermometers/t03_6x6.txt", needs=(cpsat,)),
    run("fast_paths.py", "adopt", "--rounds", "1"),
    run("generate.py", "--sizes", "6", "--boards", "1", "--big-boards", "1"),
    run("generate_scale.py", "--sizes", "10", "--boards", "1", "--out", "{tmp}/boards",
        label="thermometers"),
    # the Aquarium baseline (redraw) is where a refused value once made every ratio nan
    run("generate_scale.py", "--puzzle", "aquarium", "--sizes", "6", "--boards", "1",
        "--baseline-sizes", "6", "--minimal-clues", label="aquarium"),
    run("grades.py", "--boards", "1", "--sizes", "6", "--generated", "1",
        "--generated-sizes", "6", "--hard", "1", "--hard-sizes", "8"),
    run("highs_options.py", "--smoke", "--repeats", "1", "--seeds", "0", needs=(cpsat,)),
    run("intervals_numpy.py", "--boards", "1"),
    run("line_flow.py", "--smoke", "--repeats", "1", "--aquarium", "1"),
    run("logic_kernel.py", "--smoke", "--repeats", "1", needs=(need_kernel,)),
    run("lp_relaxation.py", "--boards", "1"),
    run("milp_path.py", "--repeats", "1"),
    run("peers.py", "--quick", "--page", "{tmp}/peers.md", "--raw", "{tmp}/peers.json",
        needs=(cbc,)),
    run("presolve.py", "--per-size", "1", "--repeat", "1"),
    run("scale.py", "--sizes", "6", "--page", "{tmp}/scale.md"),
    run("second_opinion.py", "--repeat", "1", "--backends", "highs"),
    run("serve_latency.py", "--repeat", "1"),
    run("solvers.py", "--repeat", "1", "--per-size", "1"),
    run("startup.py", "--repeat", "1", "--count", "3", "--no-bytecode",
        "--page", "{tmp}/startup.md", needs=(cpsat,)),
    run("stats.py", "--boards", "1", "--sizes", "4"),
]

NAN = re.compile(r"\bnan\b", re.IGNORECASE)


def test_every_script_has_a_smoke_run():
    """A new script gets a run here (or is a library): none is left out unseen."""
    scripts = {p.name for p in BENCHMARKS.glob("*.py")}
    covered = {param.values[0] for param in RUNS}
    assert scripts - LIBRARIES == covered, (
        f"no smoke run: {sorted(scripts - LIBRARIES - covered)}; "
        f"not a script: {sorted(covered - scripts)}")
    for library in LIBRARIES:
        assert "__main__" not in (BENCHMARKS / library).read_text(encoding="utf-8"), library


@pytest.mark.slow
@pytest.mark.parametrize("script, args, needs", RUNS)
def test_a_benchmark_runs(script, args, needs, tmp_path):
    for need in needs:
        need()
    argv = [a.format(tmp=tmp_path, root=ROOT) for a in args]
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1",
               PYTHONPYCACHEPREFIX=str(tmp_path / "pycache"))
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *argv], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
    said = done.stdout + done.stderr
    shown = f"benchmarks/{script} {' '.join(argv)}:\n{said[-4000:]}"
    assert done.returncode == 0, shown
    assert "Traceback" not in said, shown
    assert not NAN.search(said), shown
    assert "disagree" not in said.lower(), shown
