"""The command line's speed: fresh-process start-up, and a corpus in one process
against a CP-SAT counter in one process.

    python benchmarks/startup.py                 # both; rewrites benchmarks/results/startup.md
    python benchmarks/startup.py --skip-corpus   # start-up only (no ortools needed)

1. **Start-up**: each command runs ``--repeat`` times in a new interpreter
   (``python -m thermomilp``), the commands taken in turn (interleaved); the
   table gives the median and best wall time, and the bare interpreter
   (``python -c pass``) as the floor, and each median's ratio to the floor.
2. **The CLI over published boards**: one ``python -m thermomilp solve
   --format json FILE...`` process over every board against one
   ``python benchmarks/cpsat_counter.py FILE...`` process (OR-Tools CP-SAT, one
   worker, enumerating to the second solution; needs ``ortools``, the ``bench``
   extra), same interpreter, run alternately ``--repeat`` times; the figure is
   the ratio of the medians (the median of the paired ratios beside it). The
   boards (``--boards``, else :func:`corpora.held_out_stand_in`): the 30 janko
   6x6 boards of ``../shared/corpus`` where present, and generated unique 8x8
   and 10x10 boards up to 251 -- the issue's held-out published boards are not
   shipped, so these stand in for them, with their grade mix. Both processes'
   verdicts are compared; a disagreement is printed.

Wall times include everything a user waits for: interpreter start-up,
imports, reading every file, solving and printing. The processes may write
their bytecode caches (``PYTHONDONTWRITEBYTECODE`` is dropped from their
environment) and the first, untimed run writes them, as ``pip install`` does;
``--no-bytecode`` keeps the variable (every module compiled in every process).
CPU time (user + system) of each process is given beside the wall time: on a
busy machine it is the steadier figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]

BOARD = "instances/thermometers/t06_10x10.txt"
COMMANDS = {
    "python -c pass (floor)": ["-c", "pass"],
    "thermomilp --version": ["-m", "thermomilp", "--version"],
    "thermomilp --help": ["-m", "thermomilp", "--help"],
    f"thermomilp solve {BOARD}": ["-m", "thermomilp", "solve", BOARD],
    f"thermomilp solve --format json {BOARD}": ["-m", "thermomilp", "solve", "--format",
                                                "json", BOARD],
    f"thermomilp solve --logic none {BOARD} (MILP path: numpy + highspy load)":
        ["-m", "thermomilp", "solve", "--logic", "none", BOARD],
    f"thermomilp solve --solver cbc {BOARD} (the logic decides: PuLP not loaded)":
        ["-m", "thermomilp", "solve", "--solver", "cbc", BOARD],
    f"thermomilp solve --solver cbc --logic none {BOARD} (PuLP loads, CBC runs)":
        ["-m", "thermomilp", "solve", "--solver", "cbc", "--logic", "none", BOARD],
}


CPU: dict[str, list[float]] = {}
"""CPU seconds (user + system) of each timed process, by the ``label`` given to :func:`run`."""


def run(args: list[str], label: str | None = None) -> tuple[float, str]:
    """Wall time of ``python ARGS`` (this checkout first on the path) and its stdout;
    with ``label``, the process's CPU time goes to :data:`CPU` under it."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if not BYTECODE_OFF:
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its .pyc files
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=False,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if label is not None:
        CPU.setdefault(label, []).append(after.ru_utime - before.ru_utime
                                         + after.ru_stime - before.ru_stime)
    return wall, done.stdout


BYTECODE_OFF = False


def startup_table(repeat: int) -> str:
    times: dict[str, list[float]] = {label: [] for label in COMMANDS}
    for cmd in COMMANDS.values():  # file cache warm, .pyc written
        run(cmd)
    for _ in range(repeat):
        for label, cmd in COMMANDS.items():
            times[label].append(run(cmd)[0])
    floor = statistics.median(times["python -c pass (floor)"])
    lines = ["| command (fresh process) | median s | best s | median / floor |",
             "|---|---:|---:|---:|"]
    for label, runs in times.items():
        med = statistics.median(runs)
        lines.append(f"| `{label}` | {med:.3f} | {min(runs):.3f} | {med / floor:.1f}x |")
    return (f"Start-up, {repeat} interleaved runs each: `python benchmarks/startup.py "
            f"--skip-corpus`\n\n" + "\n".join(lines))


