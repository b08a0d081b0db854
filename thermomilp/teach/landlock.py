"""Landlock (Linux 5.13+): what the student's process may read and write, set on itself.

The runner (`thermomilp.teach.runner`, a copy beside this file in the child's
folder) calls `restrict` before the
student's code runs. Afterwards the process and everything it starts
(docs/course/grader.md, "What holds where", has the paths in full):

* reads **only** the readable paths (``sandbox.readable_paths``, plus what its
  interpreter imports from) and none of the hidden paths below them
  (``sandbox.hidden_paths``); a hidden folder's names may be listed, its files not read;
* writes only below its own temporary folder and to ``/dev/null``;
* (Landlock ABI 4+) opens no TCP connection and binds no TCP port;
* (ABI 6+) sends no signal to a process outside its own domain (the grader).

Landlock is unprivileged and cannot be lifted by the process. Where the
kernel lacks it, `restrict` returns what it could not do and the
grader says so in the report.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Sequence

SYS_CREATE, SYS_ADD_RULE, SYS_RESTRICT = 444, 445, 446  # the same on every architecture
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR, MAKE_REG = 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8
MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM, REFER, TRUNCATE = (1 << 9, 1 << 10, 1 << 11,
                                                               1 << 12, 1 << 13, 1 << 14)
FILE_ONLY = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE
READ = EXECUTE | READ_FILE | READ_DIR
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX, SCOPE_SIGNAL = 1 << 0, 1 << 1
PR_SET_NO_NEW_PRIVS = 38


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def available() -> int:
    """The kernel's Landlock ABI version, 0 when it has none."""
    if not sys.platform.startswith("linux"):
        return 0
    return max(int(_libc().syscall(SYS_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(1))), 0)


def restrict(hidden: Sequence[str], writable: Sequence[str], readable: Sequence[str] = ()) -> str:
    """Apply the rules to this process; returns "" or why it could not.

    Only the ``readable`` paths (and what is below them) can be read -- an allowlist --
    and none of the ``hidden`` paths below them, though a ``readable`` path below a hidden
    one stays readable (the interpreter under a hidden home folder, the process's own
    folder under a hidden ``/tmp``). Only the ``writable`` paths can be written."""
    if not sys.platform.startswith("linux"):
        return "Landlock needs Linux"
    libc, abi = _libc(), available()
    if abi < 1:
        return "the kernel has no Landlock"
    handled = (READ | WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_CHAR | MAKE_DIR | MAKE_REG
               | MAKE_SOCK | MAKE_FIFO | MAKE_BLOCK | MAKE_SYM
               | (REFER if abi >= 2 else 0) | (TRUNCATE if abi >= 3 else 0))
    fields = [handled]
    if abi >= 4:
        fields.append(NET_BIND_TCP | NET_CONNECT_TCP)
    if abi >= 6:
        fields.append(SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL)
    attr = (ctypes.c_uint64 * len(fields))(*fields)
    ruleset = libc.syscall(SYS_CREATE, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)),
                           ctypes.c_uint32(0))
    if ruleset < 0:
        return f"Landlock refused the rule set ({os.strerror(ctypes.get_errno())})"
    ruleset = int(ruleset)
    try:
        hide = sorted({os.path.realpath(p) for p in hidden if os.path.exists(p)})
        keep = sorted({os.path.realpath(p) for p in readable if os.path.exists(p)})

        def allow(path: str, access: int) -> None:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                return
            try:
                if not os.path.isdir(path):
                    access &= FILE_ONLY
                rule = _PathBeneath(access & handled, fd)
                libc.syscall(SYS_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(1),
                             ctypes.byref(rule), ctypes.c_uint32(0))
            finally:
                os.close(fd)

        def depth(path: str, folders: Sequence[str]) -> int:
            """The length of the longest of ``folders`` that holds ``path``, -1 for none."""
            return max((len(f) for f in folders
                        if path == f or path.startswith(f.rstrip("/") + "/")), default=-1)

        def walk(folder: str) -> None:
            """Allow reading all of ``folder`` but the hidden paths below it (and, below
            a hidden path, the readable ones): the nearer of the two rules wins."""
            prefix = folder.rstrip("/") + "/"
            shut = depth(folder, hide) > depth(folder, keep)
            if shut and not any(p.startswith(prefix) for p in keep):
                return  # hidden
            if not shut:
                if not any(p.startswith(prefix) for p in hide):
                    allow(folder, READ)
                    return
                allow(folder, READ_DIR)  # its names may be listed (files are not read through it)
            try:  # a symbolic link is reached through its target, walked on its own
                entries = [e.path for e in os.scandir(folder) if not e.is_symlink()]
            except OSError:
                return
            for entry in entries:
                walk(entry)

        for root in keep:  # nothing outside the readable paths is walked, so none is read
            walk(root)
        for path in writable:
            allow(path, handled)
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return "prctl(PR_SET_NO_NEW_PRIVS) failed"
        if libc.syscall(SYS_RESTRICT, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            return f"Landlock could not restrict the process ({os.strerror(ctypes.get_errno())})"
    finally:
        os.close(ruleset)
    return ""
