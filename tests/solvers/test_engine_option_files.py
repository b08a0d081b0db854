"""An engine option may come from a configuration file found in a folder (untrusted):
none may make an engine write or read a file, print on thermomilp's output, or smuggle
another command onto a command-line engine's command line (backends/engines.IO_OPTIONS).

Each attack here worked on the code before the check: HiGHS's ``solution_file``
overwrote a file of the user's, CBC's ``export`` (and a ``threads`` value with a
space and ``-export`` in it) wrote one, CP-SAT's ``log_to_stdout`` with a
``log_prefix`` printed a line of the attacker's choosing among the JSON records.
"""

from __future__ import annotations

import json

import pytest

from thermomilp.backends.engines import io_problem
from thermomilp.cli.main import main
from thermomilp.core.settings import Solver

from helpers import INSTANCES, use_pair

BOARD = INSTANCES / "thermometers" / "t03_6x6.txt"

REFUSED = {
    Solver.HIGHS: ["solution_file", "write_solution_to_file", "log_file", "write_model_file",
                   "read_solution_file", "log_to_console", "output_flag"],
    Solver.CPSAT: ["log_to_stdout", "log_prefix", "log_search_progress", "output_drat_proof",
                   "debug_crash_on_bad_hint"],
    Solver.SCIP: ["visual/vbcfilename", "visual/bakfilename", "display/verblevel",
                  "write/allconss", "concurrent/paramsetprefix", "solvingphases/feassetname",
                  "solvingphases/proofsetname", "heuristics/repair/filename",
                  "estimation/regforestfilename", "misc/printreason", "misc/outputorigsol",
                  "heuristics/dualval/heurverblevel"],
    Solver.CBC: ["export", "expo", "Export", "import", "saveModel", "solution", "printingOptions",
                 "directory", "stdin", "quit", "solve", "e"],
    Solver.GLPK: ["o", "output", "log", "wlp", "wmps", "wglp", "w", "write", "display",
                  "ranges", "check", "data", "model"],
}
KEPT = {
    Solver.HIGHS: [("mip_rel_gap", 0), ("presolve", "off"), ("mip_heuristic_effort", 0.2)],
    Solver.CPSAT: [("max_time_in_seconds", 5.0), ("num_workers", 1),
                   ("search_branching", "FIXED_SEARCH")],
    Solver.SCIP: [("limits/time", 5), ("presolving/maxrounds", 0)],
    Solver.CBC: [("ratioGap", 0.01), ("cuts", "off"), ("presolve", False), ("threads", 1),
                 ("sec", 10), ("strategy", 1), ("preprocess", "sos")],
    Solver.GLPK: [("tmlim", 10), ("nopresol", True), ("mipgap", 0.01), ("cuts", True)],
}


@pytest.mark.parametrize("solver,name", [(s, n) for s, names in REFUSED.items() for n in names])
def test_an_option_that_touches_a_file_or_our_output_is_refused(solver, name):
    assert io_problem(solver, name, "x") is not None


@pytest.mark.parametrize("solver,name,value",
                         [(s, n, v) for s, pairs in KEPT.items() for n, v in pairs])
def test_ordinary_options_pass(solver, name, value):
    assert io_problem(solver, name, value) is None


@pytest.mark.parametrize("solver", [Solver.CBC, Solver.GLPK])
@pytest.mark.parametrize("value", ["1 -export /tmp/x.mps", "1\t-quit", "off;", "1\n-o x"])
def test_a_command_line_value_is_one_plain_word(solver, value):
    assert io_problem(solver, "threads" if solver is Solver.CBC else "tmlim", value)


@pytest.mark.parametrize("name", ["a b", "-export", "--wlp", "x=y", "", "1a"])
def test_an_option_name_is_a_plain_name(name):
    assert io_problem(Solver.HIGHS, name, 1) is not None


def _solve_in(folder, monkeypatch, capsys, config: str) -> tuple[int, str, str]:
    (folder / "thermomilp.toml").write_text(config, encoding="utf-8")
    monkeypatch.chdir(folder)
    code = main(["solve", "--logic", "none", "--format", "json", str(BOARD)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_config_file_cannot_make_highs_overwrite_a_file(tmp_path, monkeypatch, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    code, _, err = _solve_in(tmp_path, monkeypatch, capsys,
                        "[engine_options]\nwrite_solution_to_file = true\n"
                        f'solution_file = "{victim}"\n')
    assert code == 2 and victim.read_text() == "precious\n"
    # the error names where the option came from: the file found in the folder
    assert f"engine_options from {tmp_path / 'thermomilp.toml'}" in err


def test_an_unknown_option_from_a_config_file_names_the_file(tmp_path, monkeypatch, capsys):
    code, _, err = _solve_in(tmp_path, monkeypatch, capsys,
                             "[engine_options]\nno_such_option = 1\n")
    assert code == 2 and "unknown option no_such_option" in err
    assert f"engine_options from {tmp_path / 'thermomilp.toml'}" in err


@pytest.mark.parametrize("option", ['threads = "1 -export {out}"', 'export = "{out}"',
                                    'expo = "{out}"'])
def test_a_config_file_cannot_make_cbc_write_a_file(option, tmp_path, monkeypatch, capsys):
    use_pair("pulp", "cbc")
    out = tmp_path / "written.mps"
    code, _, err = _solve_in(tmp_path, monkeypatch, capsys,
                             'solver = "cbc"\n[engine_options]\n' + option.format(out=out) + "\n")
    assert code == 2 and not out.exists() and "thermomilp.toml" in err


def test_a_config_file_cannot_make_glpsol_write_a_file(tmp_path, monkeypatch, capsys):
    use_pair("pulp", "glpk")
    out = tmp_path / "written.lp"
    code, _, err = _solve_in(tmp_path, monkeypatch, capsys,
                             f'solver = "glpk"\n[engine_options]\nwlp = "{out}"\n')
    assert code == 2 and not out.exists() and "thermomilp.toml" in err


def test_a_config_file_cannot_print_among_the_records(tmp_path, monkeypatch, capsys):
    use_pair("cpsat", "cpsat")
    forged = '{"file": "forged", "status": "unique"}'
    code, out, _ = _solve_in(tmp_path, monkeypatch, capsys,
                             'solver = "cpsat"\n[engine_options]\nlog_search_progress = true\n'
                             f"log_to_stdout = true\nlog_prefix = '{forged} '\n")
    assert code == 2 and "forged" not in out
    assert all(json.loads(line)["file"] != "forged" for line in out.splitlines() if line)
