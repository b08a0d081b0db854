"""Name the student's mistakes from evidence, never from a guess.

Evidence, for the mistakes of `thermomilp.teach.catalogue`:

* **probe grids** (`thermomilp.teach.probes`): the student's model is
  built on small probe boards and its cells fixed to each probe grid;
  accepted / rejected is compared with every variant of the rules
  (`thermomilp.teach.rules.variants`). The variants that behave exactly
  like the model on every probe are the explanations; the mistakes named are
  those **every** explanation shares. The correct rules among them, or no
  explanation at all, names nothing -- then the report says what is wrong
  (the grid accepted or rejected, the constraints that forbid it) and no cause.
* **variable types and optima** for ``continuous-variables``: the model has
  no integer variable at all, or an optimum of the model as written fills a
  cell by a fraction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from thermomilp.core.puzzle import Puzzle, ones_of
from thermomilp.teach.catalogue import MISTAKES
from thermomilp.teach.checks import BoardGrade, broken_rules, forbidding, grid_text, picture
from thermomilp.teach.linear import Run, accepts, solve
from thermomilp.teach.probes import Probe, grid_of_bits, grids_within, probes
from thermomilp.teach.rules import CLUES, FILL, TIES, Rules, variants
from thermomilp.teach.sandbox import Built


@dataclass
class Diagnosis:
    mistakes: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)  # one line per mistake named, or per oddity
    checks: dict[str, str] = field(default_factory=dict)  # per part of the rules: `_families`


def diagnose(kind: str, probe_boards: Sequence[Puzzle], probe_builds: Sequence[Built],
             corpus: Sequence[tuple[Built, BoardGrade]],
             exact: dict[int, set[int]] | None = None,
             time_limit: float | None = None) -> Diagnosis:
    """``exact``: probe board -> every 0/1 grid the model accepts there. A combination of
    mistakes explains the model only if it accepts exactly those grids on every such board,
    so an id is never named for a model that only looks like it on the chosen probe grids.
    ``time_limit``: seconds for each HiGHS run on the model (None: no limit)."""
    found = Diagnosis()
    _continuous(probe_builds, corpus, found, time_limit)
    _from_an_optimum("cells-not-binary", "gives a cell a value outside 0..1",
                     lambda g: g.out_of_range, lambda run: bool(run.cells_out_of_range()),
                     probe_builds, corpus, found, time_limit)
    vs = variants(kind)
    observed = [(probe, seen) for probe in probes(kind)
                if (model := probe_builds[probe.board].model) is not None
                and (seen := accepts(model, probe.grid, time_limit)) is not None]
    failed = [f"on a probe board your build failed: {b.message}"
              for b in probe_builds if b.model is None][:1]
    if not observed:
        found.evidence += failed
        return found
    on_probes = [k for k, _ in enumerate(vs)
                 if all(p.allowed(kind, k, seen) for p, seen in observed)]
    # exactly, or within the range a missing tie allows (`thermomilp.teach.rules.allows`)
    def within(k: int, b: int, grids: set[int]) -> bool:
        must, may = grids_within(kind, b, vs[k])
        return must <= grids <= may

    fits = [k for k in on_probes if all(within(k, b, grids) for b, grids in (exact or {}).items()
                                        if vs[k].predicts(probe_boards[b]))]
    correct = vs.index(Rules())
    # a combination that fits exactly explains the model better than a range does (a tank
    # filled as one chain leaves its rows untied in one known way: tank-as-chain, not
    # missing-tie); the ranges count only when nothing fits exactly
    fits = [k for k in fits if vs[k].ties != "missing"] or fits
    found.checks.update(_families(kind, vs, fits))
    if fits and correct not in fits:
        shared = frozenset.intersection(*(vs[k].mistakes() for k in fits))
        for mistake in MISTAKES:
            if mistake in shared:
                found.mistakes.append(mistake)
                found.evidence.append(_witness(mistake, vs, fits, observed, probe_boards,
                                               probe_builds, time_limit))
    odd = next(((p, s) for p, s in observed if p.obeyed_by[correct] != s), None)
    if not fits and odd is not None:  # else the probe boards' own grades say what is wrong
        found.evidence.append(_seen_on(*odd, probe_boards, probe_builds, time_limit))
    if not fits and on_probes:
        found.evidence.append(_unexplained(kind, vs, on_probes, exact or {}, probe_boards,
                                           probe_builds, time_limit))
    found.evidence += failed
    return found


def _unexplained(kind: str, vs: Sequence[Rules], candidates: Sequence[int],
                 exact: dict[int, set[int]], boards: Sequence[Puzzle],
                 builds: Sequence[Built], time_limit: float | None = None) -> str:
    """Why no id is named although the probe grids look like a mistake: a probe board where
    the model's grids differ from every such combination's, with the student's own rows."""
    for k in candidates:
        for b, found in sorted(exact.items()):
            if not vs[k].predicts(boards[b]):
                continue
            must, may = grids_within(kind, b, vs[k])
            puzzle, model = boards[b], builds[b].model
            assert model is not None
            h, w = puzzle.height, puzzle.width
            like = (", ".join(sorted(vs[k].mistakes())) or "the rules")
            where = f"probe board {b + 1} ({_describe(puzzle)})"
            head = (f"no mistake of the catalogue explains your model: on the small probe "
                    f"grids it behaves like {like}, but on {where}")
            forbidden = sorted(must - found, key=lambda g: (bin(g).count("1"), g))
            if forbidden:
                grid = grid_of_bits(forbidden[0], h, w)
                return (f"{head} it forbids {grid_text(grid)}, which {like} would allow"
                        + forbidding(builds[b], grid, time_limit)
                        + f"\n{picture(puzzle, grid)}")
            extra = sorted(found - may, key=lambda g: (bin(g).count("1"), g))
            if extra:
                grid = grid_of_bits(extra[0], h, w)
                # none of the student's rows forbids it: quote those on its filled cells
                cell_of = model.cell_var()
                filled = ones_of(grid)
                near = sorted((r for r in model.rows
                               if any(cell_of.get(v) in filled for v in r.terms)),
                              key=lambda r: -sum(cell_of.get(v) in filled for v in r.terms))
                rows = [r.text for r in near[:3]]
                quoted = ("; no constraint of yours forbids it -- those on its filled cells: "
                          + "; ".join(rows)) if rows else ""
                return (f"{head} it accepts {grid_text(grid)}, which {like} would forbid "
                        f"({broken_rules(puzzle, grid) or 'the rules allow it'}){quoted}"
                        f"\n{picture(puzzle, grid)}")
    return "no mistake of the catalogue explains your model on every probe board"


