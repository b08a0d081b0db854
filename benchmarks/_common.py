"""Shared helpers for the benchmark scripts: corpora and timing."""

from __future__ import annotations

import os
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


def janko_folder() -> Path | None:
    """The published janko 6x6 boards, read for measuring only (never copied), where the
    tests find them: ``$THERMOMILP_CORPUS`` (the folder or its parent), else
    ``../shared/corpus/janko-6x6`` beside the repository; None when neither exists."""
    given = os.environ.get("THERMOMILP_CORPUS")
    candidates = [Path(given), Path(given) / "janko-6x6"] if given else []
    candidates.append(ROOT.parent / "shared" / "corpus" / "janko-6x6")
    return next((c for c in candidates if c.is_dir() and any(c.glob("*.txt"))), None)


def janko_corpus() -> list:
    """``(label, puzzle)`` for each board of `janko_folder` ([] without one)."""
    from thermomilp.formats import load

    folder = janko_folder()
    files = sorted(folder.glob("*.txt")) if folder else []
    return [(f"janko {p.name}", load(p)) for p in files]


def instance_corpus():
    from thermomilp.formats import load

    files = sorted((ROOT / "instances" / "thermometers").glob("*.txt"))
    return [(p.name, load(p)) for p in files] + janko_corpus()


def summary(times: list[float]) -> tuple[float, float]:
    return sum(times), statistics.median(times) if times else float("nan")
