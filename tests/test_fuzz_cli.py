"""Fuzz the CLI end to end: random bytes and mutated valid files in every format,
through every command that reads a file. Whatever the input, the exit code is
0, 1 or 2 (never 3, an internal error), stderr holds no traceback, and each
example finishes within its time bound.

Examples run in one long-lived child process (``tests/cli_fuzz_worker.py``:
``thermomilp.cli.main.main`` in-process, memory capped), restarted if it dies
or hangs; a few more go through a real ``python -m thermomilp`` subprocess.
``THERMOMILP_FUZZ=heavy`` (or a number of examples) selects a longer run::

    THERMOMILP_FUZZ=heavy python -m pytest tests/test_fuzz_cli.py
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thermomilp.formats import dumps, load

from helpers import ROOT

_LEVEL = os.environ.get("THERMOMILP_FUZZ", "")
EXAMPLES = 1500 if _LEVEL == "heavy" else int(_LEVEL) if _LEVEL.isdigit() else 100
SUBPROCESS_EXAMPLES = max(3, EXAMPLES // 20)
SECONDS = 30.0
"""An example's bound: every command runs with --time-limit 2 where it takes one."""

# --------------------------------------------------------------------------
# Seeds: valid files in every format
# --------------------------------------------------------------------------

SUFFIX = {"json": ".json", "text": ".txt", "janko": ".janko", "site": ".task",
          "aquarium-task": ".task", "puzzlink": ".url"}


def _seeds() -> list[tuple[str, str, str]]:
    """(kind, suffix, text) of small bundled boards, written in every format that holds them."""
    seeds = []
    boards = [("thermometers", name) for name in
              ("t01_4x4.txt", "t03_6x6.txt", "t07_5x5_two_solutions.txt",
               "t08_4x4_no_solution.txt")] + [("aquarium", "a01_6x6.txt")]
    for kind, name in boards:
        puzzle = load(ROOT / "instances" / kind / name)
        formats = (("json", "text", "janko", "site") if kind == "thermometers"
                   else ("json", "text", "aquarium-task", "puzzlink"))
        for fmt in formats:
            seeds.append((kind, SUFFIX[fmt], dumps(puzzle, fmt)))
    return seeds


SEEDS = _seeds()

COMMANDS = [
    ["solve", "--time-limit", "2"],
    ["solve", "--format", "json", "--time-limit", "2"],
    ["show"],
    ["convert", "--to", "json"],
    ["convert", "--to", "text"],
    ["convert", "--to", "site"],
    ["check", "--time-limit", "2"],
    ["explain"],
    ["hint"],
    ["analyze"],
    ["export", "--to", "lp"],
    ["batch", "--jobs", "1", "--no-progress", "--time-limit", "2", "--out", "out.jsonl"],
]

TOKENS = ["0", "1", "-1", "7", "99999", "999999999", "100000", "9" * 30, "9" * 5000, "1e400",
          "nan", "-", "?", ".",
          "#", "x", "o", "v", "<", ">", "^", " ", "  ", "\n", "\r\n", "\t", ",", ";", "_", ":",
          "{", "}", "[", "]", '"', "null", "true", '"\\ud800"', "\\ud800", "²", "٣", "５", "é",
          "\u00a0", "\x00", "\ufeff", "aquarium", "thermometers", "solution", "labels",
          "rlabels", "clabels", "1.1", "2.3", "5,", "1_1;1,", "/r/", "p?aquarium/", "g", "z"]


NUMBERS = ["0", "-1", "2", "65", "1001", "100000", "999999999", "9" * 4400, "1e9", "+3", "٣"]


@st.composite
def mutated(draw) -> tuple[str, bytes]:
    _kind, suffix, text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "number", "lines",
                                   "truncate"]))
        at = draw(st.integers(0, len(text)))
        if op == "insert":
            text = text[:at] + draw(st.sampled_from(TOKENS)) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
        elif op == "replace":
            digits = [k for k, ch in enumerate(text) if ch.isdigit()]
            if digits:
                k = draw(st.sampled_from(digits))
                text = text[:k] + draw(st.sampled_from(TOKENS)) + text[k + 1:]
        elif op == "number":  # a whole number (a size, a clue, an index) made extreme
            runs = [m.span() for m in re.finditer(r"\d+", text)]
            if runs:
                a, b = draw(st.sampled_from(runs))
                text = text[:a] + draw(st.sampled_from(NUMBERS)) + text[b:]
        elif op == "lines":
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines.insert(draw(st.integers(0, len(lines))), lines[k]) if draw(st.booleans()) \
                else lines.pop(k)
            text = "\n".join(lines)
        else:
            text = text[:at]
    return suffix, text.encode("utf-8", "surrogatepass")


