"""Latency of the `thermomilp serve` API against the library it wraps.

For a few bundled boards, times each endpoint over real HTTP (server on port
0 in a thread, ``http.client``) twice: on a fresh connection per request, and
on one kept-alive connection (what a browser's ``fetch`` reuses). As the
baseline, measured in the same run, it times the library calls the endpoint
makes (``solve`` with the server's settings, ``next_hint``, the LP export and
the model's rows). Prints the median of ``--repeat`` runs (alternating, after
one untimed call of each) in milliseconds and the ratio kept-alive HTTP /
library.

    python benchmarks/serve_latency.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from thermomilp.core.puzzle import Puzzle  # noqa: E402
from thermomilp.core.settings import Settings  # noqa: E402
from thermomilp.formats import json_format  # noqa: E402
from thermomilp.solving import solve  # noqa: E402
from thermomilp.teach.export import export  # noqa: E402
from thermomilp.web.api import Api  # noqa: E402
from thermomilp.web.hints import next_hint  # noqa: E402
from thermomilp.web.instances import catalogue  # noqa: E402
from thermomilp.web.modelview import model_rows  # noqa: E402
from thermomilp.web.server import serve_in_thread  # noqa: E402

BOARDS = ("thermometers/t03_6x6.txt", "thermometers/t06_10x10.txt", "aquarium/a04_10x10.txt",
          "aquarium/a06_15x15.txt")


def elapsed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def medians_ms(works: list[Callable[[], object]], repeat: int) -> list[float]:
    """Median milliseconds of each, after one untimed call of each (imports and first
    model builds are no one's latency); the runs alternate so drift hits all alike."""
    for work in works:
        work()
    runs = [[elapsed(work) for work in works] for _ in range(repeat)]
    return [statistics.median(run[k] for run in runs) * 1000 for k in range(len(works))]


def library_calls(puzzle: Puzzle, marks: list[str],
                  settings: Settings) -> dict[str, Callable[[], object]]:
    """Endpoint name -> the library calls its handler in ``thermomilp.web.api`` makes."""
    return {
        "solve": lambda: solve(puzzle, unique=True, settings=settings),
        "hint": lambda: next_hint(puzzle, marks),
        "model": lambda: (export(puzzle, "lp", "pulp"), model_rows(puzzle)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    server, _, base = serve_in_thread()
    host, port = urlsplit(base).hostname, urlsplit(base).port
    kept = http.client.HTTPConnection(host, port, timeout=60)

    def post(name: str, payload: dict, conn: http.client.HTTPConnection | None = None) -> dict:
        fresh = conn is None
        conn = conn or http.client.HTTPConnection(host, port, timeout=60)
        conn.request("POST", f"/api/{name}", json.dumps(payload),
                     {"Content-Type": "application/json"})
        answer = json.loads(conn.getresponse().read())
        if fresh:
            conn.close()
        return answer

    api = Api()
    print(f"{'board':32} {'endpoint':8} {'new conn':>9} {'kept':>7} {'lib ms':>7} {'ratio':>6}")
    for ident in BOARDS:
        if ident not in catalogue():
            continue
        board = api.call("load", {"instance": ident})["board"]
        puzzle = json_format.read(json.dumps(board["puzzle"]))
        marks = ["?" * puzzle.width] * puzzle.height
        payload = {"puzzle": board["puzzle"], "marks": marks}
        for name, library in library_calls(puzzle, marks, api.engine).items():
            fresh_ms, kept_ms, lib_ms = medians_ms(
                [partial(post, name, payload), partial(post, name, payload, kept), library],
                args.repeat)
            print(f"{ident:32} {name:8} {fresh_ms:9.2f} {kept_ms:7.2f} {lib_ms:7.2f} "
                  f"{kept_ms / lib_ms:6.2f}")
    kept.close()
    server.server_close()

if __name__ == "__main__":
    main()
