"""The layering of docs/architecture.md: no module imports a layer above it."""

from __future__ import annotations

import ast

from helpers import ROOT

# Lower number = more basic. A module may import only from its own layer or lower ones.
# Keyed by the folders of thermomilp/ (docs/architecture.md's layer table); a dotted key
# ranks one module of core/, which holds layers 0 and 1.
LAYERS = {
    "version": 0, "core": 0, "core.errors": 0, "core.deadline": 0, "core.files": 0,
    "core.status": 0, "core.untrusted": 0, "core.install": 0, "core.notation": 0,
    "core.puzzle": 1, "core.verify": 1, "core.engines": 1, "core.settings": 1, "core.config": 1,
    "formats": 2, "logic": 2, "pictures": 2,
    "model": 3, "backends": 4, "solving": 5, "generate": 6, "teach": 6,
    "batch": 7, "web": 7, "cli": 8, "__main__": 9, "__init__": 9,
}
# The only modules at the top of the package: its doors and the version.
TOP_LEVEL_MODULES = {"__init__", "__main__", "version"}
HEAVY = ("pulp", "pyomo", "highspy", "ortools", "dask", "distributed", "pyscipopt")


def _layer_of(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "thermomilp":
        return None
    if len(parts) == 1:
        return LAYERS["__init__"]
    return LAYERS.get(".".join(parts[1:3]), LAYERS.get(parts[1]))


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
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""])
                for name in names:
                    if name.split(".")[0] in HEAVY and rel.parts[1] not in allowed_top:
                        bad.append(f"{rel}:{node.lineno} imports {name} at module level")
    assert bad == []


def test_every_module_has_a_layer():
    names = {p.stem if p.is_file() else p.name for p in (ROOT / "thermomilp").iterdir()
             if (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))}
    assert sorted(names - set(LAYERS)) == []
    core = {f"core.{p.stem}" for p in (ROOT / "thermomilp" / "core").glob("*.py")}
    assert sorted(core - set(LAYERS) - {"core.__init__"}) == []


def test_the_layers_are_folders():
    """Only the package's doors sit at the top; every layer's modules live in its folder."""
    top = {p.stem for p in (ROOT / "thermomilp").glob("*.py")}
    assert sorted(top - TOP_LEVEL_MODULES) == []


# The solve layer's own modules, and the layers below it that it owns (the engines).
SOLVE_LAYER = ("solving", "backends", "model")
# No module outside it is exempt: the generator's rival search asks solving.engine.find_other
# and the autograder asks solving.engine.solve_rows (both run in backends/highs_arrays.py).
PENDING: tuple[str, ...] = ()
# Reading the solver matrix (which pairs are installed) runs no engine.
MATRIX = "thermomilp.backends.matrix"
ENGINE_WORDS = ("ModelStatus", "LpStatus", "termination_condition", "SolutionStatus",
                "getModelStatus", "Outcome(", ".second_opinion(")


def _module_graph() -> dict[str, set[str]]:
    modules = {}
    for path in sorted((ROOT / "thermomilp").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text())):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target not in (name, "thermomilp"):
                    graph[name].add(target)
    return graph


def test_the_package_has_no_import_cycle():
    """Imports inside functions count too: a cycle is a cycle whenever it is walked."""
    graph = _module_graph()
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join(path[path.index(nxt):] + [node, nxt]))
            elif nxt not in state:
                visit(nxt, path + [node])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert cycles == []


def test_only_the_solve_layer_opens_a_session_or_reads_an_engine_status():
    bad = []
    for path in sorted((ROOT / "thermomilp").rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[1].removesuffix(".py") in SOLVE_LAYER or rel.as_posix() in PENDING:
            continue
        text = path.read_text()
        for node, name in _imports(ast.parse(text)):
            if (name.startswith("thermomilp.backends") and name != MATRIX) or name == "highspy":
                bad.append(f"{rel}:{node.lineno} imports {name}")
        bad += [f"{rel} reads engine statuses ({word})" for word in ENGINE_WORDS if word in text]
    assert bad == []
