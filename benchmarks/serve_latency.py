"""Latency of the `thermomilp serve` API against the library it wraps.

For a few bundled boards, times each endpoint over real HTTP (server on port
0 in a thread, ``http.client`` with a fresh connection per request, as the
page does) and, as the baseline measured in the same run, the library calls
the endpoint makes (``solve`` with the server's settings, ``next_hint``, the
LP export and the model's rows). Prints the median of ``--repeat`` runs
(alternating, after one untimed call of each) in milliseconds and the ratio
HTTP / library.

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
from thermomilp.solve import solve  # noqa: E402
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


def paired_medians_ms(http: Callable[[], object], library: Callable[[], object],
                      repeat: int) -> tuple[float, float]:
    """Median milliseconds of each, after one untimed call of each (imports and first
    model builds are no one's latency); the runs alternate so drift hits both alike."""
    http(), library()
    pairs = [(elapsed(http), elapsed(library)) for _ in range(repeat)]
    return (statistics.median(h for h, _ in pairs) * 1000,
            statistics.median(b for _, b in pairs) * 1000)


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

    def post(name: str, payload: dict) -> dict:
        conn = http.client.HTTPConnection(host, port, timeout=60)
        conn.request("POST", f"/api/{name}", json.dumps(payload),
                     {"Content-Type": "application/json"})
        answer = json.loads(conn.getresponse().read())
        conn.close()
        return answer

    api = Api()
    print(f"{'board':32} {'endpoint':6} {'http ms':>8} {'lib ms':>8} {'ratio':>6}")
    for ident in BOARDS:
        if ident not in catalogue():
            continue
        board = api.call("load", {"instance": ident})["board"]
        puzzle = json_format.read(json.dumps(board["puzzle"]))
        marks = ["?" * puzzle.width] * puzzle.height
        payload = {"puzzle": board["puzzle"], "marks": marks}
        for name, library in library_calls(puzzle, marks, api.engine).items():
            http_ms, lib_ms = paired_medians_ms(partial(post, name, payload), library,
                                                args.repeat)
            print(f"{ident:32} {name:6} {http_ms:8.2f} {lib_ms:8.2f} {http_ms / lib_ms:6.2f}")
    server.shutdown()


if __name__ == "__main__":
    main()
