"""Tries to write on a terminal: /dev/tty, every /dev/pts/*, and every terminal another
process has open (found through /proc), as a submission did to forge a score on the
instructor's screen."""
import glob
import os


def build(puzzle):
    paths = ["/dev/tty", "/dev/console", *glob.glob("/dev/pts/*")]
    for fd in glob.glob("/proc/[0-9]*/fd/*"):
        try:
            if os.readlink(fd).startswith(("/dev/pts/", "/dev/tty")):
                paths.append(fd)
        except OSError:
            pass
    opened = []
    for path in paths:
        if path.endswith("ptmx"):
            continue
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NOCTTY)
        except OSError:
            continue
        os.close(fd)
        opened.append(path)
    raise RuntimeError(f"OPENED {opened} of {len(paths)}")
