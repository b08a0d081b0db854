"""The pool rule through the commands and the web API: solve works, the logic tools reason
on layer trees, and nothing changes the rule on the way."""

from __future__ import annotations

import json

import pytest

from thermomilp.cli.main import main
from thermomilp.formats import load, loads

POOL_URL = "https://puzz.link/p?aquarium/4/3/3c80/0022022"
ANSWER = ["....", "..##", "..##"]


@pytest.fixture
def pool_file(tmp_path):
    path = tmp_path / "pool.url"
    path.write_text(POOL_URL + "\n")
    return path


def test_solve_and_convert_keep_the_rule(pool_file, tmp_path, capsys):
    assert main(["solve", str(pool_file), "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unique" and record["grid"] == ANSWER
    for fmt in ("json", "text", "puzzlink", "pzprv3"):
        out = tmp_path / f"board.{fmt}"
        assert main(["convert", str(pool_file), "--to", fmt, "-o", str(out)]) == 0
        assert load(out).rule == "pool", fmt
        assert main(["solve", str(out), "--format", "json"]) == 0
        assert json.loads(capsys.readouterr().out)["grid"] == ANSWER, fmt
    assert main(["convert", str(pool_file), "--to", "aquarium-task"]) == 2
    assert "tank rule" in capsys.readouterr().err


def test_logic_commands_reason_on_trees(pool_file, capsys):
    assert main(["explain", str(pool_file)]) == 0
    out = capsys.readouterr().out
    assert "status: solved" in out and "[line_count]" in out and "[bookkeeping]" in out
    assert out.rstrip().splitlines()[-3:] == list(ANSWER)  # marks notation: the solution grid
    assert main(["hint", str(pool_file)]) == 0
    assert capsys.readouterr().out.startswith("[line_count] row 1 already has its 0")
    assert main(["hint", str(pool_file), "--marks", "1,1=#"]) == 1
    assert capsys.readouterr().out.startswith("[mistake]")
    assert main(["check", str(pool_file), "--format", "json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["grade"] == "intervals" and record["difficulty"] == "easy"
    assert main(["solve", str(pool_file), "--logic", "probing", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["grid"] == ANSWER


def test_analyze_reports_the_cell_model(pool_file, capsys):
    assert main(["analyze", str(pool_file)]) == 0
    out = capsys.readouterr().out
    assert "solutions: 1 (unique)" in out and "logic presolve probing: 12/12 cells fixed" in out


def test_generate_pool_boards(tmp_path, capsys):
    assert main(["generate", "--puzzle", "aquarium", "--rule", "pool", "--size", "4x4",
                 "--count", "2", "--out", str(tmp_path), "--quiet"]) == 0
    from thermomilp.logic.brute import brute_force_count

    files = sorted(tmp_path.glob("*.txt"))
    assert len(files) == 2
    for path in files:
        board = load(path)
        assert board.rule == "pool" and brute_force_count(board, 2) == 1
        assert board.grade in ("intervals", "probing", "search")  # graded on its trees


def test_web_api_carries_the_rule_and_hints_by_logic():
    from test_web_api import Client, serve_in_thread

    server, thread, base = serve_in_thread()
    try:
        client = Client(base)
        board = client.api("load", {"text": POOL_URL, "filename": "b.url"})["board"]
        assert board["rule"] == "pool" and board["puzzle"]["rule"] == "pool"
        assert client.api("solve", {"puzzle": board["puzzle"]})["grid"] == ANSWER
        marks = ["????"] * 3
        hint = client.api("hint", {"puzzle": board["puzzle"], "marks": marks})["hint"]
        assert hint["rule"] != "reveal" and hint["cells"]
        for (r, c), value in zip(hint["cells"], hint["values"], strict=True):
            assert value == ANSWER[r][c]
        wrong = ["#???"] + ["????"] * 2
        hint = client.api("hint", {"puzzle": board["puzzle"], "marks": wrong})["hint"]
        assert hint["mistake"] and [0, 0] in hint["cells"]
        check = client.api("check", {"puzzle": board["puzzle"], "marks": ANSWER})
        assert check["complete"] and check["consistent"]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
    assert loads(POOL_URL).rule == "pool"


def test_exports_of_a_pool_board(pool_file, capsys):
    assert main(["export", str(pool_file), "--to", "dat"]) == 2
    assert "tank rule" in capsys.readouterr().err  # models/aquarium.mod cannot hold it
    assert main(["export", str(pool_file), "--to", "latex"]) == 0
    assert "one body of water in one row" in capsys.readouterr().out
    assert main(["export", str(pool_file), "--to", "lp"]) == 0


def test_conflict_of_an_infeasible_pool_board_is_irreducible_by_brute_force():
    from thermomilp.logic.brute import brute_force_count
    from thermomilp.solving.conflict import find_conflict, restrict

    board = loads("https://puzz.link/p?aquarium/4/3/3c80/0032022")  # column 2 asks for 3
    parts = find_conflict(board)
    assert parts is not None and brute_force_count(board) == 0
    assert brute_force_count(restrict(board, parts)) == 0
    for part in parts:  # each part is needed
        assert brute_force_count(restrict(board, [q for q in parts if q != part]), 1) == 1
    assert restrict(board, parts).rule == "pool"
