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


# --------------------------------------------------------------------------
# Every CLI writer, on a full disk: exit 2, the user's target named and intact
# --------------------------------------------------------------------------

import json  # noqa: E402
import shutil  # noqa: E402

from helpers import INSTANCES, ROOT  # noqa: E402

CLI_CAPPED = textwrap.dedent("""
    import resource, signal, sys
    from thermomilp.cli.main import main
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    cap = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_FSIZE, (cap, cap))
    sys.exit(main(sys.argv[2:]))
""")
T01 = INSTANCES / "thermometers" / "t01_4x4.txt"
OLD = "the user's file, as it was\n"


def run_capped(cap: int, *argv: str, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", CLI_CAPPED, str(cap), *argv], cwd=cwd,
                          capture_output=True, text=True, timeout=300, env=env)


def _writer_case(kind: str, tmp_path):
    """(argv, the target, its content before) for one CLI writer."""
    work = tmp_path / "work"
    work.mkdir()
    if kind == "convert in place":
        target = work / "board.txt"
        shutil.copy(T01, target)
        return ["convert", str(target), "--to", "json", "-o", str(target)], target
    if kind == "generate":
        target = work / "therm_5x5_s0_000.txt"
        target.write_text(OLD)
        return ["generate", "--size", "5x5", "--out", str(work), "--quiet"], target
    if kind == "batch":
        target = work / "out.jsonl"
        boards = tmp_path / "boards"
        boards.mkdir()
        for name in ("t01_4x4.txt", "t02_5x5.txt"):
            shutil.copy(INSTANCES / "thermometers" / name, boards / name)
        # one record already there (a previous run); the next one meets the full disk
        from thermomilp.cli.main import main

        assert main(["batch", str(boards / "t01_4x4.txt"), "--out", str(target),
                     "--no-progress"]) == 0
        return ["batch", str(boards), "--out", str(target), "--jobs", "1",
                "--no-progress"], target
    target = work / {"export": "model.lp", "solve --svg": "pic.svg",
                     "show --svg": "pic.svg"}[kind]
    target.write_text(OLD)
    argv = {"export": ["export", str(T01), "--to", "lp", "-o", str(target)],
            "solve --svg": ["solve", str(T01), "--svg", str(target)],
            "show --svg": ["show", str(T01), "--svg", str(target)]}[kind]
    return argv, target


WRITERS = ["convert in place", "export", "solve --svg", "show --svg", "generate", "batch"]


@pytest.mark.parametrize("kind", WRITERS)
def test_every_cli_writer_leaves_its_target_as_it_was_on_a_full_disk(kind, tmp_path):
    argv, target = _writer_case(kind, tmp_path)
    before = target.read_bytes()
    listing = sorted(os.listdir(target.parent))
    # a cap just above the target's size: the new text (larger) cannot be written
    done = run_capped(len(before) + 40, *argv)
    assert done.returncode == 2, done.stdout + done.stderr
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith(f"thermomilp: error: cannot write {target}:"), message
    assert ".part" not in message and ".tmp" not in message
    assert "Traceback" not in done.stderr
    assert target.read_bytes() == before
    assert sorted(os.listdir(target.parent)) == listing  # no temporary file left behind


def test_a_full_batch_output_keeps_every_whole_record_and_resumes(tmp_path):
    """The append-only log: a record that does not fit is not written at all (no torn
    line), the finished ones stay, and the rerun completes the output."""
    argv, target = _writer_case("batch", tmp_path)
    before = target.read_bytes()
    assert run_capped(len(before) + 40, *argv).returncode == 2
    assert target.read_bytes() == before
    from thermomilp.cli.main import main

    assert main(argv) == 0
    records = [json.loads(line) for line in target.read_text().splitlines()]
    assert sorted(os.path.basename(r["file"]) for r in records) == ["t01_4x4.txt",
                                                                    "t02_5x5.txt"]


def _mount_tmpfs(folder, options: str) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                          capture_output=True, timeout=30)
    return done.returncode == 0


def _umount(folder) -> None:
    subprocess.run(["umount", str(folder)], capture_output=True, timeout=30)


def test_convert_in_place_on_a_full_tmpfs_keeps_the_input(tmp_path):
    disk = tmp_path / "disk"
    disk.mkdir()
    if not _mount_tmpfs(disk, "size=64k"):
        pytest.skip("mounting a small tmpfs needs root and a system that permits it")
    try:
        board = disk / "board.txt"
        shutil.copy(T01, board)
        before = board.read_bytes()
        filler = disk / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)  # fill it to the last byte
        try:
            for size in (4096, 1):
                try:
                    while True:
                        os.write(fd, b"\0" * size)
                except OSError:
                    pass
        finally:
            os.close(fd)
        from thermomilp.cli.main import main

        assert main(["convert", str(board), "--to", "json", "-o", str(board)]) == 2
        assert board.read_bytes() == before
        assert sorted(os.listdir(disk)) == ["board.txt", "filler"]
    finally:
        _umount(disk)


