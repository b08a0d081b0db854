"""models/*.mod solved for real by glpsol, and the Pyomo AbstractModel, on exported .dat."""

from __future__ import annotations

import importlib.util
import random
import shutil
import subprocess

import pytest

from thermomilp.cli.main import main
from thermomilp.core.verify import solution_problems
from thermomilp.formats import load
from thermomilp.solving import enumerate_solutions, solve
from thermomilp.teach.export import to_dat

from helpers import ROOT, expected_status, instance_files, random_aquarium

MODELS = ROOT / "models"
needs_glpsol = pytest.mark.skipif(shutil.which("glpsol") is None,
                                  reason="glpsol not installed (Debian: glpk-utils)")


def glpsol_grid(mod: str, dat_path) -> list[str] | None:
    """The grid glpsol prints ("GRID ..." lines), None when it finds no solution."""
    run = subprocess.run(["glpsol", "-m", str(MODELS / mod), "-d", str(dat_path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    grid = [line[5:] for line in run.stdout.splitlines() if line.startswith("GRID ")]
    if not grid:
        # glpsol stops before the printf block when it proves infeasibility
        assert "NO PRIMAL FEASIBLE SOLUTION" in run.stdout or "NO INTEGER FEASIBLE" in run.stdout
        return None
    assert "INTEGER OPTIMAL SOLUTION FOUND" in run.stdout, run.stdout
    return grid


def check_against_package(puzzle, grid, status):
    if status == "infeasible":
        assert grid is None
        return
    assert grid is not None
    assert solution_problems(puzzle, grid) == []
    if status == "unique":
        assert tuple(grid) == solve(puzzle).grid


@needs_glpsol
@pytest.mark.parametrize("path", instance_files(), ids=lambda p: p.stem)
def test_glpsol_thermometers_mod_reproduces_the_package(path, tmp_path):
    dat = tmp_path / "board.dat"
    assert main(["export", str(path), "--to", "dat", "-o", str(dat)]) == 0
    check_against_package(load(path), glpsol_grid("thermometers.mod", dat), expected_status(path))


@needs_glpsol
@pytest.mark.parametrize("seed", range(6))
def test_glpsol_aquarium_mod_on_random_tanks(seed, tmp_path):
    puzzle = random_aquarium(5, 5, random.Random(seed))
    dat = tmp_path / "board.dat"
    dat.write_text(to_dat(puzzle))
    grid = glpsol_grid("aquarium.mod", dat)
    solutions = set(enumerate_solutions(puzzle, limit=2))
    assert grid is not None and tuple(grid) in solutions
    if len(solutions) == 1:
        assert tuple(grid) == solve(puzzle).grid


# glpsol's branch and bound needs seconds on a 15x15 Aquarium (pairwise model):
# the test keeps to boards up to 12x12 so the suite stays quick.
SMALL_AQUARIUMS = [p for p in instance_files("aquarium")
                   if load(p).height * load(p).width <= 144]


@needs_glpsol
@pytest.mark.parametrize("path", SMALL_AQUARIUMS, ids=lambda p: p.stem)
def test_glpsol_aquarium_mod_reproduces_the_package_on_instances(path, tmp_path):
    dat = tmp_path / "board.dat"
    assert main(["export", str(path), "--to", "dat", "-o", str(dat)]) == 0
    check_against_package(load(path), glpsol_grid("aquarium.mod", dat), expected_status(path))


@needs_glpsol
def test_glpsol_aquarium_mod_proves_an_impossible_board(tmp_path):
    base = random_aquarium(4, 4, random.Random(3))
    rows = list(base.rows)
    rows[0] = (rows[0] + 1) % 5  # row total no longer matches the column total
    puzzle = base.with_clues(rows, base.cols)
    assert solve(puzzle).status == "infeasible"
    dat = tmp_path / "board.dat"
    dat.write_text(to_dat(puzzle))
    assert glpsol_grid("aquarium.mod", dat) is None


def _abstract_model():
    spec = importlib.util.spec_from_file_location("thermometers_abstract",
                                                  MODELS / "thermometers_abstract.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", instance_files(),
                         ids=lambda p: p.stem)
def test_pyomo_abstract_model_reads_the_same_dat(path, tmp_path):
    dat = tmp_path / "board.dat"
    dat.write_text(to_dat(load(path)))
    check_against_package(load(path), _abstract_model().solve_dat(str(dat)),
                          expected_status(path))
