"""Config discovery trusts no stranger (issue 34): the search stops at the home folder,
a repository root or a folder another user owns; a file another user owns, or in a
folder anyone may write to, is ignored with a warning; an oversized or too deeply
nested file is refused, naming it, before it is parsed -- never a traceback.

Ownership is read as ``find_config``'s ``user`` sees it, so every rule is tested as
any user (a folder the test made is "another user's" to a different uid); the end-to-end
test of a file really owned by someone else needs root to ``chown`` it, as CI has.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from thermomilp.cli.main import main
from thermomilp.core.config import MAX_CONFIG_BYTES, find_config, nesting_depth, resolve
from thermomilp.core.errors import ConfigError

from helpers import INSTANCES

T03 = INSTANCES / "thermometers" / "t03_6x6.txt"
ME = os.geteuid()
STRANGER = 65534 if ME != 65534 else 65533


@pytest.fixture(autouse=True)
def no_thermomilp_environment(monkeypatch):
    for name in list(os.environ):
        if name.startswith("THERMOMILP_"):
            monkeypatch.delenv(name)


def _tree(tmp_path, config: str = 'solver = "glpk"\n'):
    (tmp_path / "thermomilp.toml").write_text(config)
    below = tmp_path / "a" / "b"
    below.mkdir(parents=True)
    return below


def test_the_search_stops_before_a_folder_the_user_does_not_own(tmp_path):
    below = _tree(tmp_path)
    # to a user who owns nothing here, the working folder is already someone else's
    search = find_config(below, user=STRANGER)
    assert search.values == {} and search.where is None
    assert search.stopped == f"{below} belongs to another user (uid {ME})"


def test_the_search_stops_after_the_home_folder(tmp_path):
    below = _tree(tmp_path)
    search = find_config(below, home=tmp_path / "a")
    assert search.where is None
    assert search.stopped == f"reached the home folder {tmp_path / 'a'}"
    (tmp_path / "a" / "thermomilp.toml").write_text('solver = "cbc"\n')
    assert find_config(below, home=tmp_path / "a").values == {"solver": "cbc"}  # home is read


def test_a_file_in_a_folder_anyone_may_write_is_ignored_with_a_warning(tmp_path):
    below = _tree(tmp_path)
    tmp_path.chmod(0o777)
    try:
        search = find_config(below, home=tmp_path)
        warned: list[str] = []
        settings = resolve({}, env={}, cwd=below, warn=warned.append)
    finally:
        tmp_path.chmod(0o700)
    assert search.where is None and search.values == {}
    assert search.ignored == (f"{tmp_path / 'thermomilp.toml'} ignored: its folder is "
                              "writable by every user",)
    assert warned == list(search.ignored) and settings.solver == "highs"


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user "
                    "(CI runs as root); test_the_search_stops_before_a_folder_the_user_does_"
                    "not_own tests the rule as any user")
def test_a_planted_config_in_a_parent_folder_owned_by_another_user_changes_nothing(tmp_path):
    victim = tmp_path / "thesis.tex"
    victim.write_text("precious\n")
    below = _tree(tmp_path, 'solver = "cbc"\nlogic = "none"\n[engine_options]\n'
                            f'basisOut = "{victim}"\n')
    os.chown(tmp_path / "thermomilp.toml", STRANGER, STRANGER)
    env = {k: v for k, v in os.environ.items() if not k.startswith("THERMOMILP_")}
    done = subprocess.run([sys.executable, "-m", "thermomilp", "solve", str(T03),
                           "--format", "json"], cwd=below, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert '"solver": "highs"' in done.stdout  # the planted solver was not taken
    assert f"{tmp_path / 'thermomilp.toml'} ignored: it belongs to another user" in done.stderr
    assert victim.read_text() == "precious\n"


def test_a_file_over_64_kb_is_refused_before_it_is_read(tmp_path, monkeypatch, capsys):
    config = tmp_path / "thermomilp.toml"
    with open(config, "wb") as handle:  # sparse: 1 GiB on paper, nothing on disk
        handle.truncate(2**30)
    below = tmp_path / "a"
    below.mkdir()
    monkeypatch.chdir(below)
    assert main(["solve", str(T03)]) == 2
    err = capsys.readouterr().err
    assert f"{config}: {2**30} bytes; a config file may hold at most {MAX_CONFIG_BYTES}" in err
    assert "Traceback" not in err and "MemoryError" not in err


@pytest.mark.parametrize("config", [
    "x = " + "[" * 5000 + "]" * 5000 + "\n",                   # 10 KB, 5,000 levels deep
    "[engine_options]\nmip_rel_gap = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n",
])
def test_deep_nesting_is_refused_naming_the_file_not_a_recursion_error(config, tmp_path,
                                                                       monkeypatch, capsys):
    below = _tree(tmp_path, config)
    monkeypatch.chdir(below)
    for command in (["solve", str(T03)], ["config"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert f"{tmp_path / 'thermomilp.toml'}: nested deeper than 16 levels" in err
        assert "RecursionError" not in err


def test_the_nesting_scan_skips_strings_and_comments():
    assert nesting_depth('a = "[[[[{{{{"\nb = \'[[[\'\n# [[[[[[\nc = [[1], [2]]\n') == 2
    assert nesting_depth('s = """\n[[[[\n"""\n[t]\nx = {y = [1]}\n') == 2
    assert nesting_depth('s = "a\\"[[["\n') == 0


def test_a_fifo_named_like_a_config_file_does_not_block(tmp_path):
    os.mkfifo(tmp_path / "thermomilp.toml")
    search = find_config(tmp_path, home=tmp_path)  # not a regular file: passed over
    assert search.where is None


def test_an_unreadable_config_is_one_error_naming_it(tmp_path):
    (tmp_path / "thermomilp.toml").write_bytes(b"solver = \"\xff\"\n")
    with pytest.raises(ConfigError, match=f"{tmp_path / 'thermomilp.toml'}: cannot read"):
        find_config(tmp_path, home=tmp_path)


def test_config_says_where_the_search_stopped_and_why(tmp_path, monkeypatch, capsys):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    monkeypatch.chdir(project)
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    assert "config file: none found from this folder up\n" in out
    assert f"search: reached the repository root {project} (it holds .git)\n" in out
