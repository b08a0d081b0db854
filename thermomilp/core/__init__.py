"""Layers 0-1 of docs/architecture.md: the data, the rules and the settings.

* [`errors`][thermomilp.core.errors] -- every error thermomilp raises, one hierarchy;
* [`deadline`][thermomilp.core.deadline] -- one clock per board;
* [`puzzle`][thermomilp.core.puzzle] -- the frozen ``Puzzle`` / ``Vessel`` and the level adapter;
* [`verify`][thermomilp.core.verify] -- the independent checker of a solution;
* [`settings`][thermomilp.core.settings] -- the one immutable ``Settings`` and its enums;
* [`config`][thermomilp.core.config] -- flag > environment > file > default into ``Settings``.

Nothing here imports numpy or a solver library.
"""
