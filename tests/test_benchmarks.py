"""The benchmark scripts use only what exists.

Every ``import thermomilp.<module>`` and ``from thermomilp.<module> import <name>`` in
``benchmarks/*.py`` must resolve against the package as it is now; so must every
attribute read from a module imported so (``presolve.search_nodes_for``), every call of
what they import must fit its signature (``dp_count(p, 2)``, and through
``functools.partial``: ``partial(solve, p, backend=b)``), and every import of a
sibling script (``from _common import timed``) must name something that script
defines. A benchmark runs rarely, so a renamed function or a dropped parameter breaks
it unnoticed for weeks; this test breaks at once. The scripts are read with ``ast``,
never imported: some need OR-Tools, and importing a script may start its work.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import ROOT

BENCHMARKS = ROOT / "benchmarks"
SCRIPTS = sorted(BENCHMARKS.glob("*.py"))


def imports(source: str) -> Iterator[tuple[int, str, str | None]]:
    """(line, module, name) of every absolute import, at any depth; ``name`` is None
    for ``import module``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                yield node.lineno, node.module, alias.name


def package_problem(module: str, name: str | None) -> str | None:
    """Why this import of thermomilp fails, or None when it resolves."""
    try:
        found = importlib.import_module(module)
    except ImportError as exc:
        return f"no module {module} ({exc})"
    if name is None or name == "*" or hasattr(found, name):
        return None
    try:  # a submodule that nothing has imported yet is not an attribute
        importlib.import_module(f"{module}.{name}")
    except ImportError:
        return f"{module} has no {name}"
    return None


def top_level_names(path: Path) -> set[str]:
    """The names a script binds at module level (in if/try blocks too)."""
    names: set[str] = set()
    body = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while body:
        node = body.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.If | ast.Try):
            body += node.body + node.orelse + getattr(node, "finalbody", [])
            body += [n for handler in getattr(node, "handlers", []) for n in handler.body]
    return names


def _imported(tree: ast.AST) -> dict[str, object]:
    """What each name a script imports from thermomilp is bound to (a module, a function,
    a class, ...); a name that does not resolve is `package_problem`'s to report."""
    bound: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("thermomilp"):
            for alias in node.names:
                with contextlib.suppress(ImportError):
                    bound[alias.asname or alias.name] = importlib.import_module(
                        f"{node.module}.{alias.name}")
                    continue
                with contextlib.suppress(ImportError, AttributeError):
                    found = getattr(importlib.import_module(node.module), alias.name)
                    bound[alias.asname or alias.name] = found
    return bound


def _called(func: ast.expr, bound: dict[str, object]) -> object:
    """What ``func`` (a name, or a module's attribute) is bound to, else None."""
    if isinstance(func, ast.Name):
        return bound.get(func.id)
    if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
            and inspect.ismodule(bound.get(func.value.id))):
        return getattr(bound[func.value.id], func.attr, None)
    return None


def _is_partial(func: ast.expr) -> bool:
    """``partial`` or ``functools.partial``."""
    return (isinstance(func, ast.Name) and func.id == "partial") or (
        isinstance(func, ast.Attribute) and func.attr == "partial"
        and isinstance(func.value, ast.Name) and func.value.id == "functools")


def use_problems(source: str) -> list[str]:
    """``line: problem`` for every attribute read from a thermomilp module the script
    imported (``presolve.search_nodes_for``) that the module does not have, and every
    call of a thermomilp function or class whose arguments its signature does not
    take (``dp_count(p, 2, known=...)``), called or bound by ``partial`` (whose
    arguments must fit the first ones: ``partial(solve, p, "highs")``); a call with
    ``*args`` or ``**kwargs`` is not judged."""
    tree = ast.parse(source)
    bound = _imported(tree)
    problems = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and inspect.ismodule(bound.get(node.value.id))):
            module = bound[node.value.id]
            if not hasattr(module, node.attr):
                problems.append(f"{node.lineno}: {module.__name__} has no {node.attr}")
        if not isinstance(node, ast.Call) or any(
                isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords):
            continue
        func, args, partial = node.func, node.args, _is_partial(node.func) and bool(node.args)
        if partial:
            func, args = node.args[0], node.args[1:]
        called = _called(func, bound)
        if called is None or inspect.ismodule(called) or not callable(called):
            continue
        try:
            signature = inspect.signature(called)
        except (TypeError, ValueError):  # a builtin without one
            continue
        bind = signature.bind_partial if partial else signature.bind
        try:
            bind(*args, **{k.arg: k.value for k in node.keywords if k.arg})
        except TypeError as exc:
            call = f"partial({ast.unparse(func)}, ...)" if partial else f"{ast.unparse(func)}(...)"
            problems.append(f"{node.lineno}: {call}: {exc}")
    return problems


