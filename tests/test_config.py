"""Config discovery (as ruff and pytest find theirs), what a config file may not do,
old names refused with the new one, engine options merged by name."""

from __future__ import annotations

import shutil
import stat

import pytest

from thermomilp.cli.main import build_parser, main, settings_of
from thermomilp.core.config import find_config, resolve
from thermomilp.core.errors import ConfigError

from helpers import INSTANCES

T03 = INSTANCES / "thermometers" / "t03_6x6.txt"


@pytest.fixture(autouse=True)
def no_thermomilp_environment(monkeypatch):
    import os

    for name in list(os.environ):
        if name.startswith("THERMOMILP_"):
            monkeypatch.delenv(name)


def pyproject(folder, table: str) -> None:
    (folder / "pyproject.toml").write_text(f"[project]\nname = 'x'\n\n{table}")


# -- discovery -----------------------------------------------------------------


def test_the_nearest_config_file_upwards_is_used(tmp_path):
    (tmp_path / "thermomilp.toml").write_text('solver = "glpk"\n')
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    s = resolve({}, env={}, cwd=deep)
    assert s.solver == "glpk" and s.origins["solver"] == str(tmp_path / "thermomilp.toml")
    # a nearer pyproject.toml with the table wins
    pyproject(tmp_path / "a", '[tool.thermomilp]\nsolver = "scip"\n')
    assert resolve({}, env={}, cwd=deep).solver == "scip"


def test_a_pyproject_without_the_table_is_passed_over(tmp_path):
    (tmp_path / "thermomilp.toml").write_text('logic = "none"\n')
    (tmp_path / "a").mkdir()
    pyproject(tmp_path / "a", "[tool.ruff]\nline-length = 100\n")
    assert resolve({}, env={}, cwd=tmp_path / "a").logic == "none"


def test_thermomilp_toml_beats_pyproject_in_the_same_folder(tmp_path):
    pyproject(tmp_path, '[tool.thermomilp]\nsolver = "scip"\nseed = 3\n')
    (tmp_path / "thermomilp.toml").write_text('solver = "cbc"\n')
    s = resolve({}, env={}, cwd=tmp_path)
    assert (s.solver, s.seed) == ("cbc", None)  # one file, not merged


def test_the_search_stops_at_the_project_root(tmp_path):
    (tmp_path / "thermomilp.toml").write_text('solver = "glpk"\n')
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "src").mkdir()
    search = find_config(project / "src")
    assert (search.values, search.where) == ({}, None)
    assert search.stopped.startswith(f"reached the repository root {project}")
    assert resolve({}, env={}, cwd=project / "src").solver == "highs"
    (project / "thermomilp.toml").write_text('solver = "cbc"\n')
    assert resolve({}, env={}, cwd=project / "src").solver == "cbc"


def test_precedence_flag_environment_file_default(tmp_path):
    (tmp_path / "thermomilp.toml").write_text('logic = "intervals"\nthreads = 3\n')
    env = {"THERMOMILP_LOGIC": "none"}
    s = resolve({"threads": "2"}, env=env, cwd=tmp_path)
    assert (s.logic, s.threads, s.formulation) == ("none", 2, "cell")
    assert s.origins["logic"] == "environment THERMOMILP_LOGIC"
    assert s.origins["threads"] == "command line"
    assert resolve({"logic": "probing"}, env=env, cwd=tmp_path).logic == "probing"


