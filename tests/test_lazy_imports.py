"""A command imports what it uses: a board the logic decides loads no engine, no numpy.

Each check runs in a fresh interpreter (``python -c``) and reads ``sys.modules``
afterwards. The boards that need an engine must load it (else the check proves
nothing), and the first of them is timed like the others: the engine's import and
warm-up run with the board's clock paused (``Deadline.paused``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from thermomilp.core.deadline import Deadline

from helpers import INSTANCES, ROOT, fake_engine

HEAVY = ("highspy", "pyomo", "pulp", "numpy")
DECIDED = INSTANCES / "thermometers" / "t06_10x10.txt"  # probing fixes every cell
TWO = INSTANCES / "thermometers" / "t07_5x5_two_solutions.txt"  # the logic's search finds both
OPEN = ROOT / "benchmarks" / "hard" / "h30x30_s1.txt"  # past the search's size: the engine


def loaded_after(code: str) -> tuple[list[str], str]:
    """The heavy libraries in ``sys.modules`` after ``code`` ran in a fresh process,
    and what it printed."""
    probe = (f"{code}\nimport sys\n"
             f"print('HEAVY', [m for m in {HEAVY!r} if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("HEAVY "), done.stdout
    return eval(last[len("HEAVY "):]), done.stdout  # noqa: S307 - our own list literal


def cli(*args: str) -> str:
    return (f"from thermomilp.cli.main import main\n"
            f"assert main({list(args)!r}) == 0")


def test_a_board_the_logic_decides_loads_no_engine_through_the_cli():
    heavy, out = loaded_after(cli("solve", "--format", "json", str(DECIDED)))
    record = json.loads(out.splitlines()[0])
    assert record["proof"] == "logic" and record["engine_called"] is False
    assert heavy == [], heavy
    heavy, _ = loaded_after(cli("solve", str(DECIDED)))  # the text printout too
    assert heavy == [], heavy


def test_a_board_the_logic_decides_loads_no_model_builder_and_no_svg_writer():
    """What a decided board's `solve` never uses stays unloaded: start-up is most of its
    time."""
    unused = ("thermomilp.model.compact", "thermomilp.model.highs_model",
              "thermomilp.model.pulp_model", "thermomilp.pictures.svg", "thermomilp.generate",
              "thermomilp.teach", "thermomilp.web", "thermomilp.batch")
    _, out = loaded_after(cli("solve", str(DECIDED))
                          + f"\nimport sys\nprint('UNUSED', [m for m in {unused!r} "
                            "if m in sys.modules])")
    line = next(x for x in out.splitlines() if x.startswith("UNUSED "))
    assert line == "UNUSED []", line


def test_a_board_the_logic_leaves_open_loads_the_engine():
    heavy, out = loaded_after(cli("solve", "--format", "json", str(OPEN)))
    record = json.loads(out.splitlines()[0])
    assert record["status"] == "unique" and record["engine_called"] is True
    assert "highspy" in heavy and "numpy" in heavy, heavy
    heavy, _ = loaded_after(cli("solve", "--logic", "none", str(DECIDED)))
    assert "highspy" in heavy, heavy


def test_two_solutions_the_search_finds_load_no_engine():
    heavy, out = loaded_after(cli("solve", "--format", "json", str(TWO)))
    record = json.loads(out.splitlines()[0])
    assert record["status"] == "multiple" and record["proof"] == "logic"
    assert record["engine_called"] is False and record["second"] != record["grid"]
    assert heavy == [], heavy


def test_the_api_solves_a_decided_board_without_an_engine():
    heavy, out = loaded_after(
        "from thermomilp import Settings, load, solve\n"
        f"r = solve(load({str(DECIDED)!r}), settings=Settings())\n"
        "print(r.status, r.proof)")
    assert "unique logic" in out and heavy == [], heavy


def test_the_package_and_the_version_import_only_the_errors():
    code = ("import sys, thermomilp\n"
            "print('MODULES', sorted(m for m in sys.modules if m.startswith('thermomilp')))")
    heavy, out = loaded_after(code)
    line = next(x for x in out.splitlines() if x.startswith("MODULES"))
    assert eval(line[len("MODULES "):]) == [  # noqa: S307
        "thermomilp", "thermomilp.core", "thermomilp.core.errors", "thermomilp.version"]
    assert heavy == []
    done = subprocess.run([sys.executable, "-c", "import sys; from thermomilp.cli.main import "
                           "main; code = main(['--version']); print(sorted(sys.modules))"],
                          capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert "thermomilp 0." in done.stdout
    assert "thermomilp.solving" not in done.stdout and "thermomilp.formats" not in done.stdout
    assert "thermomilp.core.settings" not in done.stdout
    version = subprocess.run([sys.executable, "-m", "thermomilp", "--version"],
                             capture_output=True, text=True, cwd=ROOT,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)))
    from thermomilp.version import __version__

    assert version.returncode == 0 and version.stdout == f"thermomilp {__version__}\n"


def test_every_public_name_still_resolves_lazily():
    heavy, out = loaded_after(
        "import thermomilp\n"
        "names = [n for n in thermomilp.__all__ if getattr(thermomilp, n) is None]\n"
        "from thermomilp import solve, Settings, load, build_model\n"
        "import thermomilp.solving as solving\n"
        "print('MISSING', names, solve is solving.solve, thermomilp.formats.load is load)")
    assert "MISSING [] True True" in out


class FakeTime:
    """The deadline module's clock, moved by the test only: no test here times anything."""

    def __init__(self):
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def fake_time(monkeypatch):
    import thermomilp.core.deadline as deadline_module

    fake = FakeTime()
    monkeypatch.setattr(deadline_module, "time", fake)
    return fake


