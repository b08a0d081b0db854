"""Leaves a file where every later run could find it (/dev/shm, /tmp, /var/tmp and its own
TMPDIR), named after this file; on the next board, says whether its TMPDIR file is still
there."""
import os
import sys

NAME = "left-" + os.path.basename(os.path.abspath(sys.argv[0]))[:-len(".py")]
boards = 0


def build(puzzle):
    global boards
    boards += 1
    mine = os.path.join(os.environ.get("TMPDIR", "/nonexistent"), NAME)
    kept = os.path.exists(mine)
    wrote = []
    for folder in ("/dev/shm", "/tmp", "/var/tmp", os.environ.get("TMPDIR", "")):
        try:
            with open(os.path.join(folder, NAME), "w") as f:
                f.write("left behind\n")
            wrote.append(folder)
        except OSError:
            pass
    raise RuntimeError(f"BOARD {boards} KEPT {kept} WROTE {wrote}")
