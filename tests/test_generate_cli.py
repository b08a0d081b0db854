"""``thermomilp generate`` and ``thermomilp check`` as an author uses them."""

from __future__ import annotations

import importlib.util
import json

from thermomilp.cli.main import main
from thermomilp.formats import load
from thermomilp.logic.brute import brute_force_count

from helpers import ROOT

INSTANCES = ROOT / "instances" / "thermometers"
GENERATED = INSTANCES / "generated"


def test_generate_writes_graded_unique_boards(tmp_path, capsys):
    out = tmp_path / "boards"
    code = main(["generate", "--size", "5x6", "--count", "3", "--seed", "7", "--straight",
                 "--out", str(out)])
    assert code == 0
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"therm_5x6_s7_00{i}.txt" for i in range(3)]
    for f in files:
        p = load(str(f))
        assert p.shape == (5, 6) and p.grade in ("intervals", "probing", "pairs", "search")
        assert brute_force_count(p, 2) == 1
    # no progress bar off a terminal, but one summary line (issue 27)
    err = capsys.readouterr().err
    assert "\r" not in err and err.count("\n") == 1
    assert err.startswith(f"generate: 3 thermometers boards 5x6 (seed 7) in {out}, ")
    made = err.rstrip().split(" s: ")[1]  # "2 probing, 1 intervals": every board graded
    assert sum(int(part.split()[0]) for part in made.split(", ")) == 3


