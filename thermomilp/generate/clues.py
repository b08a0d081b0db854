"""Missing-clue boards: delete line clues while the board stays unique.

Clues are tried in a seeded random order; a clue is deleted when the board
without it still has exactly one solution. That is asked of the logic first:
when interval propagation decides every cell, no rival can exist. Only when
the logic leaves cells open is the MILP asked (``rivals.find_rival``, the
cell model with the planted solution's no-good cut), with the cells the
logic decided as bounds -- sound deductions, so the
answer is the same and the model small. Stopping after ``count`` deletions gives the
``--missing-clues K`` variant; trying every clue gives a **minimal** clue set
(``--minimal-clues``): every clue left is load-bearing. Greedy deletion is
enough for minimality because uniqueness is monotone in the clue set --
a clue whose deletion broke uniqueness while more clues were present breaks
it also after further deletions (fewer clues, more rivals).
"""

from __future__ import annotations

import random
from typing import Callable, NamedTuple

from thermomilp.core.deadline import Deadline
from thermomilp.core.errors import GenerationError
from thermomilp.core.puzzle import thermometers
from thermomilp.generate.paths import PathTiling
from thermomilp.generate.rivals import _RivalUndecided, check_time, find_rival

Clues = list[int | None]


class Thinned(NamedTuple):
    rows: Clues
    cols: Clues
    deleted: int
    proof: str | None   # how the final clue set was shown unique: "logic", "milp", or
                        # None when nothing was deleted (the caller's own proof stands)


def unique_proof(tiling: PathTiling, rows: Clues, cols: Clues,
                 time_limit: float | None = None,
                 deadline: Deadline | None = None) -> str | None:
    """ "logic" or "milp" when the planted filling is the clues' only solution, else None
    (also when HiGHS could not decide the question after its retry: the clue stays).

    Interval propagation runs first; the MILP is asked only when it leaves
    cells open, with the decided cells as bounds. (No probing in between: it costs
    more than the MILP questions it saves; docs/journal.md, 2026-12-03.)
    """
    from thermomilp.core.settings import Logic
    from thermomilp.logic.presolve import presolve_cells

    fixed, _, status = presolve_cells(thermometers(rows, cols, tiling.paths()), Logic.INTERVALS)
    if status == "solved":
        return "logic"
    if status == "infeasible":  # cannot be: the planted filling is a solution
        raise GenerationError("internal error: the logic refuted the planted filling")
    try:
        rival = find_rival(tiling, rows, cols, fixed=fixed, time_limit=time_limit,
                           deadline=deadline)
    except _RivalUndecided:
        return None  # not shown unique: the clue stays (the board with it is unique)
    return "milp" if rival is None else None


def delete_clues(tiling: PathTiling, rows: Clues, cols: Clues, rng: random.Random, *,
                 count: int | None = None,
                 until: Callable[[Clues, Clues], bool] | None = None,
                 accept: Callable[[Clues, Clues], bool] | None = None,
                 deadline: Deadline | None = None,
                 lines: list[tuple[str, int]] | None = None) -> Thinned:
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
    rows, cols = list(rows), list(cols)
    if lines is None:
        slots = [("r", i) for i, v in enumerate(rows) if v is not None]
        slots += [("c", j) for j, v in enumerate(cols) if v is not None]
        rng.shuffle(slots)
    else:
        slots = [(kind, k) for kind, k in lines
                 if (rows if kind == "r" else cols)[k] is not None]
    deleted = 0
    proof = None
    for line, k in slots:
        if count is not None and deleted >= count:
            break
        target = rows if line == "r" else cols
        kept = target[k]
        target[k] = None
        check_time(deadline, "clue deletion")
        shown = None
        if accept is None or accept(rows, cols):
            shown = unique_proof(tiling, rows, cols, deadline=deadline)
        if shown is not None:
            deleted += 1
            proof = shown
            if until is not None and until(rows, cols):
                break
        else:
            target[k] = kept
    return Thinned(rows, cols, deleted, proof)


