"""core/files.write_whole: a file is written whole or not at all.

A full disk is made with RLIMIT_FSIZE in a child process (SIGXFSZ ignored, so
a write past the cap fails with EFBIG instead of killing the child): no root,
no mount, and the same failure path as ENOSPC (an OSError mid-write).
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap

import pytest

from thermomilp.core.errors import WriteError
from thermomilp.core.files import write_whole

CAPPED = textwrap.dedent("""
    import resource, signal, sys
    from thermomilp.core.files import write_whole
    from thermomilp.core.errors import WriteError
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
    try:
        write_whole(sys.argv[1], "x" * 100_000)
    except WriteError as exc:
        print(exc)
        sys.exit(2)
""")


def test_a_failed_write_leaves_the_target_as_it_was(tmp_path):
    target = tmp_path / "board.txt"
    target.write_text("the user's board\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", CAPPED, str(target)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stdout.strip().startswith(f"cannot write {target}:")
    assert ".part" not in done.stdout  # the message names the user's target, not ours
    assert target.read_text(encoding="utf-8") == "the user's board\n"
    assert sorted(os.listdir(tmp_path)) == ["board.txt"]  # no temporary file left behind


def test_a_new_file_is_whole_and_honours_the_umask(tmp_path):
    target = tmp_path / "new.txt"
    write_whole(target, "line\n")
    assert target.read_text(encoding="utf-8") == "line\n"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask


def test_an_existing_file_keeps_its_permissions(tmp_path):
    target = tmp_path / "kept.txt"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    write_whole(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_symbolic_link_is_followed_and_kept(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_whole(link, "new")
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8") == "new"


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/null"])
def test_a_device_is_refused(target):
    if not os.path.exists(target):
        pytest.skip(f"{target} does not exist on this platform")
    with pytest.raises(WriteError, match="not a regular file"):
        write_whole(target, "x")


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(WriteError, match="folder"):
        write_whole(tmp_path, "x")


def test_a_missing_folder_names_the_target(tmp_path):
    target = tmp_path / "nowhere" / "b.txt"
    with pytest.raises(WriteError, match=f"cannot write {target}"):
        write_whole(target, "x")


def test_a_lone_surrogate_is_written_escaped(tmp_path):
    target = tmp_path / "s.txt"
    write_whole(target, "name \udcff\n")
    assert target.read_bytes() == b"name \\udcff\n"
