"""No engine banner reaches stdout: not from our sessions, not from a layer's own HiGHS
(PuLP's ``HiGHS(msg=False)`` creates the process's first Highs and HiGHS prints its
banner on creation, whatever ``msg`` says -- as a notebook showed)."""

from __future__ import annotations

import os
import subprocess
import sys

from thermomilp.backends.matrix import KNOWN_PAIRS, pair_info

from helpers import INSTANCES, ROOT

BOARD = INSTANCES / "thermometers" / "t03_6x6.txt"


def _stdout_of(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=300, check=True)
    return done.stdout


def test_a_built_pulp_model_solved_by_pulps_highs_prints_no_banner():
    out = _stdout_of(f"""
import pulp, thermomilp
p = thermomilp.load({str(BOARD)!r})
prob, x = thermomilp.build_model(p, backend="pulp")
prob.solve(pulp.HiGHS(msg=False))
print("solved", sum(round(v.value()) for v in x.values()))
""")
    assert "HiGHS" not in out and out.startswith("solved")


def test_no_pair_prints_a_banner():
    pairs = [(b, s) for b, s in KNOWN_PAIRS if pair_info(b, s).available]
    out = _stdout_of(f"""
import thermomilp
p = thermomilp.load({str(BOARD)!r})
for backend, solver in {[(str(b), str(s)) for b, s in pairs]!r}:
    print(backend, solver, thermomilp.solve(p, backend=backend, solver=solver, logic="none").status)
""")
    assert out.splitlines() == [f"{b} {s} unique" for b, s in pairs]
