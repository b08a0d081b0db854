"""The JSON API of ``thermomilp serve`` over real HTTP (server on port 0 in a thread).

Answers are checked independently: solutions by ``verify.solution_problems``,
statuses against ``instances/expected.json``, generated boards' uniqueness by
the brute-force counter, hints against the unique solution.
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
from email.message import Message
from typing import Any
from urllib.parse import urlsplit

import pytest

from thermomilp.core.settings import Settings
from thermomilp.core.verify import solution_problems
from thermomilp.formats import json_format
from thermomilp.logic.brute import brute_force_count
from thermomilp.web import api as api_module
from thermomilp.web.api import MAX_BODY, MAX_SIDE, Api, ApiError
from thermomilp.web.instances import catalogue, instances_root
from thermomilp.web.server import climbs, serve_in_thread, static_files

from helpers import ROOT

KNOWN_RULES = {"bookkeeping", "one line's count", "chained counts", "probe", "pair probe", "reveal",
               "subset-sum", "gravity"}


class Client:
    """Sends a path exactly as given (``http.client`` does not normalise ``..``)."""

    def __init__(self, base: str):
        parts = urlsplit(base)
        self.host, self.port = parts.hostname, parts.port

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, Message, bytes]:
        """Status, headers (names case-insensitive, as HTTP has them) and body."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.headers, response.read()
        finally:
            conn.close()

    def get(self, path: str) -> tuple[int, Any]:
        status, headers, body = self.request("GET", path)
        if headers.get("Content-Type", "").startswith("application/json"):
            return status, json.loads(body)
        return status, body

    def post(self, path: str, payload: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
        body = raw if raw is not None else json.dumps(payload).encode("utf-8")
        status, headers, data = self.request("POST", path, body,
                                             {"Content-Type": "application/json"})
        assert headers.get("Content-Type", "").startswith("application/json"), (status, data[:200])
        return status, json.loads(data)

    def api(self, name: str, payload: Any) -> dict:
        status, data = self.post(f"/api/{name}", payload)
        assert status == 200, (status, data)
        return data


@pytest.fixture(scope="module")
def client():
    server, thread, base = serve_in_thread()
    yield Client(base)
    server.shutdown()
    server.server_close()
    thread.join(5)


def still_serving(client: Client) -> None:
    status, info = client.get("/api/info")
    assert status == 200 and info["backend"]


def assert_error(status: int, data: Any, expected: int, *words: str) -> None:
    assert status == expected, (status, data)
    assert isinstance(data, dict) and isinstance(data.get("error"), str) and data["error"]
    for word in words:
        assert word.lower() in data["error"].lower(), data["error"]


def apply(marks: list[str], cells, value: str) -> list[str]:
    rows = [list(r) for r in marks]
    for r, c in cells:
        rows[r][c] = value
    return ["".join(r) for r in rows]


# --------------------------------------------------------------------------
# Page and static files
# --------------------------------------------------------------------------


def test_page_and_assets_are_served(client):
    status, headers, body = client.request("GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b"/static/app.js" in body
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        status, headers, body = client.request("GET", f"/static/{name}")
        assert status == 200 and headers["Content-Type"].startswith(kind) and body


@pytest.mark.parametrize("path", [
    "/static/../api.py",
    "/static/%2e%2e%2fapi.py",
    "/static/%2E%2E/server.py",
    "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/static/%252e%252e%252fserver.py",
    "/static/..%5cserver.py",
    "/api/../web/api.py",
    "/static/..",
])
def test_paths_that_climb_are_refused(client, path):
    status, data = client.get(path)
    assert_error(status, data, 400, "climbs")
    still_serving(client)


@pytest.mark.parametrize("path", ["/etc/passwd", "//etc/passwd", "/static/", "/static/nope.js",
                                  "/static//etc/passwd", "/web/api.py", "/static/%00"])
def test_unknown_or_absolute_paths_are_not_found(client, path):
    status, data = client.get(path)
    assert status in (400, 404), (path, status)
    assert isinstance(data, dict) and data["error"]
    still_serving(client)


def test_static_table_skips_symlinks_and_climbs_detects_encodings(tmp_path):
    (tmp_path / "index.html").write_text("<html></html>")
    secret = tmp_path.parent / f"{tmp_path.name}-secret.txt"
    secret.write_text("secret")
    (tmp_path / "link.txt").symlink_to(secret)
    table = static_files(tmp_path)
    assert "/static/index.html" in table and "/" in table
    assert "/static/link.txt" not in table
    assert climbs("/a/%2e%2e/b") and climbs("/a/%252E%252E/b") and climbs("/a/..\\b")
    assert not climbs("/static/app.js") and not climbs("/static/a..b.js")


def test_the_catalogue_skips_symlinks_and_non_puzzles(tmp_path):
    root = tmp_path / "instances"
    (root / "thermometers").mkdir(parents=True)
    source = ROOT / "instances" / "thermometers" / "t01_4x4.txt"
    (root / "thermometers" / "mine.txt").write_text(source.read_text())
    outside = tmp_path / "outside.txt"
    outside.write_text(source.read_text())
    (root / "thermometers" / "link.txt").symlink_to(outside)
    (root / "linked_dir").symlink_to(tmp_path, target_is_directory=True)
    (root / "notes.txt").write_text("not a puzzle")
    assert sorted(catalogue(root)) == ["thermometers/mine.txt"]


def test_the_listed_names_are_distinct(client, tmp_path):
    """Generated boards share a name (``thermomilp 12x12 seed inst:0``): the list the page
    shows names each one once."""
    names = [item["name"] for item in client.get("/api/instances")[1]["instances"]]
    assert names and len(names) == len(set(names)), sorted(names)
    root = tmp_path / "instances"
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    text = (ROOT / "instances" / "thermometers" / "t01_4x4.txt").read_text()
    for where in ("a/one.txt", "a/two.txt", "b/one.txt"):
        (root / where).write_text(text)
    listed = [entry.name for entry in catalogue(root).values()]
    assert len(listed) == 3 == len(set(listed)), listed


def test_instance_ids_cannot_reach_other_files(client):
    for ident in ("../pyproject.toml", "/etc/passwd", "thermometers/../../pyproject.toml",
                  "thermometers/%2e%2e/expected.json", "expected.json", "", 3, None):
        status, data = client.post("/api/load", {"instance": ident})
        assert_error(status, data, 404, "no bundled instance")
    still_serving(client)


# --------------------------------------------------------------------------
# Bad input: clear 4xx, server keeps serving
# --------------------------------------------------------------------------


def test_garbage_uploads_get_clear_errors(client):
    status, data = client.post("/api/load", raw=b"\x00\xff garbage \x89PNG")
    assert_error(status, data, 400, "UTF-8")
    status, data = client.post("/api/load", raw=b"this is not json")
    assert_error(status, data, 400, "not JSON")
    status, data = client.post("/api/load",
                               {"text": "garbage\nmore garbage\n", "filename": "g.txt"})
    assert_error(status, data, 400, "unrecognised puzzle format")
    status, data = client.post("/api/load", {"text": '{"puzzle": "thermometers", "rows": [1]}'})
    assert_error(status, data, 400)
    status, data = client.post("/api/load", {"nothing": 1})
    assert_error(status, data, 400, "instance")
    status, data = client.post("/api/load", raw=b'{"size": 1' + b"0" * 5000 + b"}")
    assert_error(status, data, 400, "not JSON")
    status, data = client.post("/api/load", raw=b"[" * 100_000)
    assert_error(status, data, 400, "not JSON")
    status, data = client.post("/api/load", [1, 2, 3])
    assert_error(status, data, 400, "JSON object")
    still_serving(client)


def test_a_10_mb_upload_is_refused_with_413(client):
    text = "thermometers 4x4\n" + "x" * (10 * 1024 * 1024)
    status, data = client.post("/api/load", {"text": text, "filename": "big.txt"})
    assert_error(status, data, 413, str(MAX_BODY))
    still_serving(client)


def test_a_500x500_board_is_refused(client):
    n = 500
    text = "aquarium\n " + " ".join("0" * n) + "\n" + "".join(f"0 {'a' * n}\n" for _ in range(n))
    assert len(json.dumps({"text": text}).encode()) < MAX_BODY  # under the byte limit...
    status, data = client.post("/api/load", {"text": text, "filename": "huge.aqua"})
    assert_error(status, data, 413, "500x500", f"{MAX_SIDE}x{MAX_SIDE}")  # ...but too big a board
    huge = {"puzzle": "thermometers", "rows": [0] * n, "cols": [0] * n,
            "thermometers": [[[0, 0]]]}
    for endpoint in ("solve", "hint", "check", "model"):
        status, data = client.post(f"/api/{endpoint}", {"puzzle": huge})
        assert_error(status, data, 413, "500x500")
    still_serving(client)


def test_bad_requests_to_each_endpoint(client):
    board = client.api("load", {"instance": "thermometers/t01_4x4.txt"})["board"]
    puzzle = board["puzzle"]
    cases = [
        ("hint", {"marks": ["????"] * 4}, 400, "puzzle"),
        ("hint", {"puzzle": puzzle, "marks": ["??"]}, 400, "marks"),
        ("check", {"puzzle": puzzle, "marks": ["x???"] * 4}, 400, "marks"),
        ("solve", {"puzzle": {"puzzle": "sudoku"}}, 400, "sudoku"),
        ("solve", {"puzzle": "thermometers"}, 400, "puzzle"),
        ("model", {"puzzle": {**puzzle, "rows": [9, 0, 0, 0]}}, 400, "clue"),
        ("generate", {"kind": "chess", "size": 5}, 400, "kind"),
        ("generate", {"kind": "thermometers", "size": 500}, 413, "size"),
        ("generate", {"kind": "thermometers", "size": "big"}, 400, "whole number"),
        ("generate", {"kind": "thermometers", "size": 5, "seed": "x"}, 400, "seed"),
        ("generate", {"kind": "thermometers", "size": 2}, 400, "size"),
        # a member the endpoint does not take is refused, not ignored
        ("generate", {"puzzle": "aquarium", "size": 6}, 400, "takes no 'puzzle'"),
        ("solve", {"puzzle": puzzle, "marks": ["????"] * 4}, 400, "its members: puzzle"),
        ("load", {"instance": "thermometers/t01_4x4.txt", "path": "/etc/passwd"}, 400,
         "takes no 'path'"),
    ]
    for endpoint, payload, expected, word in cases:
        status, data = client.post(f"/api/{endpoint}", payload)
        assert_error(status, data, expected, word)
    status, data = client.post("/api/teleport", {})
    assert_error(status, data, 404, "endpoint")
    status, data = client.get("/api/solve")
    assert_error(status, data, 405, "POST")
    status, data = client.post("/api/instances", {})
    assert_error(status, data, 405, "GET")
    status, data = client.post("/index.html", {})
    assert_error(status, data, 405)
    still_serving(client)


def test_a_missing_content_length_is_refused(client):
    conn = http.client.HTTPConnection(client.host, client.port, timeout=30)
    try:
        conn.putrequest("POST", "/api/solve")
        conn.endheaders()
        response = conn.getresponse()
        assert response.status == 411 and json.loads(response.read())["error"]
    finally:
        conn.close()
    still_serving(client)


def test_a_handler_exception_is_a_500_and_the_server_keeps_serving():
    class Broken(Api):
        def api_model(self, payload):
            raise RuntimeError("boom")

    server, thread, base = serve_in_thread(api=Broken())
    try:
        c = Client(base)
        board = c.api("load", {"instance": "thermometers/t01_4x4.txt"})["board"]
        status, data = c.post("/api/model", {"puzzle": board["puzzle"]})
        assert_error(status, data, 500, "boom")
        still_serving(c)
        assert c.api("check", {"puzzle": board["puzzle"]})["consistent"]
    finally:
        server.shutdown()
        server.server_close()


# --------------------------------------------------------------------------
# The endpoints give right answers
# --------------------------------------------------------------------------


def test_every_bundled_instance_loads_and_solves_as_expected(client):
    expected = json.loads((ROOT / "instances" / "expected.json").read_text())
    listed = client.get("/api/instances")[1]["instances"]
    assert {i["id"] for i in listed} >= {k for k in expected if k.endswith(".txt")}
    for item in listed:
        board = client.api("load", {"instance": item["id"]})["board"]
        assert "solution" not in board["puzzle"]  # Check and Solve must use the MILP
        assert (board["height"], board["width"]) == (item["height"], item["width"])
        result = client.api("solve", {"puzzle": board["puzzle"]})
        puzzle = json_format.read(json.dumps(board["puzzle"]))
        if item["id"] in expected:
            assert result["status"] == expected[item["id"]]["status"], item["id"]
        if result["grid"] is not None:
            assert solution_problems(puzzle, result["grid"]) == []
        if result["status"] == "multiple":
            assert result["second"] != result["grid"]
            assert solution_problems(puzzle, result["second"]) == []
        assert result["message"] and result["backend"] and result["time_s"] >= 0


def test_hints_walk_a_board_to_its_unique_solution(client):
    for ident in ("thermometers/t03_6x6.txt", "thermometers/t04_6x6_missing.txt"):
        walk_with_hints(client, client.api("load", {"instance": ident})["board"])


def test_hints_walk_a_new_aquarium_to_its_solution(client):
    made = client.api("generate", {"kind": "aquarium", "size": 5, "seed": 11})
    assert made["unique"]
    walk_with_hints(client, made["board"])


def walk_with_hints(client: Client, board: dict) -> None:
    puzzle = board["puzzle"]
    solution = client.api("solve", {"puzzle": puzzle})
    assert solution["status"] == "unique"
    grid = solution["grid"]
    marks = ["?" * board["width"] for _ in range(board["height"])]
    rules, engines = set(), set()
    for _ in range(board["height"] * board["width"] + 1):
        answer = client.api("hint", {"puzzle": puzzle, "marks": marks})
        hint = answer["hint"]
        if hint is None:
            break
        assert hint["rule"] in KNOWN_RULES and hint["message"] and hint["cells"]
        assert len(hint["values"]) == len(hint["cells"])
        rules.add(hint["rule"])
        engines.add(hint["engine"])
        for (r, c), value in zip(hint["cells"], hint["values"], strict=True):
            assert marks[r][c] == "?", "a hint about a cell already marked"
            assert grid[r][c] == value, f"{hint['rule']} deduced a wrong value"
            marks = apply(marks, [(r, c)], value)
    assert marks == grid
    check = client.api("check", {"puzzle": puzzle, "marks": marks})
    assert check["consistent"] and check["complete"]
    assert rules
    # The logic engines answer first; ``reveal`` reads the MILP solution.
    engines_of_kind = (["thermomilp.logic.aquarium_hints"] if board["kind"] == "aquarium"
                       else []) + ["thermomilp.logic.hints"]
    assert engines <= set(engines_of_kind) | {"milp"}
    assert engines_of_kind[0] in engines


def test_a_wrong_mark_is_named_by_hint_and_check(client):
    board = client.api("load", {"instance": "thermometers/t01_4x4.txt"})["board"]
    grid = client.api("solve", {"puzzle": board["puzzle"]})["grid"]
    # Mark every cell right except one, flipped: Check must find exactly that cell.
    flipped = (2, 1)
    marks = apply(grid, [flipped], "." if grid[2][1] == "#" else "#")
    check = client.api("check", {"puzzle": board["puzzle"], "marks": marks})
    assert not check["consistent"] and check["wrong"] == [list(flipped)]
    hint = client.api("hint", {"puzzle": board["puzzle"], "marks": marks})["hint"]
    assert hint["mistake"] and hint["values"] == []
    partial = ["?" * 4] * 3 + [grid[3]]
    check = client.api("check", {"puzzle": board["puzzle"], "marks": partial})
    assert check["consistent"] and not check["complete"] and check["wrong"] == []


def test_model_is_the_lp_of_the_cell_formulation(client):
    board = client.api("load", {"instance": "thermometers/t04_6x6_missing.txt"})["board"]
    text = client.api("model", {"puzzle": board["puzzle"]})["text"]
    assert "Subject To" in text and "Binaries" in text
    names = [line.split(":")[0] for line in text.splitlines() if ":" in line]
    clued_rows = sum(v is not None for v in board["rows"])
    clued_cols = sum(v is not None for v in board["cols"])
    assert sum(n.startswith("row_") for n in names) == clued_rows
    assert sum(n.startswith("col_") for n in names) == clued_cols
    arcs = sum(len(v["layers"]) - 1 for v in board["vessels"])
    assert sum(n.startswith("prec_") for n in names) == arcs


def test_model_offers_the_teaching_exports_when_installed(client):
    board = client.api("load", {"instance": "thermometers/t01_4x4.txt"})["board"]
    answer = client.api("model", {"puzzle": board["puzzle"]})
    assert answer["format"] == "lp" and "lp" in answer["formats"]
    status, data = client.post("/api/model", {"puzzle": board["puzzle"], "format": "docx"})
    assert_error(status, data, 400, "format")
    export = pytest.importorskip("thermomilp.teach.export")
    assert set(answer["formats"]) == set(export.TARGETS)
    puzzle = json_format.read(json.dumps(board["puzzle"]))
    for fmt in answer["formats"]:
        text = client.api("model", {"puzzle": board["puzzle"], "format": fmt})["text"]
        assert text == export.export(puzzle, fmt, "pulp")
    big = client.api("load", {"instance": "thermometers/t06_10x10.txt"})["board"]
    status, data = client.post("/api/model", {"puzzle": big["puzzle"], "format": "latex"})
    assert_error(status, data, 400, "latex")


@pytest.mark.parametrize("kind", ["thermometers", "aquarium"])
def test_generate_gives_a_unique_board_confirmed_by_brute_force(client, kind):
    made = client.api("generate", {"kind": kind, "size": 5, "seed": 7})
    assert made["board"]["kind"] == kind and made["seed"] == 7
    puzzle = json_format.read(json.dumps(made["board"]["puzzle"]))
    assert made["unique"] == (brute_force_count(puzzle, 2) == 1)
    assert made["unique"]  # 5x5 boards are unique within the reroll budget
    again = client.api("generate", {"kind": kind, "size": 5, "seed": 7})
    assert again["board"]["puzzle"] == made["board"]["puzzle"]  # seeded = reproducible


def test_generate_honours_a_difficulty_wish_and_reports_the_grade(client):
    grader = pytest.importorskip("thermomilp.logic.grade")
    for wish in ("easy", "medium"):
        made = client.api("generate", {"kind": "thermometers", "size": 6, "seed": 1,
                                       "difficulty": wish})
        puzzle = json_format.read(json.dumps(made["board"]["puzzle"]))
        assert made["unique"] and brute_force_count(puzzle, 2) == 1
        assert made["difficulty"] == grader.GRADE_TO_DIFFICULTY[grader.grade(puzzle)] == wish
    status, data = client.post("/api/generate", {"kind": "aquarium", "difficulty": "brutal"})
    assert_error(status, data, 400, "difficulty")


def test_uploads_in_every_writable_format_round_trip(client):
    from thermomilp.core.errors import ThermomilpError
    from thermomilp.formats import FORMATS, dumps, load

    for ident in ("thermometers/t04_6x6_missing.txt", "aquarium/a01_6x6.txt"):
        path = ROOT / "instances" / ident
        if not path.exists():
            continue
        puzzle = load(path)
        tried = 0
        for name, fmt in FORMATS.items():
            if fmt.write is None:
                continue
            try:
                text = dumps(puzzle, name)
            except ThermomilpError:  # this format cannot hold this kind of board
                continue
            tried += 1
            board = client.api("load", {"text": text, "filename": f"up{fmt.suffixes[0]}"})["board"]
            again = json_format.read(json.dumps(board["puzzle"]))
            assert (again.kind, again.rows, again.cols) == (puzzle.kind, puzzle.rows, puzzle.cols)
            assert [v.layers for v in again.vessels] == [v.layers for v in puzzle.vessels], name
        assert tried >= 2


def test_uploads_in_each_text_format_load(client):
    text = (ROOT / "instances" / "thermometers" / "t01_4x4.txt").read_text()
    native = client.api("load", {"text": text, "filename": "../../t01.txt"})
    as_json = json_format.write(json_format.read(json.dumps(native["board"]["puzzle"])))
    again = client.api("load", {"text": as_json, "filename": "t01.json"})
    assert again["board"]["puzzle"]["thermometers"] == native["board"]["puzzle"]["thermometers"]
    assert again["source"] == "upload t01.json" and native["source"] == "upload t01.txt"


# --------------------------------------------------------------------------
# Instances and the command line
# --------------------------------------------------------------------------


def test_instances_are_found_in_a_source_checkout():
    root = instances_root()
    assert root is not None and (root / "thermometers").is_dir()
    assert "thermometers/t01_4x4.txt" in catalogue()


def test_api_error_is_raised_for_solver_set_up_problems(monkeypatch):
    # the server's engine goes missing after it started (an uninstalled wheel, a removed
    # glpsol): the request gets a 500 naming the pair, not a traceback
    from thermomilp.backends import matrix

    def missing(backend, solver, engine_path=None, probe=True):
        return matrix.PairInfo(str(backend), str(solver), False, None, "apt-get install x",
                               "gone")

    api = Api(api_module.server_settings(Settings(backend="pulp", solver="glpk", logic="none")))
    board = api.call("load", {"instance": "thermometers/t01_4x4.txt"})["board"]
    monkeypatch.setattr(matrix, "pair_info", missing)
    with pytest.raises(ApiError) as caught:
        api.call("solve", {"puzzle": board["puzzle"]})
    assert caught.value.status == 500 and "pulp/glpk" in caught.value.message


def test_serve_warns_when_bound_beyond_loopback():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "thermomilp", "serve", "--host", "0.0.0.0",
                             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert "thermomilp serve: http://0.0.0.0:" in line
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert "warning" in err and "0.0.0.0" in err


def test_serve_rejects_a_bad_port():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "thermomilp", "serve", "--port", "70000"],
                          capture_output=True, text=True, env=env, timeout=30)
    assert done.returncode == 2 and "port" in done.stderr


