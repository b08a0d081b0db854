"""SVG pictures: well-formed XML, one mercury mark per filled thermometer, renderable."""

from __future__ import annotations

import random
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from thermomilp.cli.main import main
from thermomilp.core.puzzle import levels_from_grid
from thermomilp.formats import load
from thermomilp.pictures.svg import MERCURY, WATER, board_svg

from helpers import INSTANCES, random_aquarium

NS = "{http://www.w3.org/2000/svg}"
T03 = INSTANCES / "thermometers" / "t03_6x6.txt"


def test_thermometers_svg_draws_mercury_from_the_bulb():
    puzzle = load(T03)
    grid = puzzle.solution
    root = ET.fromstring(board_svg(puzzle, grid))
    assert root.tag == NS + "svg"
    mercury_bulbs = [e for e in root.iter(NS + "circle") if e.get("fill") == MERCURY]
    levels = levels_from_grid(puzzle, grid)
    assert len(mercury_bulbs) == sum(1 for lvl in levels if lvl > 0)
    tubes = [e for e in root.iter(NS + "path") if e.get("stroke") == MERCURY]
    assert len(tubes) == sum(1 for lvl in levels if lvl > 1)
    # every clue is printed, and every thermometer's label (the hints' names)
    texts = [e.text for e in root.iter(NS + "text") if e.get("class") != "vessel-label"]
    assert texts == [str(v) for v in puzzle.cols] + [str(v) for v in puzzle.rows]
    labels = [e.text for e in root.iter(NS + "text") if e.get("class") == "vessel-label"]
    assert labels == [v.label for v in puzzle.vessels]


def test_unsolved_board_has_no_mercury():
    root = ET.fromstring(board_svg(load(T03)))
    assert not [e for e in root.iter() if e.get("fill") == MERCURY or e.get("stroke") == MERCURY]


def test_aquarium_svg_has_one_water_cell_per_filled_cell():
    puzzle = random_aquarium(5, 6, random.Random(2))
    root = ET.fromstring(board_svg(puzzle, puzzle.solution))
    water = [e for g in root.iter(NS + "g") if g.get("fill") == WATER for e in g]
    assert len(water) == sum(row.count("#") for row in puzzle.solution)
    labels = [e.text for e in root.iter(NS + "text") if e.get("class") == "vessel-label"]
    assert labels == [v.label for v in puzzle.vessels]


def test_cli_writes_svg_for_solve_and_show(tmp_path, capsys):
    out = tmp_path / "pic.svg"
    assert main(["solve", str(T03), "--svg", str(out)]) == 0
    ET.parse(out)
    assert main(["show", str(T03), str(INSTANCES / "thermometers" / "t01_4x4.txt"),
                 "--svg", str(out)]) == 0
    ET.parse(tmp_path / "pic-t03_6x6.svg")
    ET.parse(tmp_path / "pic-t01_4x4.svg")


@pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                    reason="rsvg-convert not installed (apt-get install -y librsvg2-bin)")
def test_svg_renders_to_png(tmp_path):
    puzzle = load(T03)
    svg = tmp_path / "board.svg"
    svg.write_text(board_svg(puzzle, puzzle.solution))
    png = tmp_path / "board.png"
    subprocess.run(["rsvg-convert", str(svg), "-o", str(png)], check=True, timeout=60)
    data = png.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 1000
