"""thermomilp against its peers: solve + decide uniqueness, same boards, one run.

    python benchmarks/peers.py            # full run, rewrites benchmarks/results/peers.md
    python benchmarks/peers.py --quick    # a smoke run (fewer, smaller boards), prints only

Methods (each: build the model, solve, decide uniqueness):

* ``thermomilp`` -- ``thermomilp.solve`` with each backend (highs, pulp,
  pyomo; engine HiGHS) and each logic presolve setting (none / intervals /
  probing); the default is what ``thermomilp solve`` does with no flags
  (:data:`thermomilp.core.config.DEFAULTS`);
* ``pulp+cbc`` -- the textbook PuLP cell model with CBC (benchmarks/peer_models.py);
* ``cp-sat 1w`` / ``cp-sat`` -- OR-Tools CP-SAT, one worker enumerating to two
  solutions / default workers with a no-good re-solve;
* ``scip (pywraplp)`` -- the cell model through OR-Tools' linear solver wrapper;
* ``highs plain`` -- the cell model written with highspy's own modelling API.

Corpora: benchmarks/corpora.py. Every method's verdict (unique / multiple /
infeasible) is compared with the others; a disagreement is printed and
reported. A timeout counts as the time limit in the totals.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import corpora  # noqa: E402
import machine  # noqa: E402
import peer_models  # noqa: E402
from report import replace_block  # noqa: E402

from thermomilp import solve  # noqa: E402
from thermomilp.core.config import DEFAULTS  # noqa: E402

PRESOLVES = ("none", "intervals", "probing")
DEFAULT = f"thermomilp highs presolve={DEFAULTS['logic']} (default)"


def thermomilp_method(backend: str, presolve: str):
    def run(puzzle, time_limit):
        # as for a board solved once: no probing kept from another method's run
        result = solve(puzzle, backend=backend, solver="highs", time_limit=time_limit,
                            logic=presolve)
        return result.status
    return run


def methods(include_slow: bool = True) -> dict[str, object]:
    out: dict[str, object] = {DEFAULT: thermomilp_method("highs", DEFAULTS["logic"])}
    for backend in ("highs", "pulp", "pyomo"):
        for setting in PRESOLVES:
            if backend == "highs" and setting == DEFAULTS["logic"]:
                continue
            out[f"thermomilp {backend} presolve={setting}"] = thermomilp_method(backend, setting)
    out["pulp+cbc (textbook)"] = peer_models.decide_pulp_cbc
    try:
        import ortools  # noqa: F401
        out["cp-sat 1 worker"] = lambda p, t: peer_models.decide_cpsat(p, t, workers=1)
        out["cp-sat default"] = lambda p, t: peer_models.decide_cpsat(p, t, workers=0)
        out["scip (pywraplp)"] = peer_models.decide_pywraplp
    except ImportError:
        print("ortools is not installed (pip install 'thermomilp[bench]'): CP-SAT and SCIP "
              "are left out", file=sys.stderr)
    out["highs plain model"] = peer_models.decide_plain_highs
    return out


def build_corpora(quick: bool) -> dict[str, list]:
    if quick:
        return {"published 6-10": corpora.published(1, sizes=(6, 8, 10)),
                "planted 20x20": corpora.planted(20, 2),
                "aquarium 6-10": corpora.aquariums(1, sizes=(6, 8, 10))}
    return {
        "published 6-15 (unique)": corpora.published(4),
        "planted 20x20": corpora.planted(20, 5),
        "planted 40x40": corpora.planted(40, 3),
        "planted 60x60": corpora.planted(60, 3),
        "planted 100x100": corpora.planted(100, 2),
        "aquarium 6-15": corpora.aquariums(3),
    }


def warm_up(all_methods) -> None:
    """Import every library and build one tiny model, outside the timings."""
    board = corpora.planted(4, 1)[0].puzzle
    for run in all_methods.values():
        run(board, 10.0)


def measure(all_methods, boards, time_limit: float):
    rows = []
    for board in boards:
        verdicts, times = {}, {}
        for name, run in all_methods.items():
            start = time.perf_counter()
            try:
                verdict = run(board.puzzle, time_limit)
            except Exception as exc:  # a peer's failure is reported, not fatal
                verdict = f"error: {exc}"
            times[name] = min(time.perf_counter() - start, time_limit) \
                if verdict == "timeout" else time.perf_counter() - start
            verdicts[name] = verdict
        decided = {v for v in verdicts.values() if v in ("unique", "multiple", "infeasible")}
        if len(decided) > 1:
            print(f"DISAGREEMENT on {board.name}: {verdicts}", file=sys.stderr)
        rows.append({"board": board.name, "verdicts": verdicts, "times": times})
        print(f"  {board.name:<14} " + "  ".join(f"{t:7.3f}" for t in times.values())
              + f"   {verdicts[DEFAULT]}", file=sys.stderr, flush=True)
    return rows


def corpus_table(name: str, rows, names) -> str:
    totals = {m: sum(r["times"][m] for r in rows) for m in names}
    base = totals[DEFAULT] or 1e-12
    verdicts = [r["verdicts"][DEFAULT] for r in rows]
    counts = ", ".join(f"{verdicts.count(v)} {v}" for v in sorted(set(verdicts)))
    lines = [f"### {name}: {len(rows)} boards ({counts})", "",
             "| method | total s | median s | ratio to thermomilp default | not decided |",
             "|---|---:|---:|---:|---:|"]
    for m in sorted(names, key=lambda m: totals[m]):
        med = statistics.median(r["times"][m] for r in rows)
        undecided = sum(r["verdicts"][m] not in ("unique", "multiple", "infeasible")
                        for r in rows)
        bold = "**" if m == DEFAULT else ""
        lines.append(f"| {bold}{m}{bold} | {totals[m]:.3f} | {med:.4f} | "
                     f"{totals[m] / base:.2f}x | {undecided or ''} |")
    disagreements = [r["board"] for r in rows
                     if len({v for v in r["verdicts"].values()
                             if v in ("unique", "multiple", "infeasible")}) > 1]
    lines += ["", "Verdicts agree on every board." if not disagreements
              else f"**Verdicts disagree on {', '.join(disagreements)}.**"]
    return "\n".join(lines)


def target_lines(results) -> list[str]:
    """The issue's ratio targets, checked on this run's totals."""
    def total(corpus_prefix, method):
        for cname, rows in results.items():
            if cname.startswith(corpus_prefix):
                return sum(r["times"][method] for r in rows)
        return None

    checks = [("published", "cp-sat 1 worker", 0.5), ("published", "cp-sat default", 0.5),
              ("planted 60x60", "cp-sat 1 worker", 0.3),
              ("planted 60x60", "highs plain model", 1.0)]
    lines = ["| corpus | default total s | peer | peer total s | ratio | target | met |",
             "|---|---:|---|---:|---:|---:|---|"]
    for corpus, peer, limit in checks:
        ours, theirs = total(corpus, DEFAULT), total(corpus, peer)
        if ours is None or theirs is None:
            continue
        ratio = ours / theirs
        lines.append(f"| {corpus} | {ours:.3f} | {peer} | {theirs:.3f} | {ratio:.2f}x | "
                     f"<= {limit:g}x | {'yes' if ratio <= limit else '**no**'} |")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run, print only")
    parser.add_argument("--time-limit", type=float, default=60.0,
                        help="seconds per method per board (default 60)")
    parser.add_argument("--page", default=str(HERE / "results" / "peers.md"))
    parser.add_argument("--raw", default=str(HERE / "results" / "peers.json"))
    args = parser.parse_args(argv)

    all_methods = methods()
    names = list(all_methods)
    print("building corpora ...", file=sys.stderr, flush=True)
    corpus = build_corpora(args.quick)
    warm_up(all_methods)
    print("columns: " + " | ".join(names), file=sys.stderr)
    results, tables = {}, []
    for cname, boards in corpus.items():
        print(f"{cname}:", file=sys.stderr, flush=True)
        results[cname] = measure(all_methods, boards, args.time_limit)
        tables.append(corpus_table(cname, results[cname], names))
    body = "\n\n".join([f"Machine: {machine.describe()}.",
                        f"Command: `python benchmarks/peers.py` (time limit "
                        f"{args.time_limit:g} s per method and board; a timeout counts "
                        f"as the limit).",
                        "Targets on this run's totals:\n\n" + "\n".join(target_lines(results)),
                        *tables])
    print(body)
    if not args.quick:
        replace_block(Path(args.page), "peers", body)
        Path(args.raw).parent.mkdir(parents=True, exist_ok=True)
        Path(args.raw).write_text(json.dumps({"machine": machine.describe(),
                                              "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
