"""The JSON API behind the page: one method per endpoint, no HTTP in sight.

Every endpoint takes a JSON object and returns one; bad input raises
[`ApiError`][thermomilp.core.errors.ApiError] with an HTTP status and a sentence for the player. The
server (`thermomilp.web.server`) only moves bytes and maps the error to
a response. The API is stateless: the page sends the puzzle (interchange
JSON, docs/contract.md) and its marks (rows of ``#``/``.``/``?``) with each call.
The endpoints' requests and responses: docs/serve.md, "JSON API".

An upload (``load`` with ``text``) is read by `read_upload` alone.
``rows`` and ``relax`` teach the model (`thermomilp.web.modelview`): every
row of the cell formulation under its LP-file name, and the LP relaxation.

Limits: a request body of at most `MAX_BODY` bytes (enforced by the
server), boards of at most `MAX_SIDE` rows and columns, new boards of
at most ``thermomilp.web.newboard.MAX_SIDE[kind]``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable

from thermomilp.core.errors import ApiError, BoardTooLarge, PuzzleError, ThermomilpError
from thermomilp.core.notation import EMPTY, FILLED, UNDECIDED
from thermomilp.core.puzzle import Cell, Puzzle
from thermomilp.core.settings import Backend, Settings
from thermomilp.formats import SizeLimits, json_format
from thermomilp.formats.inputs import PUZZLE_SUFFIXES
from thermomilp.web.instances import catalogue, load_instance

MAX_BODY = 256 * 1024
MAX_SIDE = 30
LIMITS = SizeLimits(max_side=MAX_SIDE, max_cells=MAX_SIDE * MAX_SIDE)
"""What the readers may build for this server: checked before allocation."""
MIN_NEW_SIDE = 3
SOLVE_SECONDS = 30.0
CONCURRENT_SOLVES = 2


def server_settings(settings: Settings | None = None) -> Settings:
    """The settings the server solves with (resolved once, at start-up): the
    user's, with the time limit capped at `SOLVE_SECONDS` and no engine
    log (a request must not write to the server's terminal)."""
    settings = settings or Settings()
    limit = min(settings.time_limit or SOLVE_SECONDS, SOLVE_SECONDS)
    return settings.replace(time_limit=limit, verbose=False)


# -- Puzzle <-> page JSON --------------------------------------------------


def board_json(puzzle: Puzzle) -> dict[str, Any]:
    """What the page draws: clues, vessels by layer, and the puzzle to send back."""
    interchange = json_format.to_dict(puzzle)
    interchange.pop("solution", None)  # Check and Solve use the MILP, not a stored answer
    return {
        "kind": puzzle.kind,
        "rule": puzzle.rule,
        "name": puzzle.name or "",
        "height": puzzle.height,
        "width": puzzle.width,
        "rows": list(puzzle.rows),
        "cols": list(puzzle.cols),
        "vessels": [{"label": v.label, "layers": [[list(c) for c in layer] for layer in v.layers]}
                    for v in puzzle.vessels],
        "puzzle": interchange,
    }


def _too_large(what: str) -> ApiError:
    return ApiError(413, f"{what}; this server takes boards up to {MAX_SIDE}x{MAX_SIDE}")


def _check_size(height: int, width: int) -> None:
    if height > MAX_SIDE or width > MAX_SIDE:
        raise _too_large(f"the board is {height}x{width}")


def puzzle_from(payload: dict[str, Any]) -> Puzzle:
    """The ``puzzle`` member of a request: interchange JSON, validated."""
    data = payload.get("puzzle")
    if not isinstance(data, dict):
        raise ApiError(400, "the request needs a \"puzzle\" object (interchange JSON)")
    rows, cols = data.get("rows"), data.get("cols")
    if isinstance(rows, list) and isinstance(cols, list):
        _check_size(len(rows), len(cols))  # before building anything of that size
    try:
        return json_format.read(json.dumps(data), LIMITS)
    except BoardTooLarge as exc:
        raise _too_large(exc.message) from None
    except PuzzleError as exc:
        raise ApiError(400, f"bad puzzle: {exc}") from None


def marks_from(payload: dict[str, Any], puzzle: Puzzle) -> tuple[str, ...]:
    """The ``marks`` member: rows of ``#``/``.``/``?``; missing = all unknown."""
    marks = payload.get("marks")
    if marks is None:
        return tuple(UNDECIDED * puzzle.width for _ in range(puzzle.height))
    if (not isinstance(marks, list) or len(marks) != puzzle.height
            or not all(isinstance(row, str) and len(row) == puzzle.width
                       and not set(row) - {FILLED, EMPTY, UNDECIDED} for row in marks)):
        raise ApiError(400, f"\"marks\" must be {puzzle.height} strings of {puzzle.width} "
                            f"characters '{FILLED}' (filled), '{EMPTY}' (empty) or "
                            f"'{UNDECIDED}' (unknown)")
    return tuple(marks)


def read_upload(text: str, filename: str | None) -> Puzzle:
    """An uploaded file's text -> the board, through the per-file pipeline's reader
    (`thermomilp.solving.pipeline.read_input`, as ``solve`` and ``batch`` read):
    the format detected from the content (the name's suffix breaks ties), the
    server's size limits checked before anything is built, errors as
    [`ApiError`][thermomilp.core.errors.ApiError] (400, or 413 for a board too large), and a board
    without a name of its own titled by the file's name (``mine.json`` -> ``mine``)."""
    from thermomilp.solving.pipeline import read_input

    try:  # the same reader as `solve` and `batch` (one per-file pipeline)
        puzzle = read_input(text.encode("utf-8", "surrogatepass"), filename or "upload",
                            limits=LIMITS)
    except BoardTooLarge as exc:
        raise _too_large(exc.message) from None
    except PuzzleError as exc:
        raise ApiError(400, str(exc)) from None
    _check_size(puzzle.height, puzzle.width)
    if not puzzle.name and filename:
        stem = os.path.splitext(filename)[0].strip()
        if stem:
            puzzle = dataclasses.replace(puzzle, name=stem)
    return puzzle


def _int_field(payload: dict[str, Any], key: str, low: int, high: int,
               default: int | None = None) -> int:
    value = payload.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"\"{key}\" must be a whole number from {low} to {high}")
    if not low <= value <= high:
        raise ApiError(413 if value > high else 400,
                       f"\"{key}\" is {value}; it must be from {low} to {high}")
    return value


