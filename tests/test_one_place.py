"""One concern, one place (issue 29), read from the source with ast.

* Solver, backend and formulation names are compared as strings nowhere but in
  ``core/settings.py`` (the one boundary that parses them); every other module
  compares enum members or looks them up in a table keyed by them.
* The engines' quirks -- the presolve-off retry, the second opinion, the
  ``elapsed / 0.9`` time-limit guess, the row of a model with no constraint,
  the error fallbacks of a question given as numbers -- are handled only by
  the session skeleton (``backends/base.py``, with the engines' data in
  ``backends/engines.py``) and, reading the same data, by
  ``backends/highs_arrays.ask_cell_model`` (the generator's rival search).
"""

from __future__ import annotations

import ast

from helpers import ROOT

PACKAGE = ROOT / "thermomilp"
NAMES = {"highs", "cbc", "glpk", "scip", "cpsat", "pulp", "pyomo", "cell", "compact", "level",
         "none", "intervals", "probing", "gac"}
"""Every solver, backend, formulation and logic mode name (core/settings.py's and
core/engines.py's enums) and every propagator of the logic search (logic/search.py's
``Propagator``): below the boundary they are enum members."""
SETTINGS = "thermomilp/core/settings.py"
SKELETON = {"thermomilp/backends/base.py", "thermomilp/backends/engines.py",
            "thermomilp/core/engines.py"}
"""Where the engines' quirks live. backends/highs_arrays.py is not exempt: it applies
the data of backends/engines.py and spells no quirk itself."""


def _sources():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _names_in(node: ast.AST) -> set[str]:
    """The names a comparison operand spells: a string constant, or one inside a
    tuple, list or set display."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value.lower()} & NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return set().union(*(_names_in(elt) for elt in node.elts)) if node.elts else set()
    return set()


def name_comparisons(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            spelled = set().union(*(_names_in(x) for x in [node.left, *node.comparators]))
            if spelled:
                found.append((node.lineno, ", ".join(sorted(spelled))))
    return found


def test_the_name_scan_finds_what_it_looks_for():
    bad = ast.parse('if solver == "highs" or backend in ("pulp", "x") or form.kind != "level":\n'
                    "    pass\n"
                    'ok = Solver.HIGHS is solver or status == "infeasible"\n')
    assert [line for line, _ in name_comparisons(bad)] == [1, 1, 1]


def test_no_string_comparison_of_solver_backend_or_formulation_names():
    bad = [f"{rel}:{line} compares {names}" for rel, tree in _sources() if rel != SETTINGS
           for line, names in name_comparisons(tree)]
    assert bad == []


def _divides_by_point_nine(node: ast.AST) -> bool:
    return (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
            and isinstance(node.right, ast.Constant) and node.right.value == 0.9)


def _presolve_off(key: ast.AST | None, value: ast.AST) -> bool:
    return (isinstance(key, ast.Constant) and key.value == "presolve"
            and isinstance(value, ast.Constant) and value.value == "off")


def _fallback_table(node: ast.AST) -> bool:
    """A table of retries: a name like ``ERROR_FALLBACKS`` assigned, or a tuple or list
    of rows one of which spells ``"off"`` (``(("off", 0, False), (None, 1, False))``)."""
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return any(isinstance(t, ast.Name) and "fallback" in t.id.lower()
                   and isinstance(node.value, (ast.Tuple, ast.List, ast.Dict))
                   for t in targets)
    if isinstance(node, (ast.Tuple, ast.List)):
        return any(isinstance(row, (ast.Tuple, ast.List))
                   and any(isinstance(x, ast.Constant) and x.value == "off" for x in row.elts)
                   for row in node.elts)
    return False


def _quirks(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if _fallback_table(node):
            found.append((node.lineno, "a table of error fallbacks"))
        if isinstance(node, ast.Call) and any(
                _presolve_off(ast.Constant(k.arg), k.value) for k in node.keywords):
            found.append((node.lineno, "presolve off as a keyword (a retry or a confirmation)"))
        if _divides_by_point_nine(node):
            found.append((node.lineno, "the elapsed / 0.9 time-limit guess"))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.name in ("second_opinion", "_rerun_without_presolve"):
            found.append((node.lineno, f"def {node.name}"))
        elif isinstance(node, ast.Constant) and node.value in ("no_rule", "__dummy_row"):
            found.append((node.lineno, "the row of a model with no constraint"))
        elif isinstance(node, ast.Dict) or isinstance(node, ast.Call):
            pairs = []
            if isinstance(node, ast.Dict):
                pairs = list(zip(node.keys, node.values, strict=True))
            elif isinstance(node.func, ast.Attribute) and node.func.attr == "setOptionValue" \
                    and len(node.args) == 2:
                pairs = [(node.args[0], node.args[1])]
            for key, value in pairs:
                if _presolve_off(key, value):
                    found.append((node.lineno, "presolve off (a retry or a second opinion)"))
    return found


def test_the_quirk_scan_finds_what_it_looks_for():
    bad = ast.parse('h.setOptionValue("presolve", "off")\nx = {"presolve": "off"}\n'
                    "late = limit <= elapsed / 0.9\n"
                    "def second_opinion(self):\n    pass\n"
                    'o = RunOptions(presolve="off", seed=1)\n'
                    "ERROR_FALLBACKS: tuple = ((None, 1, False), (None, 2, True))\n"
                    'tries = [("choose", 0), ("off", 1)]\n'
                    'fine = ("0", "false", "no", "off")\n')
    assert sorted(line for line, _ in _quirks(bad)) == [1, 2, 3, 4, 6, 7, 8]


def test_engine_quirks_are_handled_only_by_the_session_skeleton():
    bad = [f"{rel}:{line} {what}" for rel, tree in _sources() if rel not in SKELETON
           for line, what in _quirks(tree)]
    assert bad == []


def _code_strings(tree: ast.AST) -> set[str]:
    """The string constants of a module that are not docstrings."""
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs}


def test_each_engines_program_package_and_extra_are_said_in_its_record_only():
    """One record per engine (issue 37): its program, Debian package and pip extra are
    spelled in core/engines.py and read from there by everything else."""
    from thermomilp.core.engines import ENGINES

    facts = {fact for record in ENGINES.values()
             for fact in (record.program, record.debian) if fact}
    facts |= {f"thermomilp[{record.extra}]" for record in ENGINES.values() if record.extra}
    assert facts >= {"cbc", "glpsol", "coinor-cbc", "glpk-utils", "thermomilp[cbc]"}
    spelled = {rel: _code_strings(tree) & facts for rel, tree in _sources()
               if rel != "thermomilp/core/engines.py"}
    assert {rel: sorted(found) for rel, found in spelled.items() if found} == {}
