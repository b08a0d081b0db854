"""Layers 0-1 of docs/architecture.md (its table lists the modules): the data, the rules
and the settings. Nothing here imports numpy or a solver library.
"""