def test_config_command_says_where_each_value_came_from(tmp_path, monkeypatch, capsys):
    (tmp_path / "thermomilp.toml").write_text(
        'solver = "cbc"\n[engine_options]\nthreads = 2\nratioGap = 0\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("THERMOMILP_ENGINE_OPTIONS", "presolve=off")
    assert main(["config", "--engine-option", "threads=3"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert "pulp" in lines["backend"] and "chosen for solver cbc" in lines["backend"]
    assert "thermomilp.toml" in lines["solver"]
    assert "presolve=off,ratioGap=0.0 " in lines["engine_options"]
    # CBC's own thread count is the threads setting, given once: the command line's
    assert lines["threads"].split()[1] == "3" and "engine_options" in lines["threads"]
    assert "command line + environment THERMOMILP_ENGINE_OPTIONS + " in lines["engine_options"]
    assert f"config file: {tmp_path / 'thermomilp.toml'}" in out


# -- settings in every shape -----------------------------------------------------


def test_engine_options_merge_by_name(tmp_path):
    pyproject(tmp_path, "[tool.thermomilp.engine_options]\nmip_rel_gap = 0.5\nthreads = 1\n")
    s = resolve({"engine_options": ["threads=4"]},
                env={"THERMOMILP_ENGINE_OPTIONS": "mip_rel_gap=0,presolve=off"}, cwd=tmp_path)
    assert s.engine_options == (("mip_rel_gap", 0), ("presolve", "off"))
    assert s.threads == 4  # HiGHS's own ``threads`` is the threads setting


def test_every_flag_reaches_the_settings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = build_parser().parse_args([
        "solve", "x.txt", "--solver", "SCIP_PY", "--logic", "intervals", "--formulation",
        "level", "--time-limit", "7", "--threads", "2", "--seed", "9", "--verbose",
        "--engine-option", "limits/gap=0", "--engine-option", "presolving/maxrounds=0",
        "--engine-path", "/bin/sh"])
    s = settings_of(args)
    assert s.values == {"backend": "pulp", "solver": "scip", "logic": "intervals",
                        "formulation": "level", "time_limit": 7.0, "threads": 2, "seed": 9,
                        "verbose": True,
                        "engine_options": {"limits/gap": 0, "presolving/maxrounds": 0},
                        "engine_path": "/bin/sh"}


def test_engine_path_from_the_environment_is_taken(tmp_path):
    s = resolve({}, env={"THERMOMILP_ENGINE_PATH": "/bin/sh"}, cwd=tmp_path)
    assert (s.engine_path, s.origins["engine_path"]) == (
        "/bin/sh", "environment THERMOMILP_ENGINE_PATH")


def test_unknown_setting_keys_are_all_listed(tmp_path):
    (tmp_path / "thermomilp.toml").write_text('colour = "red"\nsize = 3\nsolver = "cbc"\n')
    with pytest.raises(ConfigError, match=r"unknown settings 'colour', 'size'; known: backend"):
        resolve({}, env={}, cwd=tmp_path)


def test_the_old_presolve_name_is_refused_with_the_new_one(tmp_path, monkeypatch, capsys):
    (tmp_path / "thermomilp.toml").write_text('presolve = "none"\n')
    with pytest.raises(ConfigError, match="renamed.*'logic'.*--engine-option presolve=off"):
        resolve({}, env={}, cwd=tmp_path)
    with pytest.raises(ConfigError, match="THERMOMILP_PRESOLVE.*--logic"):
        resolve({}, env={"THERMOMILP_PRESOLVE": "none"}, cwd=tmp_path.parent)
    assert main(["solve", str(T03), "--presolve", "none"]) == 2
    assert "--presolve was renamed" in capsys.readouterr().err


# -- a config file never chooses a program ----------------------------------------


def hostile_folder(root):
    """A downloaded puzzle folder: a board, and a ./pwn that leaves a marker if run."""
    root.mkdir(parents=True, exist_ok=True)
    marker = root / "PWNED"
    script = root / "pwn"
    script.write_text(f"#!/bin/sh\ntouch '{marker}'\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    (root / "boards").mkdir(exist_ok=True)
    shutil.copy(T03, root / "boards" / "t03.txt")
    return script, marker


COMMANDS = {
    "solve": ["solve", "boards/t03.txt"],
    "check": ["check", "boards/t03.txt"],
    "batch": ["batch", "boards", "--jobs", "1", "--no-progress"],
    "serve": ["serve", "--port", "0"],
    "config": ["config"],
}


@pytest.mark.parametrize("where", ["thermomilp.toml", "pyproject.toml", "parent folder"])
@pytest.mark.parametrize("spelling", ["pwn", "./pwn", "PATH"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_hostile_config_runs_nothing(tmp_path, monkeypatch, capsys, where, spelling,
                                       command):
    folder = tmp_path / "download"
    script, marker = hostile_folder(folder)
    solver = str(script) if spelling == "PATH" else spelling
    table = f'backend = "pyomo"\nsolver = "{solver}"\n'
    top = tmp_path if where == "parent folder" else folder
    if where == "pyproject.toml":
        pyproject(top, "[tool.thermomilp]\n" + table)
    else:
        (top / "thermomilp.toml").write_text(table)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("PATH", f"{folder}:{__import__('os').environ['PATH']}")
    assert main(COMMANDS[command]) == 2
    err = capsys.readouterr().err
    assert "is not an engine thermomilp runs" in err and "Traceback" not in err
    assert not marker.exists()


def test_a_hostile_environment_runs_nothing(tmp_path, monkeypatch, capsys):
    script, marker = hostile_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("THERMOMILP_BACKEND", "pyomo")
    monkeypatch.setenv("THERMOMILP_SOLVER", "pwn")
    assert main(["solve", "boards/t03.txt"]) == 2
    assert "environment THERMOMILP_SOLVER" in capsys.readouterr().err
    assert not marker.exists()


@pytest.mark.parametrize("where", ["thermomilp.toml", "pyproject.toml"])
def test_engine_path_from_a_config_file_is_refused(tmp_path, monkeypatch, capsys, where):
    script, marker = hostile_folder(tmp_path)
    line = f'solver = "cbc"\nengine_path = "{script}"\n'
    if where == "pyproject.toml":
        pyproject(tmp_path, "[tool.thermomilp]\n" + line)
    else:
        (tmp_path / "thermomilp.toml").write_text(line)
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "boards/t03.txt", "--logic", "none"]) == 2
    err = capsys.readouterr().err
    assert "engine_path is not read from config files" in err and "--engine-path" in err
    assert not marker.exists()


def test_flags_reach_the_solve_layer_typed(tmp_path, monkeypatch, capsys):
    """--engine-option and --logic arrive in the engine's Settings as typed values."""
    import thermomilp.solving.api as api
    seen = []
    real = api.open_engine

    def spy(puzzle, settings, **kwargs):
        seen.append(settings)
        return real(puzzle, settings, **kwargs)

    monkeypatch.setattr(api, "open_engine", spy)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "thermomilp.toml").write_text("[engine_options]\nmip_rel_gap = 0.5\n")
    assert main(["solve", str(T03), "--logic", "none", "--engine-option", "mip_rel_gap=0",
                 "--engine-option", "random_seed=3", "--format", "json"]) == 0
    assert seen and seen[0].logic == "none"
    assert seen[0].engine_options == (("mip_rel_gap", 0),)
    assert isinstance(dict(seen[0].engine_options)["mip_rel_gap"], float)  # its type, HiGHS's
    assert seen[0].seed == 3  # HiGHS's own random_seed is the seed setting