REPRODUCERS = [  # issue 18's crafted inputs, and variations of them
    (".task", b"1_1;1,999999999"),
    (".task", b"2_2_2_2;3,999999999;1,2"),
    (".json", b'{"puzzle": "thermometers", "rows": [' + b"null, " * 300_000 + b'null], "cols": '
              b'[null], "thermometers": [[[0, 0]]]}'),
    (".json", b'{"puzzle": "thermometers", "rows": [' + b"1" * 4400 + b'], "cols": [1], '
              b'"thermometers": [[[0, 0]]]}'),
    (".txt", b"thermometers\n   " + b"9" * 4400 + b"\n1  o\n"),
    (".url", "https://puzz.link/p?aquarium/r/\u00b3/\u00b2/0/1".encode()),
    (".url", b"https://puzz.link/p?aquarium/r/99999/99999/0/1"),
    (".json", b'{"puzzle": "thermometers", "rows": [null], "cols": [null], '
              b'"thermometers": [[[0, 0]]]}'),
    (".json", b'{"puzzle": "aquarium", "name": "\\ud800", "rows": [1], "cols": [1], '
              b'"regions": [[0, 0, "\\udfff"]]}'),
    (".txt", b"aquarium\n   2 0\n1  01 1\n1  01 1\n"),
    (".txt", b"thermometers 99999x99999\n"),
    (".task", b"_" * 20000 + b";1,1"),
]


def random_bytes() -> st.SearchStrategy[tuple[str, bytes]]:
    return st.tuples(st.sampled_from(sorted(set(SUFFIX.values()))), st.binary(max_size=300))


INPUTS = st.one_of(mutated(), mutated(), random_bytes())

# --------------------------------------------------------------------------
# The child process
# --------------------------------------------------------------------------


