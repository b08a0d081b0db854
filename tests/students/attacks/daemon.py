"""Starts a process that leaves the session (setsid, double fork) and would outlive the grader.

The process names itself (its comm) after this file's name (the grader runs a copy of the
file under the same name), so a test can look for it."""
import ctypes
import os
import sys
import time

NAME = ("d" + os.path.basename(os.path.abspath(sys.argv[0]))[:-len(".py")])[-15:]


def build(puzzle):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            ctypes.CDLL(None).prctl(15, NAME.encode(), 0, 0, 0)  # PR_SET_NAME
            while True:
                time.sleep(0.1)
        os._exit(0)
    time.sleep(0.3)
    raise RuntimeError("no model")