FAMILIES = (("precedence", "fill", FILL), ("clues", "clues", CLUES), ("ties", "ties", TIES))


def _families(kind: str, vs: Sequence[Rules], fits: Sequence[int]) -> dict[str, str]:
    """Each part of the rules (precedence, clues, ties) as the evidence says: "ok" or one
    mistake's id when every combination that fits agrees, else "?"; ties "n/a" but for Aquarium."""
    out = {}
    for column, attr, ids in FAMILIES:
        ways = {getattr(vs[k], attr) for k in fits}
        if column == "ties" and kind != "aquarium":
            out[column] = "n/a"
        elif len(ways) != 1:
            out[column] = "?"
        else:
            out[column] = "ok" if (way := ways.pop()) == "correct" else str(ids[way])
    return out


def _continuous(probe_builds: Sequence[Built], corpus: Sequence[tuple[Built, BoardGrade]],
                found: Diagnosis, time_limit: float | None = None) -> None:
    models = [b.model for b in probe_builds if b.model is not None] + \
             [b.model for b, _ in corpus if b.model is not None]
    if models and all(not any(m.integer) for m in models):
        found.mistakes.append("continuous-variables")
        found.evidence.append("continuous-variables: your model declares no integer or binary "
                              "variable")
        return
    _from_an_optimum("continuous-variables", "fills a cell by a fraction",
                     lambda g: g.fractional, lambda run: bool(run.fractional_cells()),
                     probe_builds, corpus, found, time_limit)


def _from_an_optimum(mistake: str, what: str, on_board: Callable[[BoardGrade], bool],
                     on_run: Callable[[Run], bool], probe_builds: Sequence[Built],
                     corpus: Sequence[tuple[Built, BoardGrade]], found: Diagnosis,
                     time_limit: float | None = None) -> None:
    """Name ``mistake`` when an optimum of the model as written shows it: a corpus board's
    solve (already done by the checks), else a probe board's."""
    where = next((g.file for _, g in corpus if on_board(g)), None)
    if where is None and any(b.model is not None and on_run(solve(b.model, time_limit=time_limit))
                             for b in probe_builds):
        where = "a probe board"
    if where is not None:
        found.mistakes.append(mistake)
        found.evidence.append(f"{mistake}: on {where} your model's optimum {what}")


def _witness(mistake: str, vs: list[Rules], fits: list[int], observed, boards, builds,
             time_limit: float | None = None) -> str:
    """One probe where the mistake shows: the model agrees with it, not with the rules."""
    correct = vs.index(Rules())
    without = [k for k, v in enumerate(vs) if mistake not in v.mistakes()]
    for probe, seen in observed:
        if probe.obeyed_by[correct] != seen and all(probe.obeyed_by[k] != seen for k in without
                                                    if k in fits or k == correct):
            return f"{mistake}: " + _seen_on(probe, seen, boards, builds, time_limit)
    return f"{mistake}: your model behaves like it on every probe grid"


def _seen_on(probe: Probe, seen: bool, boards: Sequence[Puzzle], builds: Sequence[Built],
             time_limit: float | None = None) -> str:
    """What the model does with ``probe``'s grid (``seen``: accepts it) that the rules do
    not, with the picture."""
    puzzle, grid = boards[probe.board], probe.grid
    did = (f"accepts {grid_text(grid)}, which the rules forbid: {broken_rules(puzzle, grid)}"
           if seen else f"forbids {grid_text(grid)}, a grid the rules allow"
           + forbidding(builds[probe.board], grid, time_limit))
    return (f"on probe board {probe.board + 1} ({_describe(puzzle)}) your model {did}\n"
            f"{picture(puzzle, grid)}")


def _describe(puzzle: Puzzle) -> str:
    def clues(cs) -> str:
        return " ".join("-" if c is None else str(c) for c in cs)

    return f"rows {clues(puzzle.rows)}, columns {clues(puzzle.cols)}"
