"""The student's process in a box of its own: a PID namespace, a process limit, no privileges.

The runner (`thermomilp.teach.runner`, a copy beside this file in the child's
folder: this module imports nothing of thermomilp) calls `enter` after it has read
its request and before any student code runs. On Linux, where the kernel allows it
(what each step gives: docs/course/grader.md, "What holds where"):

* **a PID namespace** (``CLONE_NEWPID``; for a grader that is not root, inside a new
  user namespace that maps only its own uid): the process the grader started stays
  outside and only waits; inside, a small init (PID 1) reaps every orphan and starts
  the runner (PID 2); when the init ends (``PR_SET_PDEATHSIG`` too) the kernel kills
  every process left in the namespace;
* **a process limit** that holds for root too: the namespace's own ``pid_max`` (Linux
  6.14+) and, for a grader that is not root, ``RLIMIT_NPROC``;
* **private mounts**: a ``/proc`` that shows only the box's processes and an empty
  ``/dev/shm``;
* (`end_step`) between two steps **every other process of the box is killed** from
  inside (``kill(-1)``);
* (`drop_privileges`) **no capabilities** (the bounding set emptied) and
  ``no_new_privs``.

Each step that cannot be taken is named in the list returned, which the grader
reports (and refuses under ``THERMOMILP_REQUIRE_SANDBOX=1``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
from typing import NoReturn

CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID = 0x00020000, 0x10000000, 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 1 << 14, 1 << 18
PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 1, 24, 38
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
CAP_VERSION_3 = 0x20080522
BOXED = False  # set in the runner once it is PID 2 of a namespace of its own
PRIVATE_PROC = False  # /proc shows the box's processes only
PID_MAX_MIN = 301  # the kernel refuses a smaller pid_max (RESERVED_PIDS + 1)
PER_NAMESPACE_PID_MAX = (6, 14)  # the first Linux whose pid_max is per PID namespace


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _error() -> str:
    return os.strerror(ctypes.get_errno())


def kernel_at_least(version: tuple[int, int]) -> bool:
    try:
        parts = os.uname().release.split("-")[0].split(".")
        return (int(parts[0]), int(parts[1])) >= version
    except (ValueError, IndexError):
        return False


def _die_with_parent(libc: ctypes.CDLL, parent: int | None) -> None:
    """SIGKILL this process when its parent ends (and at once, if it already has; a
    parent outside this PID namespace, ``None``, cannot be checked: it shows as 0)."""
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="ascii") as f:
        f.write(text)


def _own_user_namespace(libc: ctypes.CDLL) -> str:
    """A new user namespace mapping only this uid and gid (for a grader that is not root)."""
    uid, gid = os.geteuid(), os.getegid()
    if libc.unshare(CLONE_NEWUSER) != 0:
        return f"user namespace: {_error()}"
    try:
        _write("/proc/self/setgroups", "deny")
        _write("/proc/self/uid_map", f"{uid} {uid} 1")
        _write("/proc/self/gid_map", f"{gid} {gid} 1")
    except OSError as exc:
        return f"user namespace: its uid map could not be written ({exc.strerror})"
    return ""


def enter(max_tasks: int, grader: int) -> list[str]:
    """Move the rest of this program into its box; returns what could not be done.

    Returns in the runner (inside the namespace, or this very process when no namespace
    could be made); the process the grader started and the namespace's init never
    return from here."""
    if not sys.platform.startswith("linux"):
        return ["pid namespace, process limit: need Linux"]
    libc = _libc()
    _die_with_parent(libc, grader)
    missing: list[str] = []
    root = os.geteuid() == 0
    if not root:
        why = _own_user_namespace(libc)
        if why:
            return [why, "pid namespace: needs a user namespace when the grader is not root",
                    "process limit: needs a namespace of its own"]
    if libc.unshare(CLONE_NEWPID | CLONE_NEWNS) != 0:
        return [f"pid namespace: {_error()}", "process limit: needs a namespace of its own"]
    init = os.fork()
    if init:  # the process the grader started: it waits for the box and ends as the box ended
        _close_inherited()
        _exit_as(_ended(init))
    # PID 1 of the new namespace (the grader kills its process group, where it also is)
    _die_with_parent(libc, None)
    missing += _private_mounts(libc)
    if kernel_at_least(PER_NAMESPACE_PID_MAX):
        try:
            _write("/proc/sys/kernel/pid_max", str(max(max_tasks, PID_MAX_MIN)))
        except OSError as exc:
            missing.append(f"process limit: pid_max of the namespace ({exc.strerror})")
    elif root:
        missing.append("process limit: root is not bound by RLIMIT_NPROC, and a PID "
                       "namespace has its own pid_max from Linux 6.14 on")
    if not root:
        import resource

        try:  # counted in the box's own user namespace: only the box's processes
            resource.setrlimit(resource.RLIMIT_NPROC, (max_tasks, max_tasks))
        except (ValueError, OSError) as exc:
            missing.append(f"process limit: RLIMIT_NPROC ({exc})")
    runner = os.fork()
    if runner == 0:
        global BOXED
        _die_with_parent(libc, 1)
        BOXED = os.getpid() == 2
        return missing
    # the namespace's init: it reaps every process handed to it and ends when the runner
    # ends (the kernel then kills whatever is left in the namespace)
    _close_inherited()  # the init holds no pipe of the grader's
    code = _ended(runner)
    os._exit(code if code >= 0 else 128 - code)


def _close_inherited() -> None:
    """Close every descriptor but 0, 1 and 2, and point 1 and 2 at /dev/null."""
    try:
        fds = [int(n) for n in os.listdir("/proc/self/fd")]
    except OSError:
        fds = list(range(3, 256))
    for fd in fds:
        if fd > 2:
            with contextlib.suppress(OSError):  # the listing's own descriptor, closed already
                os.close(fd)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)


def _private_mounts(libc: ctypes.CDLL) -> list[str]:
    if libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        return [f"private mounts: {_error()}"]
    missing = []
    if libc.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None) != 0:
        missing.append(f"private /proc: {_error()}")
    else:
        global PRIVATE_PROC
        PRIVATE_PROC = True
    if os.path.isdir("/dev/shm") and libc.mount(b"tmpfs", b"/dev/shm", b"tmpfs",
                                                MS_NOSUID | MS_NODEV, b"size=1m") != 0:
        missing.append(f"private /dev/shm: {_error()}")
    return missing


def _exit_as(code: int) -> NoReturn:
    """End this process as the box ended: the same exit code, or the same signal."""
    sig = -code if code < 0 else code - 128 if code > 128 else 0
    if sig in set(signal.Signals):
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    os._exit(code & 0xFF)


def _ended(pid: int) -> int:
    """Reap this process's children until ``pid`` ends; its exit code (``-N``: signal N).
    (``os.wait`` is retried on EINTR by Python itself.)"""
    while True:
        try:
            done, status = os.wait()
        except ChildProcessError:
            os._exit(1)
        if done == pid:
            return os.waitstatus_to_exitcode(status)


def reap_children() -> None:
    """Collect every child of this process that has ended, without waiting."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def end_step() -> None:
    """In the box, between two steps (after the grader's own sweep): SIGKILL every process
    of the namespace but its init and this runner, at once -- ``kill(-1)`` cannot be
    outrun by a process that keeps forking. Outside a box of its own it does nothing
    (there, ``kill(-1)`` would reach every process of the user)."""
    if not BOXED or os.getpid() != 2:
        return
    with contextlib.suppress(OSError):  # nothing else in the namespace
        os.kill(-1, signal.SIGKILL)
    import time

    deadline = time.monotonic() + 5
    while PRIVATE_PROC and time.monotonic() < deadline:
        reap_children()  # gone means reaped: by the init, or by this process (its own children)
        try:
            if {int(p) for p in os.listdir("/proc") if p.isdigit()} <= {1, 2}:
                return
        except OSError:
            return
        time.sleep(0.001)


def drop_privileges() -> list[str]:
    """No capability left, none to be had again, no new privileges; returns what failed."""
    if not sys.platform.startswith("linux"):
        return []
    libc = _libc()
    missing = []
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        missing.append(f"no_new_privs: {_error()}")
    if _capabilities():
        try:
            with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as f:
                last = int(f.read())
        except (OSError, ValueError):
            last = 63
        for cap in range(last + 1):
            libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
        libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)

        class Header(ctypes.Structure):
            _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

        class Data(ctypes.Structure):
            _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                        ("inheritable", ctypes.c_uint32)]

        if libc.capset(ctypes.byref(Header(CAP_VERSION_3, 0)), (Data * 2)()) != 0:
            missing.append(f"capabilities: capset ({_error()})")
        elif _capabilities():
            missing.append("capabilities: some are still held")
    return missing


def _capabilities() -> bool:
    """Does this process hold a capability (effective or permitted)?"""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            return any(int(line.split()[1], 16) for line in f
                       if line.startswith(("CapEff:", "CapPrm:")))
    except (OSError, ValueError):
        return False
