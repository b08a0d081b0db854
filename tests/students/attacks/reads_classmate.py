"""Looks for a classmate's file -- beside its own, in the folders the grader's command
line names (/proc), in any pytest folder -- and reads it."""
import glob
import os

found = []
MARK = "-".join(["CLASSMATE", "SECRET"])  # not in this file's own text


def _candidates():
    yield from glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "*.py"))
    for cmdline in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            with open(cmdline, "rb") as f:
                args = f.read().decode(errors="replace").split("\0")
        except OSError:
            continue
        for arg in args:
            if arg.endswith(".py"):
                yield arg
                yield from glob.glob(os.path.join(os.path.dirname(arg), "*.py"))
    yield from glob.glob("/tmp/pytest-of-*/*/*/classmate*.py")
    yield from glob.glob("/tmp/pytest-of-*/*/*/*/classmate*.py")


for path in set(_candidates()):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        continue
    if MARK in text:
        found.append(path)


def build(puzzle):
    raise RuntimeError(f"READ {sorted(found)}")
