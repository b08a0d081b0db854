"""Shared helpers of the teaching-kit tests: instance files, corpus, random boards."""

from __future__ import annotations

import json
import random
from pathlib import Path

from thermomilp.generate.random_board import clues_of
from thermomilp.puzzle import Puzzle, aquarium, grid_from_levels

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
EXPECTED = json.loads((INSTANCES / "expected.json").read_text())


def instance_files(kind: str = "thermometers") -> list[Path]:
    return sorted((INSTANCES / kind).glob("*.txt")) if (INSTANCES / kind).is_dir() else []


def expected_status(path: Path) -> str:
    return EXPECTED[path.relative_to(INSTANCES).as_posix()]["status"]


def janko_corpus() -> Path | None:
    for base in (ROOT.parent / "shared" / "corpus", Path("/work/shared/corpus")):
        if (base / "janko-6x6").is_dir():
            return base / "janko-6x6"
    return None


def random_aquarium(height: int, width: int, rng: random.Random) -> Puzzle:
    """A random Aquarium board with a planted solution: tanks grown by merging neighbours."""
    parent = {(r, c): (r, c) for r in range(height) for c in range(width)}

    def find(cell):
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    edges = [((r, c), (r + dr, c + dc)) for r in range(height) for c in range(width)
             for dr, dc in ((0, 1), (1, 0)) if r + dr < height and c + dc < width]
    rng.shuffle(edges)
    for a, b in edges[: len(edges) * 2 // 5]:
        parent[find(a)] = find(b)
    ids: dict = {}
    regions = [[str(ids.setdefault(find((r, c)), len(ids))) for c in range(width)]
               for r in range(height)]
    skeleton = aquarium([0] * height, [0] * width, regions)
    levels = [rng.randint(0, v.depth) for v in skeleton.vessels]
    grid = grid_from_levels(skeleton, levels)
    rows, cols = clues_of(grid)
    return aquarium(rows, cols, regions, solution=grid)
