"""One board, one record: ``thermomilp solve --format json``, ``thermomilp batch``, the
page's ``solve`` endpoint (on the uploaded text) and the Python API
(``thermomilp.solve(thermomilp.load(path)).to_json(file=...)``) give the same record for
every shipped board in every format the package writes, with the same settings,
minus the time and the file name (issue 29: one per-file pipeline)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import thermomilp
from thermomilp.cli.main import main
from thermomilp.core.settings import Settings
from thermomilp.web.api import SOLVE_SECONDS, Api, server_settings

from helpers import every_format

LIMIT = SOLVE_SECONDS
"""The page's time limit (the server caps every limit at it): everywhere the same."""


def comparable(record: dict) -> dict:
    """The record without what is not the board's: the time, the file name, the batch's
    content hash. Which method decided or confirmed (``proof``, ``engine_called``,
    ``confirmed_by``) is compared: the logic's budgets are counted in work, not
    seconds (logic/budget.py), so they never depend on the machine's load."""
    record = dict(record)
    for key in ("time_s", "file", "sha256"):
        record.pop(key, None)
    return record


def by_file(text: str) -> dict[str, dict]:
    records = [json.loads(line) for line in text.splitlines()]
    return {record["file"]: comparable(record) for record in records}


def differences(one: dict[str, dict], other: dict[str, dict]) -> set[tuple[str, ...]]:
    return {(os.path.basename(f), k, str(one[f].get(k))[:60], str(other[f].get(k))[:60])
            for f in one for k in set(one[f]) | set(other[f])
            if one[f].get(k) != other[f].get(k)}


@pytest.fixture(scope="module")
def boards(tmp_path_factory) -> list[str]:
    files = every_format(tmp_path_factory.mktemp("records") / "corpus")
    assert {os.path.splitext(f)[1] for f in files} >= {".url", ".pzpr", ".json", ".txt"}
    return files


@pytest.fixture(scope="module")
def by_cli(boards) -> dict[str, dict]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["solve", *boards, "--format", "json", "--time-limit", str(LIMIT)])
    return by_file(out.getvalue())


def test_solve_and_batch_and_the_page_and_the_api_give_one_record(boards, by_cli, tmp_path,
                                                                   capsys):
    assert sorted(by_cli) == boards
    kinds = {r["puzzle"] for r in by_cli.values()}
    statuses = {r["status"] for r in by_cli.values()}
    assert kinds == {"thermometers", "aquarium"}
    assert {"unique", "multiple", "infeasible"} <= statuses  # every kind of answer is seen
    assert all(r.get("conflict") for r in by_cli.values() if r["status"] == "infeasible")

    # (b) batch, its --out file
    out = tmp_path / "out.jsonl"
    main(["batch", str(Path(boards[0]).parent), "--out", str(out), "--jobs", "1",
          "--no-progress", "--time-limit", str(LIMIT)])
    capsys.readouterr()
    batched = by_file(out.read_text())
    assert sorted(batched) == boards
    assert differences(by_cli, batched) == set()

    # (c) the page: the file uploaded (its text and name), then Solve
    api = Api(server_settings(Settings(time_limit=LIMIT)))
    paged = {}
    for path in boards:
        board = api.call("load", {"text": Path(path).read_text(encoding="utf-8"),
                                  "filename": os.path.basename(path)})["board"]
        answer = api.call("solve", {"puzzle": board["puzzle"]})
        assert isinstance(answer.pop("message"), str) and answer["file"] is None
        paged[path] = comparable(answer)
    assert differences(by_cli, paged) == set()

    # (d) the Python API
    programmed = {path: comparable(thermomilp.solve(thermomilp.load(path), time_limit=LIMIT)
                                   .to_json(file=path)) for path in boards}
    assert differences(by_cli, programmed) == set()  # an infeasible board explained too

