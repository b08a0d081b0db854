"""Fresh-process wall time: ``thermomilp --help`` and a one-file 10x10 solve.

    python benchmarks/startup.py     # rewrites benchmarks/results/startup.md

Each command runs ``--repeat`` times in a new interpreter (``python -m
thermomilp``); the table gives the median and best wall time, and the
bare interpreter start-up (``python -c pass``) as the floor.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]

BOARD = "instances/thermometers/t06_10x10.txt"
COMMANDS = {
    "python -c pass (floor)": ["-c", "pass"],
    "thermomilp --help": ["-m", "thermomilp", "--help"],
    f"thermomilp solve {BOARD}": ["-m", "thermomilp", "solve", BOARD],
    f"thermomilp solve --format json {BOARD}": ["-m", "thermomilp", "solve", "--format",
                                                "json", BOARD],
    f"thermomilp solve --logic none {BOARD} (MILP path: numpy + highspy load)":
        ["-m", "thermomilp", "solve", "--logic", "none", BOARD],
}


def wall(args: list[str]) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--page", default=str(ROOT / "benchmarks" / "results" / "startup.md"))
    args = parser.parse_args(argv)
    lines = ["| command (fresh process) | median s | best s |", "|---|---:|---:|"]
    for label, cmd in COMMANDS.items():
        times = [wall(cmd) for _ in range(args.repeat)]
        lines.append(f"| `{label}` | {statistics.median(times):.3f} | {min(times):.3f} |")
    import machine
    from report import replace_block

    body = (f"Machine: {machine.describe()}.\n\nCommand: `python benchmarks/startup.py` "
            f"({args.repeat} runs each).\n\n" + "\n".join(lines))
    print(body)
    replace_block(Path(args.page), "startup", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
