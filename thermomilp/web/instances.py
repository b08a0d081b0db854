"""The bundled puzzles the page offers, looked up by id -- never by a path.

They live in ``thermomilp/_instances/`` in an installed package and in the repository's
``instances/`` in a source checkout (docs/serve.md, "Where the bundled instances come
from"). The catalogue lists that folder once (regular files only, symlinks skipped,
every resolved path checked to stay inside it); a request's id (``thermometers/t01_4x4.txt``)
is only looked up in it, never joined onto a path.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from thermomilp.core.errors import PuzzleError
from thermomilp.core.puzzle import Puzzle
from thermomilp.formats import load

PACKAGE_DIR = Path(__file__).resolve().parent.parent
SUFFIXES = (".txt", ".json", ".thermo", ".aqua", ".janko", ".task")


@dataclass(frozen=True)
class Instance:
    id: str
    kind: str
    name: str
    height: int
    width: int
    path: Path

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "name": self.name,
                "height": self.height, "width": self.width}


def instances_root() -> Path | None:
    """The folder holding the bundled instances, or ``None`` if there is none."""
    for candidate in (PACKAGE_DIR / "_instances", PACKAGE_DIR.parent / "instances"):
        if candidate.is_dir():
            return candidate
    return None


@lru_cache(maxsize=4)
def catalogue(root: Path | None = None) -> dict[str, Instance]:
    """id -> Instance for every readable puzzle file under ``root``, sorted by id."""
    root = root or instances_root()
    if root is None:
        return {}
    root = root.resolve()
    found: dict[str, Instance] = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink() or not path.is_file() or path.suffix not in SUFFIXES:
            continue
        if any(part.is_symlink() for part in path.parents if root in part.parents):
            continue
        if root not in path.resolve().parents:
            continue
        try:
            puzzle = load(path)
        except PuzzleError:
            continue  # expected.json and friends: not puzzles
        ident = path.relative_to(root).as_posix()
        found[ident] = Instance(ident, puzzle.kind, puzzle.name or path.stem,
                                puzzle.height, puzzle.width, path)
    return _distinct_names(found)


def _distinct_names(found: dict[str, Instance]) -> dict[str, Instance]:
    """Every listed name once: a name two files share (generated boards all called
    ``thermomilp 12x12 seed inst:0``) gets the file's path after it, and a number if
    even that repeats."""
    counts = Counter(entry.name for entry in found.values())
    taken: set[str] = set()
    out: dict[str, Instance] = {}
    for ident, entry in found.items():
        name = entry.name
        if counts[name] > 1:
            name = f"{name} ({entry.path.stem})"
        base, k = name, 2
        while name in taken:
            name, k = f"{base} [{k}]", k + 1
        taken.add(name)
        out[ident] = replace(entry, name=name)
    return out


def load_instance(ident: str) -> Puzzle:
    """The bundled puzzle ``ident``; `KeyError` when there is no such id."""
    entry = catalogue().get(ident) if isinstance(ident, str) else None
    if entry is None:
        raise KeyError(ident)
    return load(entry.path)
