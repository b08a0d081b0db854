"""The one helpers module of the tests: the repository's folders, the instances,
the janko corpus (optional), random boards, the shipped boards in every format.

Every path is relative to the repository (:data:`ROOT`); the janko corpus is
looked for beside it (``../shared/corpus/janko-6x6``) or where the
environment variable ``THERMOMILP_CORPUS`` points (the ``janko-6x6`` folder
itself, or a folder holding it). Tests that read it skip when it is absent.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from thermomilp.core.errors import ThermomilpError
from thermomilp.core.puzzle import Puzzle, aquarium, grid_from_levels
from thermomilp.formats import FORMATS, dumps, load
from thermomilp.generate.random_board import clues_of, planted_board

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
EXPECTED = json.loads((INSTANCES / "expected.json").read_text())
CORPUS_VARIABLE = "THERMOMILP_CORPUS"


def instance_files(kind: str = "thermometers") -> list[Path]:
    return sorted((INSTANCES / kind).glob("*.txt")) if (INSTANCES / kind).is_dir() else []


def expected_status(path: Path) -> str:
    return EXPECTED[path.relative_to(INSTANCES).as_posix()]["status"]


def corpus_dir() -> Path | None:
    """The janko 6x6 corpus: ``$THERMOMILP_CORPUS`` or ``../shared/corpus/janko-6x6``."""
    candidates = []
    if os.environ.get(CORPUS_VARIABLE):
        given = Path(os.environ[CORPUS_VARIABLE])
        candidates += [given, given / "janko-6x6"]
    candidates.append(ROOT.parent / "shared" / "corpus" / "janko-6x6")
    for candidate in candidates:
        if candidate.is_dir() and any(candidate.glob("*.txt")):
            return candidate
    return None


def janko_files() -> list[Path]:
    found = corpus_dir()
    return sorted(found.glob("*.txt")) if found else []


needs_corpus = pytest.mark.skipif(
    corpus_dir() is None,
    reason=f"the janko corpus is not present (../shared/corpus/janko-6x6 or ${CORPUS_VARIABLE})")


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


def require_all_solvers() -> bool:
    """``THERMOMILP_REQUIRE_ALL_SOLVERS=1`` (``.ci/run`` sets it): a missing pair fails."""
    return os.environ.get("THERMOMILP_REQUIRE_ALL_SOLVERS", "") not in ("", "0")


def use_pair(backend: str, solver: str) -> tuple[str, str]:
    """(backend, solver) when installed here; else skip with the reason and the install
    step -- or fail, under ``THERMOMILP_REQUIRE_ALL_SOLVERS=1``."""
    from thermomilp.backends.matrix import pair_info

    info = pair_info(backend, solver)
    if not info.available:
        reason = f"{backend}/{solver} not installed ({info.detail}); install: {info.install}"
        if require_all_solvers():
            pytest.fail(f"THERMOMILP_REQUIRE_ALL_SOLVERS=1 but {reason}")
        pytest.skip(reason)
    return backend, solver


KERNEL_VARIABLE = "THERMOMILP_REQUIRE_KERNEL"


def need_kernel() -> None:
    """Skip, with the reason and how to build it, when the compiled logic kernel is not
    loaded -- or fail, under ``THERMOMILP_REQUIRE_KERNEL=1`` (CI)."""
    from thermomilp.logic import propagation

    if propagation.available():
        return
    why = f"the compiled logic kernel is not loaded: {propagation.REASON}"
    if os.environ.get(KERNEL_VARIABLE) == "1":
        pytest.fail(f"{why} ({KERNEL_VARIABLE}=1)")
    pytest.skip(f"{why}; build it with `python setup.py build_ext --inplace`")


def fake_engine(monkeypatch, solver: str, probe=None, found: bool | None = None) -> None:
    """Make the solver matrix see one engine as a test wants it, every other as it is:
    ``probe`` is what probing it finds (a ``matrix.Probe``), ``found`` whether the
    check before a board finds it."""
    from thermomilp.backends import matrix

    if probe is not None:
        real_probe = matrix.probe_engine
        monkeypatch.setattr(matrix, "probe_engine", lambda engine, explicit=None, layer=None: (
            (None, probe) if engine == solver else real_probe(engine, explicit, layer)))
    if found is not None:
        real_found = matrix.engine_found
        monkeypatch.setattr(matrix, "engine_found", lambda engine, explicit=None: (
            found if engine == solver else real_found(engine, explicit)))


def one_clue_fewer(puzzle: Puzzle) -> list[tuple[str, int, Puzzle]]:
    """The board without each of its clues in turn: (``rows``/``cols``, index, board)."""
    out = []
    for line in ("rows", "cols"):
        clues = getattr(puzzle, line)
        for k, v in enumerate(clues):
            if v is None:
                continue
            fewer = list(clues)
            fewer[k] = None
            out.append((line, k, puzzle.with_clues(fewer, puzzle.cols) if line == "rows"
                        else puzzle.with_clues(puzzle.rows, fewer)))
    return out


_PUZZLE_SUFFIXES = {suffix for fmt in FORMATS.values() for suffix in fmt.suffixes}


def shipped_boards() -> list:
    return sorted(p for p in INSTANCES.rglob("*") if p.suffix in _PUZZLE_SUFFIXES
                  and p.is_file() and p.name != "expected.json")


def every_format(folder) -> list[str]:
    """Each shipped board as written in every format that can hold it."""
    folder.mkdir()
    made = []
    for board in shipped_boards():
        puzzle = load(board)
        for fmt in FORMATS.values():
            if fmt.write is None:
                continue
            try:
                text = dumps(puzzle, fmt.name)
            except ThermomilpError:  # e.g. janko's format holds no Aquarium
                continue
            path = folder / f"{board.stem}-{fmt.name}{fmt.suffixes[0]}"
            path.write_text(text, encoding="utf-8")
            made.append(str(path))
    return sorted(made)


def varied_board(seed: int) -> Puzzle:
    """A planted board (1+ solutions), some clues dropped (often 2+), or one clue moved
    by one (often none)."""
    rng = random.Random(seed)
    p = planted_board(rng.randint(3, 6), rng.randint(3, 6), rng,
                      missing=rng.choice((0.0, 0.0, 0.3)))
    if rng.random() < 0.3:
        rows = list(p.rows)
        k = rng.randrange(len(rows))
        if rows[k] is not None:
            rows[k] = min(p.width, max(0, rows[k] + rng.choice((-1, 1))))
            p = p.with_clues(rows, p.cols)
    return p
