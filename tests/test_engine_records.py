"""One record per engine (issue 37): every engine run is the session skeleton's or a record's.

A module that runs an engine -- HiGHS's ``run()``, SCIP's ``optimize()``, CP-SAT's
``CpSolver``, a program by ``subprocess.run`` -- is one of three kinds, read from the
source with ast:

* a session class of ``thermomilp.backends.SESSIONS`` (the skeleton's engine runs);
* the solver matrix (``backends/matrix.py``), running each record's ``probe``;
* the module of one of a record's ``fixed_uses``: a question that runs HiGHS or CP-SAT
  whatever ``--solver`` says, with its reason, printed by ``thermomilp solvers``.
"""

from __future__ import annotations

import ast
import json

from thermomilp.backends import SESSIONS
from thermomilp.cli.main import main
from thermomilp.core.engines import ENGINES, LAYERS

from helpers import ROOT

MATRIX = "thermomilp/backends/matrix.py"


def engine_runs(tree: ast.AST) -> list[tuple[int, str]]:
    """The calls of a module that run an engine."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in ("run", "optimize") and not node.args and not node.keywords:
            found.append((node.lineno, f"{name}()"))  # highspy's Highs.run, pyscipopt
        elif name == "CpSolver":
            found.append((node.lineno, "CpSolver"))
        elif (name == "run" and isinstance(func, ast.Attribute)
              and isinstance(func.value, ast.Name) and func.value.id == "subprocess"):
            found.append((node.lineno, "subprocess.run"))
    return found


def test_the_engine_run_scan_finds_what_it_looks_for():
    code = ("h.run()\nmodel.optimize()\nsolver = cp_model.CpSolver()\n"
            "subprocess.run([cbc, lp])\nfuture.run(task)\nthread.start()\n")
    assert [line for line, _ in engine_runs(ast.parse(code))] == [1, 2, 3, 4]


def test_every_engine_run_outside_the_sessions_is_declared_in_a_record():
    runners = {path.relative_to(ROOT).as_posix()
               for path in sorted((ROOT / "thermomilp").rglob("*.py"))
               if engine_runs(ast.parse(path.read_text(encoding="utf-8")))}
    sessions = {"thermomilp/" + where.split(":")[0].split(".", 1)[1].replace(".", "/") + ".py"
                for where in SESSIONS.values()}
    declared = {use.module for record in ENGINES.values() for use in record.fixed_uses}
    assert runners - sessions == declared | {MATRIX}
    assert all((ROOT / module).is_file() for module in declared)


def test_thermomilp_solvers_prints_each_fixed_use_with_its_engine(capsys):
    assert main(["solvers"]) == 0
    text = capsys.readouterr().out
    for record in ENGINES.values():
        for use in record.fixed_uses:
            assert f"always {record.label}, whatever --solver says: {use.question}" in text
    assert main(["solvers", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {solver: engine["fixed_uses"] for solver, engine in data["engines"].items()} == {
        str(solver): [use.question for use in record.fixed_uses]
        for solver, record in ENGINES.items()}
    assert set(data["layers"]) == {str(b) for b, layer in LAYERS.items() if layer.module}

