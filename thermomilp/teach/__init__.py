"""Teaching tools: the autograder behind ``thermomilp grade``, exports and the analysis
of a board (layer 6 of docs/architecture.md).

One module per job:

* :mod:`~thermomilp.teach.export` -- a board's model as LP, MPS, GMPL data or LaTeX;
* :mod:`~thermomilp.teach.analyze` -- a board's model analysed: sizes, the LP
  relaxation, the solution count, what the logic fixes (``thermomilp analyze``);
* :mod:`~thermomilp.teach.sandbox` and :mod:`~thermomilp.teach.runner` -- the
  student's code in a child process with limits (the trust model is there), and
  :mod:`~thermomilp.teach.landlock`, what that process may read and write;
* :mod:`~thermomilp.teach.extract` and :mod:`~thermomilp.teach.linear` --
  the student's PuLP or Pyomo model as plain data, solved with HiGHS;
* :mod:`~thermomilp.teach.checks` -- the checks on one board of the corpus;
* :mod:`~thermomilp.teach.rules`, :mod:`~thermomilp.teach.probes`,
  :mod:`~thermomilp.teach.diagnose`, :mod:`~thermomilp.teach.catalogue` --
  mistakes named from evidence (docs/course/grader.md);
* :mod:`~thermomilp.teach.student`, :mod:`~thermomilp.teach.classroom`,
  :mod:`~thermomilp.teach.report` -- one student, a class, the report;
* :mod:`~thermomilp.teach.corpus` -- the boards (bundled by default).
"""

from thermomilp.teach.corpus import GradeError, corpus_boards, default_corpus

__all__ = ["GradeError", "corpus_boards", "default_corpus"]
