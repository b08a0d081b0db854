"""Missing-clue boards: delete line clues while the board stays unique.

Clues are tried in a seeded random order; a clue is deleted when the board without it
still has exactly one solution, asked of the logic first and of the MILP
(``rivals.find_rival``) only where interval propagation leaves cells open, with the
decided cells as bounds. Stopping after ``count`` deletions gives ``--missing-clues K``;
trying every clue gives a minimal clue set (``--minimal-clues``), which greedy deletion
reaches because uniqueness is monotone in the clue set (docs/generate.md, "Missing clues").
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from thermomilp.core.deadline import Deadline
from thermomilp.core.errors import GenerationError
from thermomilp.core.puzzle import Cell
from thermomilp.generate.paths import PathTiling
from thermomilp.generate.peel import Line
from thermomilp.generate.rivals import _RivalUndecided, check_time, find_rival, tiling_puzzle

Clues = list[int | None]


class Thinned(NamedTuple):
    rows: Clues
    cols: Clues
    deleted: int
    proof: str | None   # how the final clue set was shown unique: "logic", "milp", or
                        # None when nothing was deleted (the caller's own proof stands)


def unique_proof(tiling: PathTiling, rows: Clues, cols: Clues,
                 deadline: Deadline | None = None) -> str | None:
    """ "logic" or "milp" when the planted filling is the clues' only solution, else None
    (also when HiGHS could not decide the question after its retry: the clue stays).

    Interval propagation runs first; the MILP is asked only when it leaves
    cells open, with the decided cells as bounds. (No probing in between: it costs
    more than the MILP questions it saves; docs/journal.md, 2026-12-03.)
    """
    fixed, status = interval_cells(tiling, rows, cols)
    if status == "solved":
        return "logic"
    if status == "infeasible":  # cannot be: the planted filling is a solution
        raise GenerationError("internal error: the logic refuted the planted filling")
    try:
        rival = find_rival(tiling, rows, cols, fixed=fixed, deadline=deadline)
    except _RivalUndecided:
        return None  # not shown unique: the clue stays (the board with it is unique)
    return "milp" if rival is None else None


def interval_cells(tiling: PathTiling, rows: Sequence[int | None] | None = None,
                   cols: Sequence[int | None] | None = None
                   ) -> tuple[dict[Cell, int] | None, str]:
    """Cells interval propagation decides (sound, so they bound the rival search)."""
    from thermomilp.core.settings import Logic
    from thermomilp.logic.presolve import presolve_cells

    fixed, _, status = presolve_cells(tiling_puzzle(tiling, rows, cols), Logic.INTERVALS)
    return fixed, status


def thin_clues(rows: Sequence[int | None], cols: Sequence[int | None], rng: random.Random,
               shown: Callable[[Clues, Clues, Line], str | None], *,
               count: int | None = None, until: Callable[[Clues, Clues], bool] | None = None,
               deadline: Deadline | None = None,
               lines: list[Line] | None = None) -> tuple[Clues, Clues, list[str]]:
    """The greedy deletion of both generators: each clue in turn (``lines``, else every clue
    in a random order) is deleted while ``shown(rows, cols, line)`` names how the board
    without it was proven unique (else the clue stays); at most ``count`` deletions, and
    none after ``until(rows, cols)`` holds. Returns the clues and each deletion's proof."""
    rows, cols = list(rows), list(cols)
    if lines is None:
        slots = [("r", i) for i, v in enumerate(rows) if v is not None]
        slots += [("c", j) for j, v in enumerate(cols) if v is not None]
        rng.shuffle(slots)
    else:
        slots = [(kind, k) for kind, k in lines
                 if (rows if kind == "r" else cols)[k] is not None]
    proofs: list[str] = []
    for line, k in slots:
        if count is not None and len(proofs) >= count:
            break
        check_time(deadline, "clue deletion")
        target = rows if line == "r" else cols
        kept, target[k] = target[k], None
        proof = shown(rows, cols, (line, k))
        if proof is None:
            target[k] = kept
            continue
        proofs.append(proof)
        if until is not None and until(rows, cols):
            break
    return rows, cols, proofs


def delete_clues(tiling: PathTiling, rows: Clues, cols: Clues, rng: random.Random, *,
                 count: int | None = None,
                 until: Callable[[Clues, Clues], bool] | None = None,
                 accept: Callable[[Clues, Clues], bool] | None = None,
                 deadline: Deadline | None = None,
                 lines: list[Line] | None = None) -> Thinned:
    """Clues with up to ``count`` (None: as many as possible) deleted; how many, and how
    the result was proven unique.

    ``until(rows, cols)``, when given, is asked after each deletion and stops
    the deletions when it returns True (the generator's "hard enough yet?").
    ``accept(rows, cols)``, when given, must hold for a deletion to stand
    (asked before uniqueness; the generator's "not too hard").
    ``lines``: the clues to try, in this order (``("r", i)``/``("c", j)``),
    instead of every clue in a random order.
    ``deadline``: the board's clock, checked before each clue and handed to the engine;
    past it [`GenerationTimeUp`][thermomilp.core.errors.GenerationTimeUp].
    """
    def shown(rows: Clues, cols: Clues, _: Line) -> str | None:
        if accept is None or accept(rows, cols):
            return unique_proof(tiling, rows, cols, deadline=deadline)
        return None

    rows, cols, proofs = thin_clues(rows, cols, rng, shown, count=count, until=until,
                                    deadline=deadline, lines=lines)
    return Thinned(rows, cols, len(proofs), proofs[-1] if proofs else None)
