"""Starts a process that leaves the session (setsid, double fork) and would outlive the grader."""
import os
import sys
import time

PIDS = sys.argv[0] + ".pids"  # beside the student's file


def build(puzzle):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            with open(PIDS, "a", encoding="ascii") as f:
                f.write(f"{os.getpid()}\n")
            while True:
                time.sleep(0.1)
        os._exit(0)
    time.sleep(0.3)
    raise RuntimeError("no model")
