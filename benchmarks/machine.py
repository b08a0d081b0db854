"""The machine and library versions a benchmark ran on (for benchmarks/results/*.md)."""

from __future__ import annotations

import os
import platform
import time
from importlib import metadata


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def versions(names=("highspy", "numpy", "PuLP", "pyomo", "ortools")) -> dict[str, str]:
    out = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def describe() -> str:
    vs = ", ".join(f"{k} {v}" for k, v in versions().items())
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; nproc {os.cpu_count()}; "
            f"CPU {cpu_model()}; Python {platform.python_version()} on {platform.system()}; {vs}")
