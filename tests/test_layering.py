"""The layering of docs/architecture.md: no module imports a layer above it."""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import ROOT

# Lower number = more basic. A module may import only from its own layer or lower ones.
LAYERS = {
    "errors": 0, "version": 0, "puzzle": 1, "verify": 1, "formats": 2, "logic": 2, "config": 2,
    "model": 3, "backends": 4, "solve": 5, "swap": 5, "conflict": 5, "generate": 6, "render": 2, "svg": 2,
    "export": 6, "analyze": 6, "teach": 6, "batch": 7, "web": 7, "cli": 8, "__main__": 9,
    "__init__": 9,
}
HEAVY = ("pulp", "pyomo", "highspy", "ortools", "dask", "distributed", "pyscipopt")


def _layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "thermomilp":
        return None
    if len(parts) == 1:
        return LAYERS["__init__"]
    return LAYERS.get(parts[1])


def _imports(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node, node.module


def test_no_module_imports_a_layer_above_it():
    bad = []
    for path in sorted((ROOT / "thermomilp").rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        me = _layer_of(".".join(rel.parts))
        if me is None:
            continue
        for node, name in _imports(ast.parse(path.read_text())):
            them = _layer_of(name)
            if them is not None and them > me:
                bad.append(f"{rel}:{node.lineno} imports {name}")
    assert bad == []


def test_heavy_libraries_are_imported_only_inside_functions_or_backend_modules():
    allowed_top = ("model", "backends")
    bad = []
    for path in sorted((ROOT / "thermomilp").rglob("*.py")):
        rel = path.relative_to(ROOT)
        tree = ast.parse(path.read_text())
        for node in tree.body:  # module level only
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                for name in names:
                    if name.split(".")[0] in HEAVY and rel.parts[1] not in allowed_top:
                        bad.append(f"{rel}:{node.lineno} imports {name} at module level")
    assert bad == []


def test_every_module_has_a_layer():
    names = {p.stem if p.is_file() else p.name for p in (ROOT / "thermomilp").iterdir()
             if (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))}
    assert sorted(names - set(LAYERS)) == []