# -- Endpoints -------------------------------------------------------------


class Api:
    """The endpoints; ``call(name, payload)`` dispatches and checks the payload type."""

    GET = ("instances", "info")
    FIELDS: dict[str, tuple[str, ...]] = {
        "load": ("instance", "text", "filename"),
        "generate": ("kind", "size", "height", "width", "difficulty", "seed"),
        "hint": ("puzzle", "marks"),
        "check": ("puzzle", "marks"),
        "solve": ("puzzle",),
        "model": ("puzzle", "format"),
        "relax": ("puzzle",),
    }
    """Each POST endpoint and the members its request may have (docs/serve.md): any
    other member is refused, never ignored -- ``{"puzzle": "aquarium"}`` sent to
    ``generate`` for ``{"kind": "aquarium"}`` would otherwise make a Thermometers board."""
    POST = tuple(FIELDS)

    def __init__(self, engine: Settings | None = None):
        self.engine = server_settings(engine)
        self._solves = threading.BoundedSemaphore(CONCURRENT_SOLVES)

    def call(self, name: str, payload: Any = None) -> dict[str, Any]:
        if name not in self.GET + self.POST:
            raise ApiError(404, f"no API endpoint {name!r}; endpoints: "
                                f"{', '.join(self.GET + self.POST)}")
        if name in self.POST:
            if not isinstance(payload, dict):
                raise ApiError(400, "the request body must be a JSON object")
            unknown = sorted(set(payload) - set(self.FIELDS[name]))
            if unknown:
                raise ApiError(400, f"/api/{name} takes no "
                                    f"{', '.join(map(repr, unknown))[:200]}; "
                                    f"its members: {', '.join(self.FIELDS[name])}")
        handler: Callable[..., dict[str, Any]] = getattr(self, f"api_{name}")
        try:
            return handler(payload) if name in self.POST else handler()
        except ApiError:
            raise
        except ThermomilpError as exc:  # e.g. SolverUnavailable: the server's set-up
            raise ApiError(500 if not isinstance(exc, PuzzleError) else 400, str(exc)) from None

    # -- reading boards ----------------------------------------------------

    def api_info(self) -> dict[str, Any]:
        from thermomilp.web.newboard import MAX_SIDE as NEW_SIDE

        return {"backend": str(self.engine.backend), "solver": str(self.engine.solver),
                "time_limit": self.engine.time_limit,
                "limits": {"max_body_bytes": MAX_BODY, "max_side": MAX_SIDE,
                           "max_new_side": dict(NEW_SIDE)},
                "upload_suffixes": list(PUZZLE_SUFFIXES)}  # what the file picker offers

    def api_instances(self) -> dict[str, Any]:
        return {"instances": [entry.to_json() for entry in catalogue().values()]}

    def api_load(self, payload: dict[str, Any]) -> dict[str, Any]:
        if "instance" in payload:
            ident = payload["instance"]
            try:
                puzzle = load_instance(ident)
            except KeyError:
                raise ApiError(404, f"no bundled instance {ident!r}; "
                                    "GET /api/instances lists them") from None
            return {"board": board_json(puzzle), "source": f"instance {ident}"}
        text = payload.get("text")
        if not isinstance(text, str):
            raise ApiError(400, "send {\"instance\": id} or {\"text\": file contents}")
        filename = payload.get("filename")
        filename = os.path.basename(filename) if isinstance(filename, str) else None
        puzzle = read_upload(text, filename)
        return {"board": board_json(puzzle), "source": f"upload {filename or ''}".strip()}

    def api_generate(self, payload: dict[str, Any]) -> dict[str, Any]:
        from thermomilp.web.newboard import DIFFICULTIES, new_board
        from thermomilp.web.newboard import MAX_SIDE as NEW_SIDE

        kind = payload.get("kind", "thermometers")
        if kind not in ("thermometers", "aquarium"):
            raise ApiError(400, "\"kind\" must be \"thermometers\" or \"aquarium\"")
        most = NEW_SIDE[kind]
        size = _int_field(payload, "size", MIN_NEW_SIDE, most, 5)
        height = _int_field(payload, "height", MIN_NEW_SIDE, most, size)
        width = _int_field(payload, "width", MIN_NEW_SIDE, most, size)
        seed = payload.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ApiError(400, "\"seed\" must be a whole number")
        difficulty = payload.get("difficulty", "any")
        if difficulty not in DIFFICULTIES:
            raise ApiError(400, f"\"difficulty\" must be one of {', '.join(DIFFICULTIES)}")
        with self._solving():
            made = new_board(kind, height, width, seed, difficulty=difficulty,
                             settings=self.engine)
        return {"board": board_json(made.puzzle), "unique": made.unique, "tries": made.tries,
                "seed": made.seed, "difficulty": made.difficulty}

    # -- playing -----------------------------------------------------------

    def api_hint(self, payload: dict[str, Any]) -> dict[str, Any]:
        from thermomilp.web.hints import next_hint, page_json

        puzzle = puzzle_from(payload)
        marks = marks_from(payload, puzzle)
        hint = next_hint(puzzle, marks, solution=lambda: self._one_solution(puzzle),
                         complete=lambda fixed: self._one_solution(puzzle, dict(fixed)))
        if hint is None:
            return {"hint": None, "message": "every cell is marked: press Check"}
        shown = page_json(hint)
        return {"hint": shown, "message": f"{shown['rule']}: {shown['message']}"}

    def api_check(self, payload: dict[str, Any]) -> dict[str, Any]:
        """Do the marks so far contradict every solution? Which marks are wrong?"""
        puzzle = puzzle_from(payload)
        marks = marks_from(payload, puzzle)
        fixed = {(r, c): 1 if ch == FILLED else 0 for r, row in enumerate(marks)
                 for c, ch in enumerate(row) if ch != UNDECIDED}
        todo = puzzle.height * puzzle.width - len(fixed)
        completion = self._one_solution(puzzle, fixed)
        if completion is not None:
            done = todo == 0
            return {"consistent": True, "complete": done, "wrong": [],
                    "message": "solved: every mark is right" if done else
                    f"no contradiction so far: {len(fixed)} cells marked, {todo} to go"}
        solution = self._one_solution(puzzle)
        if solution is None:
            return {"consistent": False, "complete": False, "wrong": [],
                    "message": "this puzzle has no solution at all (the MILP is infeasible)"}
        wrong = [[r, c] for (r, c), v in sorted(fixed.items())
                 if (solution[r][c] == "#") != bool(v)]
        return {"consistent": False, "complete": False, "wrong": wrong,
                "message": f"your marks contradict the solution: {len(wrong)} wrong "
                           f"cell{'s' if len(wrong) != 1 else ''} highlighted"}

    def api_solve(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The board through the per-file pipeline of ``solve`` and ``batch``
        (`thermomilp.solving.pipeline.solve_input`: solved, uniqueness proved, an
        infeasible board explained): the record of ``thermomilp solve --format json``
        with ``"file": null``, plus ``message``, the sentence the page shows."""
        from thermomilp.solving.pipeline import solve_input

        puzzle_from(payload)  # the request's errors (400, 413) before any engine runs
        text = json.dumps(payload["puzzle"]).encode("utf-8")
        with self._solving():
            outcome = solve_input(text, self.engine, name="puzzle.json", limits=LIMITS)
        if outcome.result is None:
            raise ApiError(400, f"bad puzzle: {outcome.error}")
        result = outcome.result
        record = outcome.record()
        record["file"] = None  # the page sends a board, not a file
        record["message"] = {
            "unique": "the solution is unique (a no-good cut makes the MILP infeasible)",
            "multiple": "there is more than one solution: a second one is shown",
            "infeasible": "the puzzle has no solution"
                          + (f": {result.conflict_text()}" if result.conflict else ""),
            "timeout": f"no answer within {self.engine.time_limit:g} s",
            "error": f"the engine failed: {result.error}",
            "solved": "solved",
        }[result.status]
        return record

    def api_model(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The model of this board: LP by default; MPS, GMPL .dat, LaTeX (via
        `thermomilp.teach.export`)."""
        from thermomilp.teach.export import TARGETS, export

        puzzle = puzzle_from(payload)
        fmt = payload.get("format", "lp")
        if fmt not in TARGETS:
            raise ApiError(400, f"\"format\" must be one of {', '.join(TARGETS)}")
        try:
            # the cell model as PuLP builds it, beside its rows per cell (modelview),
            # whatever the server solves with
            text = export(puzzle, fmt, Backend.PULP)
        except ThermomilpError as exc:  # e.g. LaTeX of a board too large for a slide
            raise ApiError(400, str(exc)) from None
        from thermomilp.web.modelview import model_rows

        return {"format": fmt, "text": text, "formats": list(TARGETS),
                "rows": model_rows(puzzle)}

    def api_relax(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The LP relaxation's values per cell (thermomilp.web.modelview.relaxation)."""
        from thermomilp.web.modelview import relaxation

        puzzle = puzzle_from(payload)
        with self._solving():
            return relaxation(puzzle)

    # -- helpers -----------------------------------------------------------

    @contextmanager
    def _solving(self) -> Iterator[None]:
        """At most CONCURRENT_SOLVES engines at once; a request waits for one at most
        the engine's time limit, then a busy server says so (503)."""
        if not self._solves.acquire(timeout=self.engine.time_limit or SOLVE_SECONDS):
            raise ApiError(503, "the server is busy solving; try again shortly")
        try:
            yield
        finally:
            self._solves.release()

    def _one_solution(self, puzzle: Puzzle,
                      fixed: dict[Cell, int] | None = None) -> tuple[str, ...] | None:
        """A verified solution agreeing with ``fixed``, or None when there is none
        (an "infeasible" the facade has confirmed by a second method)."""
        from thermomilp.solving.engine import Engine

        with self._solving(), Engine(puzzle, self.engine, fixed=fixed) as engine:
            answer = engine.next_solution()
        if answer.status == "infeasible":
            return None
        if answer.status == "error" and "not a solution" in answer.message:
            raise ApiError(500, f"the engine returned a wrong grid: {answer.message}")
        if answer.status != "feasible" or answer.grid is None:
            raise ApiError(503, f"the engine did not answer: {answer.status} "
                                f"{answer.message}".strip())
        return answer.grid

