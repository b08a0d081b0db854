"""Every file thermomilp writes is written whole or not at all (`write_whole`);
every board file it reads is a regular file, read without blocking and within a
bound (`read_regular`).

Writing (``convert -o``, ``export -o``, ``--svg``, ``generate``, the grader's
grades): the text goes to a temporary file in the target's folder, is flushed and
``fsync``-ed, then renamed over the target (``os.replace``), so a failure leaves
the old file or no file. A failure is a [`WriteError`][thermomilp.core.errors.WriteError]
naming the user's target. A target that exists and is not a regular file (a
device, a folder, a FIFO) is refused; a symbolic link to a regular file is
followed; an existing file keeps its permission bits, a new one gets the umask's.

Appending logs (``batch --out``, a class's grades) take one complete record at a
time (`append_whole`): a record that cannot be written whole is cut back off.

Reading (``formats.load``, ``batch``'s content hash): only a regular file, or a
link to one, is read; anything else is a
[`NotRegularFile`][thermomilp.core.errors.NotRegularFile] (an ``OSError``). The
file is looked at, opened with ``O_NONBLOCK`` (a FIFO with no writer never blocks
the open) and looked at again through the descriptor; at most ``limit`` bytes are read.
"""

from __future__ import annotations

import errno
import os
import stat

from thermomilp.core.errors import NotRegularFile, WriteError


def write_whole(path: str | os.PathLike[str], data: str | bytes, *,
                encoding: str = "utf-8", errors: str = "backslashreplace") -> None:
    """Replace ``path`` with ``data`` in one step, or leave it as it was.

    ``data`` as text is encoded with ``encoding``; ``errors="backslashreplace"``
    writes a lone surrogate (an undecodable byte in a file name, say) escaped,
    as the terminal shows it. Raises [`WriteError`][thermomilp.core.errors.WriteError] naming
    ``path``.
    """
    import tempfile  # here: a command that only reads never imports it

    shown = os.fspath(path)
    payload = data if isinstance(data, bytes) else data.encode(encoding, errors)
    target = _regular_target(shown)
    folder = os.path.dirname(os.path.abspath(target)) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".part",
                                   dir=folder)
    except OSError as exc:
        raise WriteError(f"cannot write {shown}: {_reason(exc)}") from None
    try:
        try:
            os.fchmod(fd, _mode_for(target))
            with os.fdopen(fd, "wb") as handle:
                fd = -1
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, target)
        finally:
            if fd >= 0:
                os.close(fd)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise WriteError(f"cannot write {shown}: {_reason(exc)}") from None
        raise
    _sync_folder(folder)


def append_whole(fd: int, data: str | bytes, path: str | os.PathLike[str], *,
                 encoding: str = "utf-8", errors: str = "backslashreplace") -> None:
    """Append ``data`` (one record) to the open file ``fd`` whole, or not at all.

    On a failed write the file is truncated back to its size before the
    record and a [`WriteError`][thermomilp.core.errors.WriteError] naming ``path`` is raised, so the
    log never holds half a record. ``fd`` should be opened for appending by one
    writer at a time (``batch`` locks its output).
    """
    payload = data if isinstance(data, bytes) else data.encode(encoding, errors)
    start = os.lseek(fd, 0, os.SEEK_END)
    try:
        done = 0
        while done < len(payload):
            done += os.write(fd, payload[done:])
    except OSError as exc:
        try:
            os.ftruncate(fd, start)
        except OSError:
            pass
        raise WriteError(f"cannot write {os.fspath(path)}: {_reason(exc)} (the records "
                         "before this one are kept)") from None


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most ``limit`` bytes of the regular file ``path``; never blocks.

    Raises:
        NotRegularFile: ``path`` (or what its link points to) is not a regular file.
        OSError: it cannot be opened or read (missing, permission denied...).
    """
    name = os.fspath(path)
    _require_regular_file(name, os.stat(name))  # a FIFO or a device is not even opened
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
             | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    fd = os.open(name, flags)
    try:
        _require_regular_file(name, os.fstat(fd))  # the file we opened, swapped or not
        chunks: list[bytes] = []
        left = limit
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _require_regular_file(name: str, info: os.stat_result) -> None:
    if stat.S_ISREG(info.st_mode):
        return
    mode = info.st_mode
    kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file")
    raise NotRegularFile(errno.EINVAL, f"it is {kind}, not a regular file", name)


def _regular_target(path: str) -> str:
    """The file to replace: ``path``, or where its symbolic link points."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return path
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {_reason(exc)}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise WriteError(f"cannot write {path}: it is {kind}")
    return os.path.realpath(path) if os.path.islink(path) else path


def _mode_for(target: str) -> int:
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable (best effort: not every platform can)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


__all__ = ["NotRegularFile", "append_whole", "read_regular", "write_whole"]
