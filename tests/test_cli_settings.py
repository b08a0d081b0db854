"""Settings down to every command (issue 37): one resolution (flag > THERMOMILP_* >
thermomilp.toml > default) and its errors for every command that can run an engine,
a flag a command cannot honour refused, export's model, grade's time limit and corpus,
the page's new board, and one record for a file that cannot be read."""

from __future__ import annotations

import json

import pytest

from thermomilp.cli.main import build_parser, main

from helpers import INSTANCES, ROOT

T01 = str(INSTANCES / "thermometers" / "t01_4x4.txt")
CORRECT = str(ROOT / "models" / "solutions" / "correct.py")

ENGINE_COMMANDS = {
    "solve": [T01],
    "check": [T01],
    "batch": [T01, "--no-progress", "--jobs", "1"],
    "analyze": [T01],
    "export": [T01, "--to", "lp"],
    "generate": ["--size", "4x4", "--out", "{tmp}/boards", "--quiet"],
    "grade": [CORRECT, "--corpus", "{tmp}/corpus"],
    "serve": ["--port", "0"],
    "config": [],
}
"""Every command that resolves the settings, with arguments that would otherwise run."""


@pytest.fixture
def clean(tmp_path, monkeypatch):
    """A working folder with no config file and no THERMOMILP_* setting."""
    import os

    for name in list(os.environ):
        if name.startswith("THERMOMILP_") and name not in ("THERMOMILP_KERNEL",
                                                           "THERMOMILP_GRADES_KEY"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("THERMOMILP_GRADES_KEY", str(tmp_path / "grades.key"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _argv(command: str, tmp) -> list[str]:
    return [command, *(a.replace("{tmp}", str(tmp)) for a in ENGINE_COMMANDS[command])]


def _one_board_corpus(folder, fmt: str = "text") -> str:
    from thermomilp.formats import dumps, load

    folder.mkdir(parents=True, exist_ok=True)
    suffix = ".json" if fmt == "json" else ".txt"
    (folder / f"t01{suffix}").write_text(dumps(load(T01), fmt))
    return str(folder)


def test_every_command_with_settings_flags_is_listed_here():
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    with_settings = {name for name, sub in commands.items()
                     if sub.get_default("settings_uses") is not None}
    assert with_settings == set(ENGINE_COMMANDS)
    # the rest read boards and run the logic at most: no engine, no settings
    assert set(commands) - with_settings == {"show", "convert", "hint", "explain", "solvers"}


@pytest.mark.parametrize("command", sorted(ENGINE_COMMANDS))
def test_an_engine_outside_the_closed_list_is_refused_by_every_command(command, clean,
                                                                       monkeypatch, capsys):
    _one_board_corpus(clean / "corpus")
    monkeypatch.setenv("THERMOMILP_SOLVER", "gurobi")
    assert main(_argv(command, clean)) == 2
    err = capsys.readouterr().err
    assert "solver 'gurobi' is not an engine thermomilp runs; choose one of highs" in err
    assert "(from environment THERMOMILP_SOLVER)" in err
    assert not (clean / "boards").exists()  # refused before anything ran


@pytest.mark.parametrize("command, flag", [("generate", ["--solver", "cbc"]),
                                           ("generate", ["--formulation", "level"]),
                                           ("export", ["--threads", "2"]),
                                           ("export", ["--time-limit", "3"])])
def test_a_setting_the_command_cannot_honour_is_refused_on_its_command_line(
        command, flag, clean, capsys):
    assert main(_argv(command, clean) + flag) == 2
    err = capsys.readouterr().err
    assert f"{flag[0]}: not used by `thermomilp {command}`, which takes" in err
    assert not (clean / "boards").exists()


def test_a_setting_the_command_cannot_honour_is_not_used_from_the_environment(
        clean, monkeypatch, capsys):
    monkeypatch.setenv("THERMOMILP_THREADS", "2")
    monkeypatch.setenv("THERMOMILP_LOGIC", "none")
    assert main(["export", T01, "--to", "lp"]) == 0
    assert main(["generate", "--size", "4x4", "--out", str(clean / "boards"), "--quiet"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("THERMOMILP_THREADS", "0")  # still checked: out of range
    assert main(["export", T01, "--to", "lp"]) == 2
    assert "threads = '0'" in capsys.readouterr().err


def test_the_formulation_setting_chooses_exports_model(clean, monkeypatch, capsys):
    def lp(*flags: str) -> str:
        assert main(["export", T01, "--to", "lp", *flags]) == 0
        return capsys.readouterr().out

    cell = lp()
    assert "the cell formulation" in cell and " x_0_0" in cell
    monkeypatch.setenv("THERMOMILP_FORMULATION", "compact")
    compact = lp()
    assert compact != cell and "the compact formulation" in compact and " y_0_0" in compact
    assert lp("--formulation", "cell") == cell  # the flag wins over the environment
    monkeypatch.delenv("THERMOMILP_FORMULATION")
    assert lp("--formulation", "compact") == compact
    # the backend is the settings' too: highs by default, pulp for an engine PuLP drives
    assert "built with highspy" in cell
    (clean / "thermomilp.toml").write_text('backend = "pulp"\n')
    assert "built with PuLP" in lp()


def test_a_dat_file_is_the_cell_models_data_whatever_the_environment_says(
        clean, monkeypatch, capsys):
    monkeypatch.setenv("THERMOMILP_FORMULATION", "level")
    assert main(["export", T01, "--to", "dat"]) == 0
    assert "data for models/thermometers.mod" in capsys.readouterr().out
    assert main(["export", T01, "--to", "dat", "--formulation", "level"]) == 2
    assert "writes the data of the cell model" in capsys.readouterr().err


def test_grade_reads_every_format_solve_reads_in_its_corpus(clean, capsys):
    corpus = clean / "corpus"
    _one_board_corpus(corpus, "json")
    (corpus / "expected.json").write_text((INSTANCES / "expected.json").read_text())
    assert main(["solve", str(corpus / "t01.json")]) == 0
    capsys.readouterr()
    assert main(["grade", CORRECT, "--corpus", str(corpus), "--format", "json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert str(corpus / "t01.json") in {r["file"] for r in records}
    assert all(r["verdict"] == "right" for r in records)


def test_grades_time_limit_reaches_every_engine_run(clean, monkeypatch, capsys):
    import thermomilp.solving
    import thermomilp.solving.engine as engine

    corpus = _one_board_corpus(clean / "corpus")
    limits: list[float | None] = []
    counted = []
    run_rows, enumerate_solutions = engine.solve_rows, thermomilp.solving.enumerate_solutions

    def spy_rows(*args, time_limit=None, **kwargs):
        limits.append(time_limit)
        return run_rows(*args, time_limit=time_limit, **kwargs)

    def spy_count(puzzle, limit=None, *, settings=None, **kwargs):
        counted.append(settings)
        return enumerate_solutions(puzzle, limit, settings=settings, **kwargs)

    monkeypatch.setattr(engine, "solve_rows", spy_rows)
    monkeypatch.setattr(thermomilp.solving, "enumerate_solutions", spy_count)
    from thermomilp.teach.checks import STUDENT_RUN_LIMIT

    # (flags, environment, each run on the student's model, the board's own count)
    for flags, env, run, count in (([], None, STUDENT_RUN_LIMIT, None),
                                   (["--time-limit", "7"], None, 7.0, 7.0),
                                   ([], "9", 9.0, 9.0)):
        if env is not None:
            monkeypatch.setenv("THERMOMILP_TIME_LIMIT", env)
        limits.clear()
        counted.clear()
        assert main(["grade", CORRECT, "--corpus", corpus, *flags]) == 0
        assert limits and set(limits) == {run}, flags
        assert counted and {s.time_limit for s in counted} == {count}
    capsys.readouterr()


def test_analyze_counts_with_the_settings_and_times_the_relaxation(clean, monkeypatch,
                                                                    capsys):
    import thermomilp.backends.relaxation as relaxation
    import thermomilp.solving

    seen = {}
    relax, count = relaxation.relax, thermomilp.solving.count_solutions

    def spy_relax(form, decide, tol, deadline=None):
        seen["deadline"] = deadline
        return relax(form, decide, tol, deadline)

    def spy_count(puzzle, limit=None, *, settings=None, deadline=None):
        seen["settings"], seen["count_deadline"] = settings, deadline
        return count(puzzle, limit, settings=settings, deadline=deadline)

    monkeypatch.setattr(relaxation, "relax", spy_relax)
    monkeypatch.setattr(thermomilp.solving, "count_solutions", spy_count)
    monkeypatch.setenv("THERMOMILP_LOGIC", "intervals")
    assert main(["analyze", T01, "--time-limit", "5", "--formulation", "compact"]) == 0
    assert "solutions: 1 (unique)" in capsys.readouterr().out
    assert seen["deadline"] is seen["count_deadline"] and seen["deadline"].seconds == 5.0
    assert seen["settings"].formulation == "compact" and seen["settings"].logic == "intervals"


def test_the_page_counts_its_new_boards_with_the_servers_settings(monkeypatch):
    import thermomilp.solving
    from thermomilp.core.settings import Settings
    from thermomilp.web.api import Api

    seen = []

    def spy(puzzle, limit=None, *, settings=None, deadline=None):
        seen.append((settings, deadline))
        return 1

    monkeypatch.setattr(thermomilp.solving, "count_solutions", spy)
    api = Api(Settings(backend="pulp", time_limit=2))
    for kind in ("aquarium", "thermometers"):
        seen.clear()
        made = api.api_generate({"kind": kind, "size": 4, "seed": 3})
        assert made["unique"] and seen
        assert all(s is api.engine for s, _ in seen)  # the reroll's counts too
        assert all(d is None or d.seconds <= 2 for _, d in seen)


def test_an_unreadable_file_gets_one_record_from_check_solve_and_batch(clean, capsys):
    missing = str(clean / "no_such_board.txt")
    records = {}
    for command in ("check", "solve", "batch", "analyze", "explain"):
        extra = ["--no-progress"] if command == "batch" else ["--format", "json"]
        assert main([command, missing, *extra]) == 2
        (line,) = capsys.readouterr().out.splitlines()
        records[command] = json.loads(line)
    assert records["batch"].pop("sha256") is None
    assert (records["check"] == records["solve"] == records["batch"] == records["analyze"]
            == records["explain"])
    assert records["solve"] == {
        "file": missing, "puzzle": None, "status": "error", "grid": None, "levels": None,
        "second": None, "backend": None, "solver": None, "time_s": 0.0,
        "error": records["solve"]["error"], "engine_called": False}
    assert "cannot read the file" in records["solve"]["error"]


@pytest.mark.parametrize("command", ["check", "solve", "analyze", "explain", "show"])
def test_every_file_command_goes_on_after_a_file_it_cannot_read(clean, capsys, command):
    """One reader, one loop: the file after an unreadable one is still done, and the exit
    is 2."""
    missing = str(clean / "no_such_board.txt")
    assert main([command, missing, T01]) == 2
    out = capsys.readouterr()
    assert "no_such_board.txt" in out.err and "cannot read the file" in out.err
    assert f"== {T01}" in out.out or "t01_4x4" in out.out, out.out
    assert not out.out.startswith("\n"), "a file that printed nothing is followed by a blank"


@pytest.mark.parametrize("command", ["solve", "analyze", "explain", "show"])
def test_text_output_has_one_blank_line_between_two_boards(clean, capsys, command):
    missing = str(clean / "no_such_board.txt")
    main([command, T01, missing, T01])
    text = capsys.readouterr().out
    assert text.startswith("== ") and text.count("\n\n== ") == 1, text
