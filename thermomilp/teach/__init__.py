"""Teaching tools: the autograder behind ``thermomilp grade``, exports and the analysis
of a board (layer 6 of docs/architecture.md).

One module per job:

* `export` -- a board's model as LP, MPS, GMPL data or LaTeX;
* `analyze` -- a board's model analysed: sizes, the LP
  relaxation, the solution count, what the logic fixes (``thermomilp analyze``);
* `sandbox` and `runner` -- the
  student's code in a child process with limits (the trust model is there), and
  `landlock`, what that process may read and write;
* `extract` and `linear` --
  the student's PuLP or Pyomo model as plain data, solved with HiGHS;
* `checks` -- the checks on one board of the corpus;
* `rules`, `probes`,
  `diagnose`, `catalogue` --
  mistakes named from evidence (docs/course/grader.md);
* `student`, `classroom`,
  `report` -- one student, a class, the report;
* `corpus` -- the boards (bundled by default).

Imported in a notebook (or an IPython shell), the kit creates the process's first
``Highs`` with its start-up banner swallowed (`thermomilp.model.highs_model.hide_banner`),
so ``prob.solve(pulp.HiGHS(msg=False))`` prints nothing. Elsewhere importing the kit
imports no solver.
"""

import sys

from thermomilp.teach.corpus import GradeError, corpus_boards, default_corpus


def _quiet_highs_in_notebooks() -> None:
    """Swallow the HiGHS banner once, in a notebook or IPython shell only (where the
    kernel shows what the engine writes on its stdout), and when highspy is there."""
    if "IPython" not in sys.modules:
        return
    try:
        from thermomilp.model.highs_model import hide_banner
    except ImportError:  # highspy or numpy missing: nothing can print the banner
        return
    hide_banner()


_quiet_highs_in_notebooks()

__all__ = ["GradeError", "corpus_boards", "default_corpus"]
