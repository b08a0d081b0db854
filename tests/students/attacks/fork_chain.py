"""A chain of fork-and-exit: each generation forks the next and ends, so every one is an
orphan and a zombie until whoever inherits it reaps it; the last one sleeps on. The chain
is bounded (300 generations, 3 seconds) so a grader without a process limit is not hurt.

On the first board the chain runs; a second after its end the build counts the chain's
zombies still unreaped. On every board one sleeper is started, and the next build first looks
whether the last board's sleeper is still alive (the grader must end it before the next
build starts). Every process names itself (its comm) after this file."""
import ctypes
import glob
import os
import select
import sys
import time

NAME = ("f" + os.path.basename(os.path.abspath(sys.argv[0]))[:-len(".py")])[-15:]
boards = 0
sleeper = 0


def _state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return ""
    return stat[stat.rfind(")") + 2]


def _zombies():
    n = 0
    for comm in glob.glob("/proc/[0-9]*/comm"):
        try:
            with open(comm) as f:
                if f.read().strip() == NAME:
                    n += _state(comm.split("/")[2]) == "Z"
        except OSError:
            pass
    return n


def _named():
    ctypes.CDLL(None).prctl(15, NAME.encode(), 0, 0, 0)  # PR_SET_NAME


def build(puzzle):
    global boards, sleeper
    before = sleeper != 0 and _state(sleeper) not in ("", "Z", "X")
    boards += 1
    zombies = 0
    if boards == 1:
        done, told = os.pipe()
        first = os.fork()
        if first == 0:
            _named()
            stop = time.monotonic() + 3
            for _ in range(300):
                try:
                    if os.fork() != 0:
                        os._exit(0)  # the parent ends: its child is an orphan
                except OSError:
                    break
                if time.monotonic() > stop:
                    break
            os.write(told, b"x")  # the last generation says the chain is over
            os._exit(0)
        os.waitpid(first, 0)
        select.select([done], [], [], 5)
        time.sleep(1)  # then a second for whoever must reap them
        zombies = _zombies()
    sleeper = os.fork()
    if sleeper == 0:
        _named()
        while True:
            time.sleep(0.1)
    raise RuntimeError(f"ALIVE-BEFORE {before} ZOMBIES {zombies}")