def test_generate_into_a_read_only_folder_names_the_users_target(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    mounted = _mount_tmpfs(folder, "ro,size=64k")
    if not mounted:
        if os.geteuid() == 0:
            pytest.skip("root ignores folder permissions and cannot mount a read-only tmpfs")
        folder.chmod(0o555)
    try:
        from thermomilp.cli.main import main

        assert main(["generate", "--size", "4x4", "--out", str(folder), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert f"cannot write {folder / 'therm_4x4_s0_000.txt'}:" in err, err
        assert ".tmp" not in err and ".part" not in err
    finally:
        if mounted:
            _umount(folder)
        else:
            folder.chmod(0o755)


@pytest.mark.parametrize("kind", ["device", "fifo", "folder"])
def test_batch_refuses_an_output_that_is_not_a_regular_file_before_reading_it(kind, tmp_path,
                                                                               capsys):
    if kind == "device":
        out = "/dev/zero"
        if not os.path.exists(out):
            pytest.skip("no /dev/zero on this platform")
    elif kind == "fifo":
        out = str(tmp_path / "pipe")
        os.mkfifo(out)
    else:
        out = str(tmp_path)
    from thermomilp.cli.main import main

    code = main(["batch", str(T01), "--out", out, "--no-progress"])
    assert code == 2
    err = capsys.readouterr().err
    assert f"cannot write {out}: it is " in err


def test_batch_output_is_read_back_within_a_bound(tmp_path, monkeypatch, capsys):
    import thermomilp.batch.output as output

    monkeypatch.setattr(output, "MAX_RECORD_BYTES", 1000)
    out = tmp_path / "out.jsonl"
    out.write_bytes(b'{"file": "' + b"x" * 5000)  # one endless line, no newline
    from thermomilp.cli.main import main

    assert main(["batch", str(T01), "--out", str(out), "--no-progress"]) == 2
    assert "longer than" in capsys.readouterr().err
    assert out.read_bytes() == b'{"file": "' + b"x" * 5000  # left as it was


@pytest.mark.parametrize("command", ["solve", "show"])
def test_inputs_sharing_a_name_get_distinct_pictures(command, tmp_path, monkeypatch):
    """``solve a/t.txt b/t.txt --svg pic.svg``: two pictures, neither overwrites the other."""
    from thermomilp.cli.main import main
    from thermomilp.pictures.svg import svg_paths_for

    for folder, board in (("a", "t01_4x4.txt"), ("b", "t02_5x5.txt")):
        (tmp_path / folder).mkdir()
        shutil.copy(INSTANCES / "thermometers" / board, tmp_path / folder / "t.txt")
    monkeypatch.chdir(tmp_path)
    assert main([command, "a/t.txt", "b/t.txt", "a/t.txt", "--svg", "pic.svg"]) == 0
    made = sorted(p.name for p in tmp_path.glob("pic*.svg"))
    assert made == ["pic-a-t-2.svg", "pic-a-t.svg", "pic-b-t.svg"]
    assert (tmp_path / "pic-a-t.svg").read_text() != (tmp_path / "pic-b-t.svg").read_text()
    assert 'width="204"' in (tmp_path / "pic-a-t.svg").read_text()  # the 4x4 board
    assert 'width="244"' in (tmp_path / "pic-b-t.svg").read_text()  # the 5x5 board
    # distinct stems keep the short names of before
    assert svg_paths_for("pic.svg", ["x/t01.txt", "y/t02.txt"]) == ["pic-t01.svg", "pic-t02.svg"]
    assert svg_paths_for("pic.svg", ["only.txt"]) == ["pic.svg"]


APPEND_CAPPED = textwrap.dedent("""
    import os, resource, signal, sys
    from thermomilp.core.files import append_whole
    from thermomilp.core.errors import WriteError
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND)
    resource.setrlimit(resource.RLIMIT_FSIZE, (os.fstat(fd).st_size + 10,) * 2)
    try:
        append_whole(fd, '{"file": "b", "status": "unique"}\\n', sys.argv[1])
    except WriteError as exc:
        print(exc)
        sys.exit(2)
""")


def test_append_whole_never_leaves_half_a_record(tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"file": "a", "status": "unique"}\n')
    before = log.read_bytes()
    done = subprocess.run([sys.executable, "-c", APPEND_CAPPED, str(log)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stdout.startswith(f"cannot write {log}:")
    assert log.read_bytes() == before  # 10 bytes fitted, and were taken back
