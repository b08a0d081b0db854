"""Layers 0-1 of docs/architecture.md: the data, the rules and the settings.

* :mod:`~thermomilp.core.errors` -- every error thermomilp raises, one hierarchy;
* :mod:`~thermomilp.core.deadline` -- one clock per board;
* :mod:`~thermomilp.core.puzzle` -- the frozen ``Puzzle`` / ``Vessel`` and the level adapter;
* :mod:`~thermomilp.core.verify` -- the independent checker of a solution;
* :mod:`~thermomilp.core.settings` -- the one immutable ``Settings`` and its enums;
* :mod:`~thermomilp.core.config` -- flag > environment > file > default into ``Settings``.

Nothing here imports numpy or a solver library.
"""