def import_problems(source: str, folder: Path = BENCHMARKS) -> list[str]:
    """``line: problem`` for every import of thermomilp or of a script in ``folder`` that
    does not resolve, and every attribute of such a module that it does not have; other
    libraries (numpy, ortools, ...) are not this test's business."""
    problems = use_problems(source)
    for line, module, name in imports(source):
        if module.split(".")[0] == "thermomilp":
            problem = package_problem(module, name)
        elif (folder / f"{module}.py").is_file():
            known = name is None or name in top_level_names(folder / f"{module}.py")
            problem = None if known else f"{module}.py defines no {name}"
        else:
            continue
        if problem:
            problems.append(f"{line}: {problem}")
    return problems


def test_there_are_scripts_to_check():
    assert len(SCRIPTS) > 10, f"benchmarks/ holds only {[p.name for p in SCRIPTS]}"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_every_import_of_a_benchmark_resolves(script):
    problems = import_problems(script.read_text(encoding="utf-8"))
    assert not problems, f"benchmarks/{script.name}, line " + "; line ".join(problems)


@pytest.mark.parametrize("source, expected", [
    # what broke benchmarks/serve_latency.py: a helper that left thermomilp.web.api
    ("from thermomilp.web.api import Api, model_exporter", "thermomilp.web.api has no "
                                                           "model_exporter"),
    ("import thermomilp.no_such_module", "no module thermomilp.no_such_module"),
    ("def f():\n    from thermomilp.no_such_module import x", "no module thermomilp.no_such"),
    ("from thermomilp.export import export", "no module thermomilp.export"),
    ("from thermomilp import verify", "thermomilp has no verify"),
    ("from _common import no_such_helper", "_common.py defines no no_such_helper"),
    # what broke benchmarks/logic_kernel.py: the module caches the per-board object replaced
    ("def f():\n    from thermomilp.logic import presolve\n    presolve.forget_roots()",
     "thermomilp.logic.presolve has no forget_roots"),
    # what broke benchmarks/generate_scale.py: a keyword the function lost
    ("from thermomilp.logic.aquarium_dp import dp_count\ndp_count(None, 2, known=None)",
     "dp_count(...): got an unexpected keyword argument 'known'"),
    ("from thermomilp.logic import presolve\npresolve.search_nodes_for(1, 2, 3, 4)",
     "presolve.search_nodes_for(...): too many positional arguments"),
    # what broke benchmarks/backends.py, solvers.py and second_opinion.py: solve's
    # settings became keyword-only, and a partial binds its arguments only when called
    ("from functools import partial\nfrom thermomilp.solving import solve\n"
     "partial(solve, None, 'highs')", "partial(solve, ...): too many positional arguments"),
    ("import functools\nfrom thermomilp.logic.aquarium_dp import dp_count\n"
     "functools.partial(dp_count, known=None)",
     "partial(dp_count, ...): got an unexpected keyword argument 'known'"),
])
def test_the_check_finds_a_broken_import(source, expected):
    problems = import_problems(source)
    assert len(problems) == 1 and expected in problems[0], problems


@pytest.mark.parametrize("source", [
    "from thermomilp.generate import aquarium_gen",  # a submodule, not yet an attribute
    "from thermomilp import solve, build_model",  # an eager and a lazy name of the package
    "import thermomilp.logic.presolve",
    "from _common import timed",
    "import numpy, no_such_library",  # not thermomilp's: left alone
    "from thermomilp.logic.aquarium_dp import dp_count\ndp_count(None, limit=2)",
    "from thermomilp.logic import presolve\npresolve.presolve(None, 'probing', **kw)",
    "from functools import partial\nfrom thermomilp.solving import solve\n"
    "partial(solve, None, backend='highs')",
    "from functools import partial\nfrom thermomilp.solving import solve\npartial(solve)",
])
def test_the_check_accepts_what_resolves(source):
    assert import_problems(source) == []


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_default_a_benchmark_reads_is_a_setting(script):
    """``DEFAULTS["..."]`` in a script names a key of ``thermomilp.core.config.DEFAULTS``
    (peers.py once read the renamed ``presolve`` and stopped at its first line)."""
    from thermomilp.core.config import DEFAULTS

    for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                and node.value.id == "DEFAULTS" and isinstance(node.slice, ast.Constant)):
            assert node.slice.value in DEFAULTS, f"{script.name}:{node.lineno}"
