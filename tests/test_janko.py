"""janko.at's files in both forms: bracketed sections (the site's own) and bare names.

The corpus (../shared/corpus/janko-6x6) holds the bare form; the bracketed form
is made from it on the fly, the way janko.at writes it ([setup], [moves], [end]),
with an unknown section thrown in, and must read to the same board and answer.
"""

from __future__ import annotations

import re

import pytest

from thermomilp.core.errors import PuzzleError
from thermomilp.core.verify import solution_problems
from thermomilp.formats import detect, dumps, loads

from helpers import janko_files, needs_corpus

NAMES = ("clabels", "rlabels", "labels", "solution")


def bracketed(bare: str) -> str:
    """janko.at's layout of a bare-form file."""
    lines = []
    for line in bare.splitlines():
        word = line.strip()
        lines.append(f"[{word}]" if word in NAMES else line)
    size = len(lines[lines.index("[clabels]") + 1].split())
    return "\n".join(["[setup]", "puzzle = thermometer", f"size = {size}",
                      "author = somebody", "[info]", "anything = at all", *lines,
                      "[moves]", "some move list", "[end]", "trailing words"]) + "\n"


def _same(a, b) -> bool:
    return (a.rows, a.cols, [v.layers for v in a.vessels], a.solution) == \
        (b.rows, b.cols, [v.layers for v in b.vessels], b.solution)


@needs_corpus
@pytest.mark.parametrize("path", janko_files(), ids=lambda p: p.name)
def test_corpus_reads_in_both_forms_and_writes_janko_form(path):
    bare = path.read_text()
    brackets = bracketed(bare)
    assert detect(brackets, "x.txt").name == "janko"
    a, b = loads(bare), loads(brackets)
    assert _same(a, b)
    assert b.solution is not None and solution_problems(b, b.solution) == []
    written = dumps(a, "janko")
    assert written.startswith("[setup]\npuzzle = thermometer\nsize = 6\n[clabels]\n")
    assert written.rstrip().endswith("[moves]\n[end]")
    assert _same(loads(written), a)


@needs_corpus
def test_corpus_solves_in_the_bracketed_form():
    from thermomilp.solving import solve

    for path in janko_files():
        p = loads(bracketed(path.read_text()))
        result = solve(p)
        assert result.status == "unique", path.name
        assert result.grid == p.solution, path.name


BOARD = "[setup]\npuzzle = thermometer\nsize = 2\n[clabels]\n1 1\n[rlabels]\n1 1\n" \
        "[labels]\n1.1 1.2\n2.1 2.2\n[end]\n"


@pytest.mark.parametrize("edit, message", [
    (("puzzle = thermometer", "puzzle = sudoku"), "holds a 'sudoku' puzzle"),
    (("size = 2", "size = 3"), "size = 3 but the grid is 2x2"),
    (("size = 2", "size = " + "9" * 5000), "is not a whole number"),
    (("size = 2", "size 2"), "is not 'key = value'"),
    (("1.1 1.2", "1.1 1." + "9" * 5000), "not T.K"),
])
def test_setup_is_checked(edit, message):
    with pytest.raises(PuzzleError, match=re.escape(message)):
        loads(BOARD.replace(*edit), "b.janko")


def test_nothing_after_end_is_read():
    p = loads(BOARD + "[labels]\ngarbage\n")
    assert p.shape == (2, 2)


@needs_corpus
def test_corpus_keeps_its_published_answer_in_every_writable_form():
    from thermomilp.solving import solve

    for path in janko_files():
        board = loads(bracketed(path.read_text()))
        for fmt in ("site", "json", "text", "janko"):
            again = loads(dumps(board, fmt))
            result = solve(again)
            assert result.status == "unique", (path.name, fmt)
            assert result.grid == board.solution, (path.name, fmt)
