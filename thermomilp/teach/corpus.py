"""The boards a student's model is graded on: a folder, or the corpus shipped with the package."""

from __future__ import annotations

import os
from pathlib import Path

from thermomilp.core.errors import ConfigError, GradeError
from thermomilp.core.files import write_whole
from thermomilp.core.puzzle import Puzzle

PACKAGE_DIR = Path(__file__).resolve().parent.parent
LARGE = "large"  # the bundled corpus's folder of boards larger than 10x10


def default_corpus(kind: str) -> Path:
    """The bundled puzzles of ``kind``: in the installed package, or in the source checkout."""
    for root in (PACKAGE_DIR / "_instances", PACKAGE_DIR.parent / "instances"):
        if (root / kind).is_dir():
            return root / kind
    raise GradeError(f"no bundled {kind} corpus in this installation; give one with --corpus DIR")


def kit_dir() -> Path:
    """The teaching kit (``models/``: .mod files, example students, solutions): in the
    installed package (``thermomilp/_models``), or in the source checkout."""
    for root in (PACKAGE_DIR / "_models", PACKAGE_DIR.parent / "models"):
        if (root / "students").is_dir():
            return root
    raise GradeError("no teaching kit in this installation (build the wheel from the "
                     "repository: it ships models/ as thermomilp/_models)")


def copy_kit(target: str | os.PathLike, solutions: bool = False) -> list[Path]:
    """Copy the kit to ``target``/models (the example students and the model files; the
    solutions only when asked). Existing files are left alone. Returns the files written."""
    source = kit_dir()
    dest_root = Path(target) / "models"
    written = []
    for path in sorted(source.rglob("*")):
        rel = path.relative_to(source)
        dest = dest_root / rel
        if (not path.is_file() or "__pycache__" in rel.parts or path.suffix not in (".py", ".mod")
                or rel.parts[0] == "solutions" and not solutions or dest.exists()):
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        write_whole(dest, path.read_bytes())
        written.append(dest)
    return written


def copy_boards(target: str | os.PathLike, kind: str = "thermometers") -> list[Path]:
    """Write the bundled boards of ``kind`` to ``target`` without their solutions (the
    grader finds every solution itself): a corpus to mount where student code runs."""
    from thermomilp.formats import dumps

    _, boards = corpus_boards(None, kind)
    folder = Path(target)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, puzzle in boards:
        dest = folder / Path(name).name
        write_whole(dest, dumps(puzzle.with_solution(None)))
        written.append(dest)
    return written


def corpus_boards(corpus: str | os.PathLike | None, kind: str | None = None
                  ) -> tuple[str, list[tuple[str, Puzzle]]]:
    """(kind, [(file, puzzle)]) for every board file of a folder, sorted by name.

    A folder given is listed as ``batch`` lists one, by the one walker of board files
    ([`thermomilp.formats.inputs.expand_inputs`][thermomilp.batch.expand_inputs]: every format
    ``solve`` reads, at any depth, answer files such as ``expected.json`` left out) and each file is
    read by [`thermomilp.formats.load`][thermomilp.formats.load]. The bundled corpus is its folder's
    boards and those of its ``large`` folder.

    ``kind`` picks the puzzle when the folder holds both; by default it is
    the kind of the folder's files (``thermometers`` for the bundled corpus).
    """
    from thermomilp.formats import load
    from thermomilp.formats.inputs import expand_inputs

    bundled = corpus is None
    folder = Path(corpus) if corpus is not None else default_corpus(kind or "thermometers")
    if not folder.is_dir():
        raise GradeError(f"{folder}: no such folder (give a corpus with --corpus DIR)")
    if bundled:
        # boards wider and taller than 10, square and not (made by thermomilp generate): a
        # model that keys cells by 10 * i + j, or mixes up height and width, fails there
        patterns = [str(folder / "*")] + ([str(folder / LARGE / "*")]
                                          if (folder / LARGE).is_dir() else [])
    else:
        patterns = [str(folder)]
    try:
        paths = expand_inputs(patterns)
    except ConfigError:  # the folder holds no board file
        paths = []
    found: dict[str, list[tuple[str, Puzzle]]] = {}
    for path in map(Path, paths):
        puzzle = load(path)
        if getattr(puzzle, "rule", "tank") != "tank":
            raise GradeError(f"{path}: an Aquarium board under the {puzzle.rule} rule; the "
                             "grading contract (one waterline per tank, vessel.layers = "
                             "the tank's rows) is the tank rule")
        name = (f"{folder.name}/{path.relative_to(folder).as_posix()}" if bundled
                else str(path))
        found.setdefault(puzzle.kind, []).append((name, puzzle))
    if kind is None:
        if len(found) > 1:
            raise GradeError(f"{folder}: holds both Thermometers and Aquarium boards; say which "
                             "with --puzzle")
        kind = next(iter(found), "thermometers")
    if not found.get(kind):
        raise GradeError(f"{folder}: holds no {kind} puzzle file")
    return kind, found[kind]