def test_serve_refuses_an_unusable_solver_at_start():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "thermomilp", "serve", "--port", "0",
                           "--backend", "highs", "--solver", "nonesuch"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "nonesuch" in done.stderr


def test_model_rows_are_the_rows_of_the_lp_file(client):
    import re

    for ident in ("thermometers/t04_6x6_missing.txt", "aquarium/a01_6x6.txt"):
        board = client.api("load", {"instance": ident})["board"]
        model = client.api("model", {"puzzle": board["puzzle"]})
        assert "__dummy" not in model["text"]
        in_file = set(re.findall(r"^(\w+):", model["text"], re.M)) - {"obj", "OBJ"}
        assert {row["name"] for row in model["rows"]} == in_file
        # a row's terms are the variables its LP line names, with the same right-hand side
        for row in model["rows"]:
            line = next(text for text in model["text"].splitlines()
                        if text.startswith(row["name"] + ":"))
            names = set(re.findall(r"x_\d+_\d+", line))
            assert names == {"x_%d_%d" % tuple(t["cell"]) for t in row["terms"]}
            assert line.rstrip().endswith(f" {row['rhs']}")


def test_relax_gives_lp_feasible_values_or_says_infeasible(client):
    board = client.api("load", {"instance": "thermometers/t02_5x5.txt"})["board"]
    relax = client.api("relax", {"puzzle": board["puzzle"]})
    rows = client.api("model", {"puzzle": board["puzzle"]})["rows"]
    values = relax["values"]
    assert relax["feasible"] and relax["fractional"]
    assert all(0 <= v <= 1 for row in values for v in row)
    assert relax["fractional"] == [[r, c] for r, row in enumerate(values)
                                   for c, v in enumerate(row) if 0 < v < 1]
    for row in rows:
        lhs = sum(t["coef"] * values[t["cell"][0]][t["cell"][1]] for t in row["terms"])
        assert abs(lhs - row["rhs"]) < 1e-6 if row["sense"] == "=" else lhs <= 1e-6
    none = client.api("load", {"instance": "thermometers/t08_4x4_no_solution.txt"})["board"]
    relax = client.api("relax", {"puzzle": none["puzzle"]})
    assert not relax["feasible"] and relax["values"] is None
