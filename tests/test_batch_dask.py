"""thermomilp batch --dask: the same records on a Dask LocalCluster as in a local run.

.ci/run installs ``dask[distributed]`` and sets ``THERMOMILP_REQUIRE_DASK``,
so in CI a missing Dask is a failure; elsewhere the test skips without it.
"""

from __future__ import annotations

import io
import json
import os

import pytest

from thermomilp.batch import BatchJob, run_batch
from thermomilp.cli.main import main
from thermomilp.core.install import pip_install
from thermomilp.formats import dumps
from thermomilp.generate.random_board import planted_board

if os.environ.get("THERMOMILP_REQUIRE_DASK"):  # set by .ci/run: CI must run this test
    import distributed
else:
    distributed = pytest.importorskip(
        "distributed", reason=f"Dask is not installed; install: {pip_install('dask')}")


def write_corpus(folder, count, size, seed):
    import os
    import random

    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(count):
        path = folder / f"b{k:03d}.json"
        path.write_text(dumps(planted_board(size, size, rng), "json"))
        paths.append(os.path.normpath(str(path)))
    return paths


def read_jsonl(path):
    text = path.read_text()
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def without_time(records):
    """Records keyed for comparison between runs: everything but the time, and for
    ``multiple`` boards only the status -- which two of the solutions an engine
    meets first may differ between runs (threads); both grids are verified instead."""
    from thermomilp.core.verify import solution_problems
    from thermomilp.formats import load

    out = []
    for r in records:
        r = {k: v for k, v in r.items() if k != "time_s"}
        if r["status"] == "multiple":
            puzzle = load(r["file"])
            assert solution_problems(puzzle, tuple(r["grid"])) == []
            assert solution_problems(puzzle, tuple(r["second"])) == []
            assert r["grid"] != r["second"]
            r = {"file": r["file"], "status": "multiple"}
        out.append(r)
    return sorted(out, key=lambda r: r["file"])


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=3, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        yield cluster


def test_dask_records_equal_the_local_run(tmp_path, cluster):
    paths = write_corpus(tmp_path / "c", 8, 7, seed=11)
    local = io.StringIO()
    run_batch(paths, BatchJob(), local, jobs=1)
    out = tmp_path / "dask.jsonl"
    code = main(["batch", str(tmp_path / "c"), "--out", str(out), "--dask",
                 cluster.scheduler_address, "--no-progress"])
    assert code in (0, 1)
    remote = read_jsonl(out)
    assert without_time(remote) == without_time(json.loads(x) for x in
                                                 local.getvalue().splitlines())


def test_dask_resume_solves_only_the_rest(tmp_path, cluster):
    paths = write_corpus(tmp_path / "c", 6, 6, seed=12)
    out = tmp_path / "dask.jsonl"
    with open(out, "w") as handle:
        run_batch(paths[:2], BatchJob(), handle, jobs=1)
    with distributed.Client(cluster) as client, open(out, "a") as handle:
        from thermomilp.batch import read_output

        summary = run_batch(paths, BatchJob(), handle, dask=client, previous=read_output(str(out)))
    assert summary.skipped == 2 and len(summary.records) == 4
    assert sorted(r["file"] for r in read_jsonl(out)) == sorted(paths)
