"""A CP-SAT solution counter, run as its own process: the peer of ``thermomilp solve``.

    python benchmarks/cpsat_counter.py FILE [FILE ...]

For each board file: build the cell model in OR-Tools CP-SAT
(``peer_models.decide_cpsat``, one worker enumerating solutions, stopping at
the second) and print ``FILE: unique|multiple|infeasible|timeout``. The
boards are read with thermomilp's reader (parsing is not what is compared);
the model reads only the puzzle's public data. Needs ``ortools``
(``pip install 'thermomilp[bench]'``).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import peer_models  # noqa: E402

from thermomilp.formats import load  # noqa: E402


def main(argv: list[str]) -> int:
    for name in argv:
        print(f"{name}: {peer_models.decide_cpsat(load(name), workers=1)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
