"""Solves from several threads at once finish, on every pair (issue 25: Pyomo's output
capture deadlocked two simultaneous solves)."""

from __future__ import annotations

import threading

import pytest

from thermomilp.backends.matrix import KNOWN_PAIRS
from thermomilp.formats import load
from thermomilp.solving import solve

from helpers import INSTANCES, use_pair

THREADS = 4
WAIT_S = 120.0
BOARDS = ("t03_6x6.txt", "t05_8x8.txt", "t07_5x5_two_solutions.txt", "t08_4x4_no_solution.txt")
EXPECTED = {"t03_6x6.txt": "unique", "t05_8x8.txt": "unique",
            "t07_5x5_two_solutions.txt": "multiple", "t08_4x4_no_solution.txt": "infeasible"}


def _run_together(backend: str, solver: str) -> dict[str, str]:
    results: dict[str, str] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def one(name: str) -> None:
        try:
            start.wait()
            results[name] = solve(load(INSTANCES / "thermometers" / name), backend=backend,
                                  solver=solver, logic="none", time_limit=60).status
        except BaseException as exc:  # noqa: BLE001 - reported by the test below
            errors.append(exc)

    threads = [threading.Thread(target=one, args=(name,), daemon=True) for name in BOARDS]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_S)
    hung = [t for t in threads if t.is_alive()]
    assert not hung, f"{len(hung)} of {THREADS} solves on {backend}/{solver} never finished"
    assert errors == []
    return results


@pytest.mark.parametrize("pair", KNOWN_PAIRS, ids=[f"{b}-{s}" for b, s in KNOWN_PAIRS])
def test_four_threads_solve_at_once_on_every_pair(pair):
    backend, solver = use_pair(*pair)
    assert _run_together(backend, solver) == EXPECTED
