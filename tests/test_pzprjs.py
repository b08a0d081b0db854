"""pzprjs itself (robx/pzprjs, the code behind puzz.link) reads what we write and
agrees with our checker on the pool and tank rules.

Runs only when ``THERMOMILP_PZPRJS`` names a built ``dist/js/pzpr.js`` (with its
``pzpr-variety`` folder beside it) and ``node`` is on the PATH; skips otherwise.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from test_aquarium_pool import random_filling, random_regions

from thermomilp.core.puzzle import aquarium
from thermomilp.core.verify import solution_problems
from thermomilp.formats import dumps

PZPRJS = os.environ.get("THERMOMILP_PZPRJS", "")
SCRIPT = Path(__file__).with_name("pzprjs") / "decode_and_check.js"
pytestmark = pytest.mark.skipif(
    not (PZPRJS and Path(PZPRJS).is_file() and shutil.which("node")),
    reason="set THERMOMILP_PZPRJS to a built pzprjs dist/js/pzpr.js (and install node)")


def pzprjs(jobs: list[dict]) -> list[dict]:
    run = subprocess.run(["node", str(SCRIPT), PZPRJS], input="\n".join(map(json.dumps, jobs)),
                         capture_output=True, text=True, timeout=300, check=True)
    return [json.loads(line) for line in run.stdout.splitlines()]


def _boards(n: int, seed: int, smallest: int = 1):
    rng = random.Random(seed)
    for _ in range(n):
        h, w = rng.randint(smallest, 7), rng.randint(smallest, 7)
        rule = rng.choice(["tank", "pool"])
        regions = random_regions(rng, h, w)
        board = aquarium([None] * h, [None] * w, regions, rule=rule)
        planted = random_filling(board, rng)
        rows = [row.count("#") if rng.random() < 0.7 else None for row in planted]
        cols = [sum(row[c] == "#" for row in planted) if rng.random() < 0.7 else None
                for c in range(w)]
        yield board.with_clues(rows, cols), planted, rng


def _partition(grid) -> list:
    cells: dict = {}
    for r, row in enumerate(grid):
        for c, label in enumerate(row):
            cells.setdefault(label, set()).add((r, c))
    return sorted(sorted(v) for v in cells.values())


def test_pzprjs_decodes_our_urls_and_pzprv3_files():
    jobs, expected = [], []
    for puzzle, _, _ in _boards(300, 1):
        for fmt in ("puzzlink", "pzprv3"):
            jobs.append({"text": dumps(puzzle, fmt).strip()})
            expected.append(puzzle)
    for got, puzzle in zip(pzprjs(jobs), expected, strict=True):
        assert (got["rows"], got["cols"]) == puzzle.shape
        assert got["r"] == (puzzle.rule == "tank")
        assert _partition(got["rooms"]) == _partition(puzzle.region_grid())
        assert [None if v < 0 else v for v in got["colclues"]] == list(puzzle.cols)
        assert [None if v < 0 else v for v in got["rowclues"]] == list(puzzle.rows)


def test_pzprjs_checker_agrees_with_ours_on_both_rules():
    jobs, ours = [], []
    # At least 2x2: on a board one cell wide pzprjs compares each row's count with the
    # column clue too (isExCellCount looks at the clue above any one-column run).
    for puzzle, planted, rng in _boards(300, 2, smallest=2):
        h, w = puzzle.shape
        candidates = [planted, tuple("".join(rng.choice(".#") for _ in range(w))
                                     for _ in range(h))]
        flipped = [list(row) for row in planted]
        r, c = rng.randrange(h), rng.randrange(w)
        flipped[r][c] = "." if flipped[r][c] == "#" else "#"
        candidates.append(tuple("".join(row) for row in flipped))
        for grid in candidates:
            jobs.append({"text": dumps(puzzle, "puzzlink").strip(), "grid": list(grid)})
            # pzprjs also refuses a board without any water ("brNoShade")
            ours.append(not solution_problems(puzzle, grid) and "#" in "".join(grid))
    verdicts = pzprjs(jobs)
    disagree = [(job, v["failcode"]) for job, v, mine in zip(jobs, verdicts, ours, strict=True)
                if v["complete"] != mine]
    assert disagree == []