class Worker:
    """``tests/cli_fuzz_worker.py``, restarted when it dies or overruns."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.pop("THERMOMILP_DEBUG", None)
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "cli_fuzz_worker.py")],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, text=True)

    def run(self, argv: list[str], files: dict[str, bytes]) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        request = {"argv": argv, "files": {n: base64.b64encode(b).decode() for n, b in
                                           files.items()}}
        import selectors

        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            ready = sel.select(timeout=SECONDS)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            died = self.proc.poll()
            self.close()
            return {"code": f"the CLI process died ({died})" if died is not None
                    else f"no answer within {SECONDS:g} s", "stderr": "", "seconds": SECONDS}
        return json.loads(line)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout):
                stream.close()
            self.proc = None


@pytest.fixture(scope="module")
def worker():
    made = Worker()
    yield made
    made.close()


def assert_handled(result: dict, what: str) -> None:
    assert result["code"] in (0, 1, 2), f"{what}: exit {result['code']}\n{result['stderr']}"
    assert "Traceback" not in result["stderr"], f"{what}\n{result['stderr']}"
    assert result["seconds"] < SECONDS, f"{what}: {result['seconds']:.1f} s"


def describe(argv: list[str], name: str, data: bytes) -> str:
    return f"thermomilp {' '.join(argv)} on {name} = {data[:300]!r}"


# --------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------


@pytest.mark.parametrize("kind,suffix,text", SEEDS,
                         ids=[f"{k}-{n}{s}" for n, (k, s, _) in enumerate(SEEDS)])
def test_every_seed_is_a_valid_board_for_every_command(worker, kind, suffix, text):
    """The harness can tell success from failure: valid boards exit 0 or 1, and the
    one thing a command cannot do (Aquarium as a Thermometers task string) exits 2."""
    for command in COMMANDS:
        name = "board" + suffix
        argv = command[:1] + [name] + command[1:]
        result = worker.run(argv, {name: text.encode()})
        expected = {2} if kind == "aquarium" and command[-1] == "site" else {0, 1}
        assert result["code"] in expected, describe(argv, name, text.encode()) + result["stderr"]


@settings(max_examples=EXAMPLES, deadline=None, derandomize=_LEVEL != "heavy",
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=INPUTS, command=st.sampled_from(COMMANDS))
def test_any_input_through_any_command_exits_0_1_or_2(worker, data, command):
    suffix, content = data
    name = "board" + suffix
    argv = command[:1] + [name] + command[1:]
    assert_handled(worker.run(argv, {name: content}), describe(argv, name, content))


MARKS = st.one_of(
    st.lists(st.tuples(st.sampled_from(["0", "1", "3", "-1", "99999", "9" * 4400, "x", ""]),
                       st.sampled_from(["0", "2", "5", "-2", "1e9", "٣", ""]),
                       st.sampled_from(["#", "x", ".", "?", "", "##"])),
             max_size=4).map(lambda cells: " ".join(f"{r},{c}={v}" for r, c, v in cells)),
    st.text(alphabet="#x./?0= ,\n", max_size=40))


@settings(max_examples=max(10, EXAMPLES // 4), deadline=None, derandomize=_LEVEL != "heavy",
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.sampled_from(SEEDS), marks=MARKS, command=st.sampled_from(["hint", "explain"]),
       as_file=st.booleans())
def test_any_marks_for_hint_and_explain(worker, seed, marks, command, as_file):
    _kind, suffix, text = seed
    files = {"board" + suffix: text.encode()}
    if as_file:
        files["marks.txt"] = marks.encode()
    argv = [command, "board" + suffix, "--marks", "marks.txt" if as_file else marks]
    assert_handled(worker.run(argv, files), f"{argv} with marks {marks!r}")


@pytest.mark.parametrize("suffix,content", REPRODUCERS,
                         ids=[f"r{k}{s}" for k, (s, _) in enumerate(REPRODUCERS)])
def test_the_crafted_inputs_of_issue_18_are_bad_input_or_answered(worker, suffix, content):
    for command in COMMANDS:
        name = "board" + suffix
        argv = command[:1] + [name] + command[1:]
        assert_handled(worker.run(argv, {name: content}), describe(argv, name, content))


@settings(max_examples=max(5, EXAMPLES // 6), deadline=None, derandomize=_LEVEL != "heavy",
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(inputs=st.lists(INPUTS, min_size=2, max_size=5))
def test_a_batch_of_bad_files_finishes_with_a_record_for_each(worker, inputs):
    files = {f"b{k}{suffix}": content for k, (suffix, content) in enumerate(inputs)}
    argv = ["batch", ".", "--jobs", "1", "--no-progress", "--time-limit", "2",
            "--out", "out.jsonl"]
    assert_handled(worker.run(argv, files), f"batch of {sorted(files)}")


@settings(max_examples=SUBPROCESS_EXAMPLES, deadline=None, derandomize=_LEVEL != "heavy",
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=INPUTS, command=st.sampled_from(COMMANDS))
def test_any_input_in_a_real_process(tmp_path_factory, data, command):
    folder = tmp_path_factory.mktemp("fuzz")
    suffix, content = data
    name = "board" + suffix
    (folder / name).write_bytes(content)
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("THERMOMILP_DEBUG", None)
    argv = command[:1] + [name] + command[1:]
    proc = subprocess.run([sys.executable, "-m", "thermomilp", *argv], cwd=folder, env=env,
                          capture_output=True, timeout=SECONDS * 2, check=False)
    err = proc.stderr.decode("utf-8", "replace")
    assert_handled({"code": proc.returncode, "stderr": err, "seconds": 0.0},
                   describe(argv, name, content))


@pytest.mark.parametrize("marks", ["9" * 4400 + ",1=#", "1," + "9" * 4400 + "=.",
                                   "99999,1=#", "1,1=##", "0,1=#"])
def test_marks_naming_an_impossible_cell_are_bad_input(worker, marks):
    _kind, suffix, text = SEEDS[0]
    for command in ("hint", "explain"):
        result = worker.run([command, "board" + suffix, "--marks", marks],
                            {"board" + suffix: text.encode()})
        assert result["code"] == 2 and "Traceback" not in result["stderr"], result
