"""Latency of the `thermomilp serve` API against the library it wraps.

For a few bundled boards, times each endpoint over real HTTP (server on port
0 in a thread, ``http.client`` with a fresh connection per request, as the
page does) and, as the baseline measured in the same run, the library call
the endpoint makes (``solve``, ``next_hint``, the LP export). Prints the
median of ``--repeat`` runs in milliseconds and the ratio HTTP / library.

    python benchmarks/serve_latency.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from thermomilp.formats import json_format  # noqa: E402
from thermomilp.solve import solve  # noqa: E402
from thermomilp.web.api import Api, model_exporter  # noqa: E402
from thermomilp.web.hints import next_hint  # noqa: E402
from thermomilp.web.instances import catalogue  # noqa: E402
from thermomilp.web.server import serve_in_thread  # noqa: E402

BOARDS = ("thermometers/t03_6x6.txt", "thermometers/t06_10x10.txt", "aquarium/a04_10x10.txt",
          "aquarium/a06_15x15.txt")


def median_ms(work, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


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
    _, export = model_exporter()
    print(f"{'board':32} {'endpoint':6} {'http ms':>8} {'lib ms':>8} {'ratio':>6}")
    for ident in BOARDS:
        if ident not in catalogue():
            continue
        board = api.call("load", {"instance": ident})["board"]
        puzzle = json_format.read(json.dumps(board["puzzle"]))
        marks = ["?" * puzzle.width] * puzzle.height
        payload = {"puzzle": board["puzzle"], "marks": marks}
        cases = {
            "solve": lambda: solve(puzzle, unique=True),
            "hint": lambda: next_hint(puzzle, marks),
            "model": lambda: export(puzzle, "lp"),
        }
        for name, library in cases.items():
            http_ms = median_ms(lambda: post(name, payload), args.repeat)
            lib_ms = median_ms(library, args.repeat)
            print(f"{ident:32} {name:6} {http_ms:8.2f} {lib_ms:8.2f} {http_ms / lib_ms:6.2f}")
    server.shutdown()


if __name__ == "__main__":
    main()
