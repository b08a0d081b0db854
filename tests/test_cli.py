"""The command line as a user meets it: contracts, exit codes, no tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from thermomilp.cli.main import main
from thermomilp.formats import load

from helpers import INSTANCES, ROOT

T = INSTANCES / "thermometers"


def run_cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "thermomilp", *args], capture_output=True,
                          text=True, cwd=cwd or ROOT, env=env, timeout=120)


def test_solve_json_lines_contract(capsys):
    files = [str(T / "t03_6x6.txt"), str(T / "t07_5x5_two_solutions.txt"),
             str(T / "t08_4x4_no_solution.txt")]
    code = main(["solve", *files, "--format", "json"])
    lines = capsys.readouterr().out.strip().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["status"] for r in records] == ["unique", "multiple", "infeasible"]
    assert [r["file"] for r in records] == files
    assert records[1]["second"] is not None and records[1]["second"] != records[1]["grid"]
    assert records[2]["grid"] is None and records[2]["levels"] is None
    assert code == 1  # one file has no solution


def test_exit_zero_when_everything_is_solved(capsys):
    assert main(["solve", str(T / "t01_4x4.txt"), str(T / "t03_6x6.txt")]) == 0
    out = capsys.readouterr().out
    assert "status: unique" in out and "mercury levels:" in out and "●" in out


@pytest.mark.parametrize("backend", ["highs", "pulp", "pyomo"])
def test_process_output_is_clean_json(backend):
    # A fresh process: the HiGHS banner must not reach stdout.
    proc = run_cli("solve", str(T / "t01_4x4.txt"), "--backend", backend, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert record["backend"] == backend and record["status"] == "unique"


def test_bad_file_is_exit_2_with_a_clear_message(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("thermometers\n 1 1\n1 > o\n1 o x\n")
    proc = run_cli("solve", str(bad), str(T / "t01_4x4.txt"), "--format", "json")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert f"{bad}:4:" in proc.stderr
    first, second = [json.loads(line) for line in proc.stdout.splitlines()]
    assert first["status"] == "error" and "expected one of" in first["error"]
    assert second["status"] == "unique"  # the other file is still solved


@pytest.mark.parametrize("args", [
    ["solve"], ["solve", "x.txt", "--backend", "nope"], ["frobnicate"], [],
    ["solve", "/nonexistent/board.txt"], ["convert", str(T / "t01_4x4.txt"), "--to", "docx"],
    ["solve", str(T / "t01_4x4.txt"), "--time-limit", "-3"],
])
def test_usage_errors_exit_2(args):
    proc = run_cli(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and proc.stderr.strip()


def test_show_and_convert(tmp_path, capsys):
    assert main(["show", str(T / "t03_6x6.txt")]) == 0
    out = capsys.readouterr().out
    assert "○" in out and "thermometers (label at bulb):" in out
    out = tmp_path / "b.json"
    assert main(["convert", str(T / "t03_6x6.txt"), "--to", "json", "-o", str(out)]) == 0
    assert load(out).rows == load(T / "t03_6x6.txt").rows


def test_help_is_instant_and_imports_no_solver():
    code = ("import sys; from thermomilp.cli.main import build_parser; build_parser(); "
            "import thermomilp; heavy = [m for m in ('pulp', 'pyomo', 'highspy', 'numpy') "
            "if m in sys.modules]; print(heavy)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr


def test_config_precedence_flag_env_file(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.thermomilp]\nbackend = "pyomo"\n')
    proc = run_cli("config", cwd=tmp_path)
    assert "pyomo" in proc.stdout and "pyproject.toml" in proc.stdout
    (tmp_path / "thermomilp.toml").write_text('backend = "pulp"\n')
    assert "pulp" in run_cli("config", cwd=tmp_path).stdout
    env_proc = subprocess.run([sys.executable, "-m", "thermomilp", "config"], capture_output=True,
                              text=True, cwd=tmp_path,
                              env=dict(os.environ, PYTHONPATH=str(ROOT),
                                       THERMOMILP_BACKEND="highs"))
    assert "environment THERMOMILP_BACKEND" in env_proc.stdout
    flag = run_cli("config", "--backend", "pyomo", cwd=tmp_path).stdout
    assert "backend        pyomo      (command line)" in flag


@pytest.mark.parametrize("command", [["convert", "--to", "json"], ["export", "--to", "lp"]])
def test_unwritable_output_is_a_clear_error(command):
    proc = run_cli(command[0], str(T / "t01_4x4.txt"), *command[1:], "-o", "/nonexistent/dir/out")
    assert proc.returncode == 2
    assert "cannot write /nonexistent/dir/out" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("command", ["solve", "show"])
def test_unwritable_svg_path_is_a_clear_error(command):
    proc = run_cli(command, str(T / "t01_4x4.txt"), "--svg", "/nonexistent/dir/a.svg")
    assert proc.returncode == 2
    assert "/nonexistent/dir/a.svg" in proc.stderr and "Traceback" not in proc.stderr


def test_an_internal_error_is_one_line_exit_3(monkeypatch, capsys):
    import thermomilp.cli.show_cmd as show_cmd

    def broken(args):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(show_cmd, "run", broken)
    code = main(["show", str(T / "t01_4x4.txt")])
    err = capsys.readouterr().err
    assert code == 3 and "internal error: ZeroDivisionError: boom" in err