def test_generate_quiet_prints_nothing(tmp_path, capsys):
    assert main(["generate", "--size", "4x4", "--out", str(tmp_path), "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_generate_draws_its_progress_bar_on_a_terminal(tmp_path, capsys, monkeypatch):
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["generate", "--size", "5x5", "--count", "2", "--seed", "3",
                 "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert "\r" in err and "2/2" in err


def test_generate_refuses_huge_sizes_and_bad_time_limits(tmp_path, capsys):
    assert main(["generate", "--size", "99999x99999", "--out", str(tmp_path)]) == 2
    assert "too large" in capsys.readouterr().err
    assert main(["generate", "--size", "5x5", "--time-limit", "0", "--out", str(tmp_path)]) == 2
    # the settings' check, as solve's: the same message
    assert "time_limit = '0': must be positive seconds" in capsys.readouterr().err


def test_generate_time_limit_is_honoured(tmp_path, capsys):
    """Out of time is exit 1 (not 2, bad input), and the run stopped through its deadline:
    the message names the step the clock stopped. The wall-clock bound is generous (a
    loaded machine); tests/test_generate.py checks every engine call gets the time left."""
    import time

    start = time.perf_counter()
    code = main(["generate", "--size", "60x60", "--strategy", "repair", "--time-limit", "2",
                 "--quiet", "--out", str(tmp_path)])
    assert time.perf_counter() - start < 120  # 60x the limit; the board alone takes minutes
    err = capsys.readouterr().err
    assert code == 1, err
    assert "time limit: board 1 of 1 (60x60) not made within 2 s (stopped in the " in err
    assert "0 boards written" in err
    assert list(tmp_path.iterdir()) == []


def test_generate_out_of_time_keeps_the_boards_made(tmp_path, capsys, monkeypatch):
    from thermomilp.cli import generate_cmd
    from thermomilp.core.errors import GenerationTimeUp

    made = generate_cmd._one_board

    def second_times_out(args, height, width, index, status, time_limit):
        assert time_limit == 30.0  # the settings' time limit, from the flag
        if index == 1:
            raise GenerationTimeUp("gave up", "repair loop")
        return made(args, height, width, index, status, time_limit)

    monkeypatch.setattr(generate_cmd, "_one_board", second_times_out)
    code = main(["generate", "--size", "5x5", "--count", "3", "--time-limit", "30",
                 "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1
    assert "board 2 of 3 (5x5) not made within 30 s (stopped in the repair loop)" in err
    assert "1 board written" in err and err.count("\n") == 2  # and the summary line
    assert [f.name for f in tmp_path.iterdir()] == ["therm_5x5_s0_000.txt"]


def test_a_large_default_board_comes_in_seconds(tmp_path):
    """From 30x30 on the default is the peel: a 60x60 board well inside a 20 s limit."""
    assert main(["generate", "--size", "60x60", "--time-limit", "20", "--quiet",
                 "--out", str(tmp_path)]) == 0
    (board,) = tmp_path.iterdir()
    text = board.read_text()
    assert "grade: intervals" in text and "--strategy peel" in text


def test_generate_is_reproducible_from_the_seed(tmp_path):
    for name in ("a", "b"):
        assert main(["generate", "--size", "6x6", "--count", "2", "--seed", "11",
                     "--missing-clues", "2", "--quiet", "--out", str(tmp_path / name)]) == 0
    for fa, fb in zip(sorted((tmp_path / "a").iterdir()), sorted((tmp_path / "b").iterdir()),
                      strict=True):
        assert fa.read_text() == fb.read_text()
        assert (load(str(fa)).rows + load(str(fa)).cols).count(None) == 2


def test_generate_bad_size_is_a_usage_error(tmp_path, capsys):
    assert main(["generate", "--size", "15", "--out", str(tmp_path)]) == 2
    assert "15x15" in capsys.readouterr().err


def test_generate_aquarium_is_clear_when_unavailable(tmp_path, capsys):
    code = main(["generate", "--puzzle", "aquarium", "--size", "5x5", "--quiet",
                 "--out", str(tmp_path)])
    if importlib.util.find_spec("thermomilp.generate.aquarium_gen") is None:
        assert code == 2
        assert "not available" in capsys.readouterr().err
    else:
        assert code == 0
        (board,) = tmp_path.iterdir()
        assert load(str(board)).kind == "aquarium"


def test_check_reports_json_lines_and_exit_codes(capsys):
    unique = str(INSTANCES / "t01_4x4.txt")
    twice = str(INSTANCES / "t07_5x5_two_solutions.txt")
    assert main(["check", "--format", "json", unique]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "unique" and record["solutions"] == 1
    assert record["grade"] in ("intervals", "probing", "pairs", "search")
    assert record["second"] is None
    assert main(["check", "--format", "json", "--limit", "5", unique, twice]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in lines] == ["unique", "multiple"]
    second = lines[1]
    assert second["solutions"] == 2 and not second["capped"]
    puzzle = load(twice)
    from thermomilp.core.verify import solution_problems

    assert solution_problems(puzzle, second["second"]) == []


def test_check_grades_only_a_board_with_a_solution(capsys):
    none = str(INSTANCES / "t08_4x4_no_solution.txt")
    assert main(["check", "--format", "json", none]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "infeasible" and record["solutions"] == 0
    assert record["grade"] is None and record["difficulty"] is None
    assert main(["check", none]) == 1
    assert "grade - (-)" in capsys.readouterr().out


def test_check_text_shows_the_second_solution(capsys):
    assert main(["check", str(INSTANCES / "t07_5x5_two_solutions.txt")]) == 1
    out = capsys.readouterr().out
    assert "multiple" in out and "second solution" in out


def test_check_bad_file_is_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("thermometers 2x2\n 1 1\n1 > o\n")
    assert main(["check", str(bad)]) == 2


def test_generated_instances_have_their_recorded_grade():
    from thermomilp.logic.grade import grade
    from thermomilp.logic.search import search_count
    from thermomilp.solving import enumerate_solutions

    generated = sorted(GENERATED.glob("*.txt"))
    expected = json.loads((INSTANCES.parent / "expected.json").read_text())
    sizes = set()
    for path in generated:
        p = load(str(path))
        sizes.add(p.shape)
        assert grade(p) == p.grade, path.name
        assert list(enumerate_solutions(p, 2)) == [p.solution], path.name
        # independent of the MILP; probing prunes the hard board in < 1 s (intervals: ~20 s)
        assert search_count(p, "probing", 2) == 1, path.name
        assert expected[f"thermometers/generated/{path.name}"]["status"] == "unique"
    assert {(10, 10), (12, 12), (15, 15)} <= sizes


def test_check_never_reports_a_wrong_infeasible(capsys):
    """A board HiGHS 1.16 calls infeasible with default options (it has a solution)."""
    repro = ROOT / "benchmarks" / \
        "highs_wrong_infeasible_15x15.txt"
    main(["check", "--format", "json", str(repro)])
    record = json.loads(capsys.readouterr().out)
    assert record["status"] in ("unique", "error")  # never "infeasible": the file's grid checks
    from thermomilp.logic.search import search_count

    assert search_count(load(str(repro)), "intervals", 2) == 1


def test_check_resolves_the_pair_like_every_command(monkeypatch, tmp_path, capsys):
    # flag > environment > config file > default, as for solve (config.resolve)
    board = str(ROOT / "instances" / "thermometers"
                / "t01_4x4.txt")
    monkeypatch.chdir(tmp_path)
    import thermomilp.cli.check_cmd as check_cmd

    seen = []
    real = check_cmd.check_board

    def spy(puzzle, limit, *, settings):
        seen.append((settings.backend, settings.solver))
        return real(puzzle, limit, settings=settings)

    monkeypatch.setattr(check_cmd, "check_board", spy)
    (tmp_path / "thermomilp.toml").write_text('backend = "pulp"\n')
    assert main(["check", board]) == 0
    monkeypatch.setenv("THERMOMILP_BACKEND", "pyomo")
    assert main(["check", board]) == 0
    assert main(["check", board, "--backend", "highs"]) == 0
    capsys.readouterr()
    assert [b for b, _ in seen] == ["pulp", "pyomo", "highs"]
    assert {s for _, s in seen} == {"highs"}


def test_generate_refuses_flags_the_puzzle_has_no_use_for(tmp_path, capsys):
    for args in (["--puzzle", "aquarium", "--straight"],
                 ["--puzzle", "aquarium", "--strategy", "reroll"],
                 ["--puzzle", "aquarium", "--max-length", "4"],
                 ["--puzzle", "thermometers", "--rule", "pool"]):
        assert main(["generate", "--size", "5x5", *args, "--out", str(tmp_path)]) == 2, args
        assert "not used by --puzzle" in capsys.readouterr().err, args
    assert list(tmp_path.iterdir()) == []  # refused before anything was written
    assert main(["generate", "--puzzle", "aquarium", "--size", "4x4", "--out",
                 str(tmp_path), "--quiet"]) == 0


def test_aquarium_takes_the_peel_or_the_repair_but_not_under_the_pool_rule(tmp_path, capsys):
    for strategy in ("peel", "repair"):
        out = tmp_path / strategy
        assert main(["generate", "--puzzle", "aquarium", "--size", "8x8", "--strategy",
                     strategy, "--quiet", "--out", str(out)]) == 0
        (board,) = out.iterdir()
        assert main(["check", str(board)]) == 0
    capsys.readouterr()
    assert main(["generate", "--puzzle", "aquarium", "--rule", "pool", "--size", "5x5",
                 "--strategy", "peel", "--quiet", "--out", str(tmp_path / "pool")]) == 2
    assert "tank rule" in capsys.readouterr().err


def test_generate_aquarium_takes_difficulty_and_keeps_the_seed(tmp_path, capsys):
    """--difficulty for Aquarium works as the page's button: drawn until the grade
    matches; the board is named after the seed given, not a seed derived from it."""
    from thermomilp.logic.grade import GRADE_TO_DIFFICULTY, grade

    assert main(["generate", "--puzzle", "aquarium", "--size", "6x6", "--seed", "3",
                 "--difficulty", "medium", "--quiet", "--out", str(tmp_path)]) == 0
    (path,) = tmp_path.iterdir()
    board = load(str(path))
    assert GRADE_TO_DIFFICULTY[board.grade] == "medium" == GRADE_TO_DIFFICULTY[grade(board)]
    assert board.name == "aquarium 6x6 seed 3:0 minimal clues"
    assert "--seed 3 " in board.source and "--difficulty medium" in board.source
    assert brute_force_count(board, 2) == 1
    # full clues: the name says so, and still the user's seed
    assert main(["generate", "--puzzle", "aquarium", "--size", "5x5", "--seed", "3",
                 "--quiet", "--out", str(tmp_path / "full")]) == 0
    (path,) = (tmp_path / "full").iterdir()
    assert load(str(path)).name == "aquarium 5x5 seed 3:0 full clues"


def test_generate_aquarium_hard_is_a_clear_error_when_out_of_reach(tmp_path, capsys,
                                                                   monkeypatch):
    from thermomilp.generate import aquarium_bridge

    monkeypatch.setattr(aquarium_bridge, "DIFFICULTY_ATTEMPTS", 5)
    assert main(["generate", "--puzzle", "aquarium", "--size", "5x5", "--difficulty", "hard",
                 "--quiet", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no hard 5x5 Aquarium in 5 attempts (drawn: " in err and "rare below 10x10" in err


def test_generate_aquarium_time_limit_is_honoured(tmp_path, capsys):
    """The Aquarium generator's loops, its DP (root probing and search nodes) and its
    MILP questions all ask the board's clock: out of time is exit 1, naming the step."""
    import time

    start = time.perf_counter()
    code = main(["generate", "--puzzle", "aquarium", "--size", "40x40", "--seed", "2",
                 "--missing-clues", "30", "--time-limit", "1.5", "--quiet",
                 "--out", str(tmp_path)])
    assert time.perf_counter() - start < 20  # generous: a loaded machine
    err = capsys.readouterr().err
    assert code == 1, err
    assert "not made within 1.5 s (stopped in the " in err and "0 boards written" in err