def test_a_paused_clock_does_not_count_the_pause(fake_time):
    clock = Deadline(1.0)
    end = clock.end
    fake_time.sleep(0.25)  # time that counts
    with clock.paused():
        fake_time.sleep(0.5)  # time that does not
    assert clock.elapsed() == 0.25
    assert clock.end is not None and end is not None and clock.end == end + 0.5
    assert clock.remaining() == 0.75
    assert Deadline().remaining() is None


def test_the_backend_import_is_off_the_board_clock(fake_time, monkeypatch):
    """The engine's session imports the backend with the board's clock paused: the clock
    shows none of it (building the model is the board's time: the fake clock stands
    still meanwhile)."""
    from thermomilp.core.settings import Settings
    from thermomilp.solving import engine as engine_module

    real_import = engine_module.import_backend

    def slow_import(settings):  # the real import, and 100 s on the (fake) clock
        real_import(settings)
        fake_time.sleep(100.0)

    monkeypatch.setattr(engine_module, "import_backend", slow_import)
    clock = Deadline(None)
    from thermomilp import load

    board = load(INSTANCES / "thermometers" / "t01_4x4.txt")
    engine = engine_module.Engine(board, Settings(seed=12345), deadline=clock)
    try:
        engine.session  # noqa: B018 -- the first question for the engine opens it
    finally:
        engine.close()
    assert fake_time.now == 1100.0  # the warm-up ran...
    assert clock.elapsed() == 0.0  # ...and the board's clock shows none of it


def test_the_default_pair_check_reads_the_highs_version_without_importlib_metadata():
    code = ("import sys\nfrom thermomilp.backends.matrix import probe_engine\n"
            "print('VERSION', probe_engine('highs')[1].version, "
            "'importlib.metadata' in sys.modules)")
    _, out = loaded_after(code)
    line = next(x for x in out.splitlines() if x.startswith("VERSION"))
    import importlib.metadata

    assert line == f"VERSION {importlib.metadata.version('highspy')} False"


def test_the_line_masks_are_the_quadratic_definition():
    """logic.domains.line_masks (computed by one pass per table) against its definition."""
    import random

    from thermomilp.generate.random_board import planted_board
    from thermomilp.logic.domains import _masks, line_tables

    def reference(tab):
        span = range(tab[-1] + 1)
        return (tuple(sum(1 << L for L, c in enumerate(tab) if c >= x) for x in span),
                tuple(sum(1 << L for L, c in enumerate(tab) if c <= x) for x in span))

    rng = random.Random(28)
    for tab in [(0,), (0, 1), (0, 0, 2, 2, 3), (0, 3, 1, 2), (0, 5, 0, 7, 2)]:
        assert _masks(tab) == reference(tab), tab
    for _ in range(30):
        tab = (0, *[rng.randint(0, 6) for _ in range(rng.randint(0, 7))])
        assert _masks(tab) == reference(tab), tab
    for k in range(10):
        tables = line_tables(planted_board(rng.randint(2, 12), rng.randint(2, 12), rng))
        assert tables.line_masks == tuple(tuple(reference(t) for t in tabs)
                                          for tabs in tables.line_tables), k


def test_a_board_hash_is_cached_but_never_pickled():
    import pickle

    from thermomilp.formats import load

    board = load(DECIDED)
    assert hash(board) == hash(load(DECIDED)) and board == load(DECIDED)
    assert "_hash" in board.__dict__
    assert "_hash" not in pickle.loads(pickle.dumps(board)).__dict__
    assert pickle.loads(pickle.dumps(board)) == board
    other = board.with_clues([None] * board.height, board.cols)
    assert other != board and hash(other) != hash(board)


def test_a_board_the_logic_decides_with_another_engine_loads_no_pulp():
    """--solver cbc|glpk|scip alone: the pair check looks the layer and the engine up
    (importlib.util.find_spec, PATH) without importing PuLP or running the engine; the
    engine is probed when a session opens. A board the logic decides loads neither."""
    import importlib.util

    from thermomilp.backends.matrix import pair_info

    if importlib.util.find_spec("pulp") is None:  # the check needs PuLP installed
        import pytest

        pytest.skip("PuLP is not installed")
    from thermomilp.core.settings import DRIVES, Backend, Settings, Solver

    others = [s for s in Solver if s in DRIVES[Backend.PULP] and s is not Settings().solver]
    engines = [str(s) for s in others if pair_info("pulp", s, probe=False).available]
    assert engines, "no PuLP engine found: the check would prove nothing"
    for engine in engines:
        heavy, out = loaded_after(cli("solve", "--format", "json", "--solver", engine,
                                      str(DECIDED)))
        record = json.loads(out.splitlines()[0])
        assert record["proof"] == "logic" and record["solver"] == engine
        assert "pulp" not in heavy and heavy == [], (engine, heavy)
    # the engine does the work with --logic none: PuLP loads, the engine is probed and runs
    heavy, out = loaded_after(cli("solve", "--format", "json", "--solver", engines[0],
                                  "--logic", "none", str(DECIDED)))
    assert json.loads(out.splitlines()[0])["proof"] == "milp" and "pulp" in heavy, heavy


def test_a_pair_that_is_not_there_is_refused_all_the_same(monkeypatch):
    """The quick check only short-cuts a pair it finds: a missing one is probed and
    refused with the same message as before."""
    import pytest

    from thermomilp.backends import matrix
    from thermomilp.core.errors import SolverUnavailable

    fake_engine(monkeypatch, matrix.Solver.GLPK, matrix.Probe(
        False, None, "no glpsol in an absolute folder of PATH"), found=False)
    with pytest.raises(SolverUnavailable, match="pulp/glpk is not available"):
        matrix.require_pair("pulp", "glpk", probe=False)
