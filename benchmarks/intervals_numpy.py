"""Is numpy worth it for the interval fixpoint? A measured answer.

Times the production propagator (pure Python, a queue of lines, bitset
domains: ``thermomilp.logic.propagation``) against a vectorised numpy variant
written here for the comparison only (Jacobi rounds over all lines at once:
contribution tensor ``T[v, l, L]``, ``cmin``/``cmax`` by gather, line sums,
``needMin``/``needMax`` by broadcasting, new bounds by a masked argmax) on
the same seeded boards, and checks both reach the same fixpoint.

Usage:  PYTHONPATH=. python benchmarks/intervals_numpy.py [--boards 200]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from thermomilp.generate.random_board import planted_board
from thermomilp.logic.domains import full_domains, high, line_tables, low
from thermomilp.logic.propagation import propagate


def tensor(puzzle):
    t = line_tables(puzzle)
    n, lines, depth = t.n_vessels, len(t.clues), max(t.depths)
    T = np.zeros((n, lines, depth + 1), dtype=np.int64)
    for line, (vs, tabs) in enumerate(zip(t.line_vessels, t.line_tables, strict=True)):
        for v, tab in zip(vs, tabs, strict=True):
            T[v, line, : len(tab)] = tab
            T[v, line, len(tab):] = tab[-1]
    clued = np.array([c is not None for c in t.clues])
    clues = np.array([c or 0 for c in t.clues])
    depths = np.array(t.depths)
    return T, clued, clues, depths


def numpy_fixpoint(T, clued, clues, depths):
    n, lines, width = T.shape
    lo = np.zeros(n, dtype=np.int64)
    hi = depths.copy()
    idx = np.arange(n)
    levels = np.arange(width)
    valid = levels[None, :] <= depths[:, None]
    while True:
        cmin = T[idx, :, lo]              # (n, lines)
        cmax = T[idx, :, hi]
        smin, smax = cmin.sum(0), cmax.sum(0)
        if np.any(clued & ((smin > clues) | (smax < clues))):
            return None
        need_min = clues[None, :] - (smax[None, :] - cmax)
        need_max = clues[None, :] - (smin[None, :] - cmin)
        ok = (T >= need_min[:, :, None]) & (T <= need_max[:, :, None])
        ok |= ~clued[None, :, None]
        in_bounds = (levels[None, :] >= lo[:, None]) & (levels[None, :] <= hi[:, None])
        allowed = ok.all(1) & valid & in_bounds
        if not allowed.any(1).all():
            return None
        new_lo = allowed.argmax(1)
        new_hi = width - 1 - allowed[:, ::-1].argmax(1)
        if np.array_equal(new_lo, lo) and np.array_equal(new_hi, hi):
            return lo, hi
        lo, hi = new_lo, new_hi


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=200)
    args = ap.parse_args()
    print("| size | python queue (µs/board) | numpy rounds (µs/board) | numpy / python |")
    print("|---|---|---|---|")
    for size in (6, 8, 10, 15, 20):
        rng = random.Random(size)
        boards = [planted_board(size, size, rng, max_length=8) for _ in range(args.boards)]
        tables = [line_tables(p) for p in boards]
        tensors = [tensor(p) for p in boards]
        for t, tn in zip(tables, tensors, strict=True):  # same fixpoint
            dom = full_domains(t)
            ok = propagate(t, dom)
            got = numpy_fixpoint(*tn)
            assert ok == (got is not None)
            if ok:
                assert [low(m) for m in dom] == list(got[0])
                assert [high(m) for m in dom] == list(got[1])
        start = time.perf_counter()
        for t in tables:
            propagate(t, full_domains(t))
        py = (time.perf_counter() - start) / len(boards)
        start = time.perf_counter()
        for tn in tensors:
            numpy_fixpoint(*tn)
        nump = (time.perf_counter() - start) / len(boards)
        print(f"| {size}×{size} | {py * 1e6:.0f} | {nump * 1e6:.0f} | {nump / py:.2f} |",
              flush=True)


if __name__ == "__main__":
    main()
