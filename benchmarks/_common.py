"""Shared helpers for the benchmark scripts: corpora and timing."""

from __future__ import annotations

import platform
import random
import statistics
import subprocess
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent


def machine() -> str:
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        cpu = platform.processor() or "unknown CPU"
    cores = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
    return f"{cpu}, {cores} cores, Python {platform.python_version()}"


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def planted_corpus(sizes: list[int], per_size: int, seed: int):
    from thermomilp.generate.random_board import planted_board

    rng = random.Random(seed)
    return [(f"planted {n}x{n}", planted_board(n, n, rng)) for n in sizes for _ in range(per_size)]


def instance_corpus():
    from thermomilp.formats import load

    files = sorted((ROOT / "instances" / "thermometers").glob("*.txt"))
    boards = [(p.name, load(p)) for p in files]
    for corpus in (ROOT.parent / "shared" / "corpus" / "janko-6x6",):
        if corpus.is_dir():
            boards += [(f"janko {p.name}", load(p)) for p in sorted(corpus.glob("*.txt"))]
    return boards


def summary(times: list[float]) -> tuple[float, float]:
    return sum(times), statistics.median(times) if times else float("nan")