def corpus_files(folder: str, count: int) -> list[str]:
    import corpora
    from _common import janko_folder

    return corpora.held_out_stand_in(folder, count, janko_folder())


def verdicts_ours(out: str) -> dict[str, str]:
    return {r["file"]: r["status"] for r in map(json.loads, out.splitlines())}


def verdicts_peer(out: str) -> dict[str, str]:
    return dict(line.rsplit(": ", 1) for line in out.splitlines())


def corpus_table(files: list[str], repeat: int) -> str:
    """The CLI process over ``files`` against the CP-SAT counter process, alternately."""
    ours_cmd = ["-m", "thermomilp", "solve", "--format", "json", *files]
    peer_cmd = [str(HERE / "cpsat_counter.py"), *files]
    _, out = run(ours_cmd)  # file cache warm; verdicts compared once
    _, peer_out = run(peer_cmd)
    ours_v, peer_v = verdicts_ours(out), verdicts_peer(peer_out)
    differ = {f: (ours_v.get(f), peer_v.get(f)) for f in files if ours_v.get(f) != peer_v.get(f)}
    ours, peer = [], []
    for _ in range(repeat):
        ours.append(run(ours_cmd, "ours")[0])
        peer.append(run(peer_cmd, "peer")[0])
    o, p = statistics.median(ours), statistics.median(peer)
    paired = statistics.median(a / b for a, b in zip(ours, peer, strict=True))
    cpu_o, cpu_p = statistics.median(CPU["ours"]), statistics.median(CPU["peer"])
    lines = [f"The CLI over {len(files)} published boards (`python benchmarks/startup.py`), "
             f"{repeat} alternating runs:", "",
             "| process | median s | min s | max s |", "|---|---:|---:|---:|"]
    for name, runs in (("`thermomilp solve --format json FILE...`", ours),
                       ("CP-SAT counter (`benchmarks/cpsat_counter.py FILE...`)", peer)):
        lines.append(f"| {name} | {statistics.median(runs):.3f} | {min(runs):.3f} "
                     f"| {max(runs):.3f} |")
    lines += ["", f"**Ratio of the medians {o / p:.2f}x** (median of the paired ratios "
              f"{paired:.2f}x; target <= 0.5x). Per board, with start-up: ours "
              f"{1000 * o / len(files):.1f} ms, CP-SAT {1000 * p / len(files):.1f} ms. "
              f"CPU time (user + system, median): ours {cpu_o:.2f} s, CP-SAT {cpu_p:.2f} s, "
              f"ratio {cpu_o / cpu_p:.2f}x."]
    statuses = sorted(set(ours_v.values()))
    lines.append(f"Verdicts: {', '.join(f'{s} {list(ours_v.values()).count(s)}' for s in statuses)}"
                 + (f"; DISAGREE on {len(differ)}: {differ}" if differ else
                    "; the CP-SAT counter agrees on every board."))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skip-corpus", action="store_true",
                        help="start-up only (the corpus comparison needs ortools)")
    parser.add_argument("--skip-startup", action="store_true")
    parser.add_argument("--boards", nargs="+", metavar="FILE",
                        help="the corpus (default: the janko boards + generated, 251 in all)")
    parser.add_argument("--count", type=int, default=251, help="boards of the default corpus")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="keep PYTHONDONTWRITEBYTECODE: every process compiles the "
                             "package's modules again (a checkout run as is)")
    parser.add_argument("--page", default=str(ROOT / "benchmarks" / "results" / "startup.md"))
    args = parser.parse_args(argv)
    global BYTECODE_OFF
    BYTECODE_OFF = args.no_bytecode and "PYTHONDONTWRITEBYTECODE" in os.environ
    import machine
    from report import replace_block

    parts = [f"Machine: {machine.describe()}; load average {os.getloadavg()[0]:.1f}."]
    if not args.skip_startup:
        parts.append(startup_table(args.repeat))
        print(parts[-1], flush=True)
    if not args.skip_corpus:
        with tempfile.TemporaryDirectory() as folder:
            files = args.boards or corpus_files(folder, args.count)
            parts.append(corpus_table(files, args.repeat))
        print(parts[-1], flush=True)
    parts.append(f"Load average at the end {os.getloadavg()[0]:.1f}.")
    body = "\n\n".join(parts)
    print(parts[0] + "\n" + parts[-1])
    if not args.boards:
        replace_block(Path(args.page), "startup", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
