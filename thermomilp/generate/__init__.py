"""Boards with known solutions: random partitions, planted levels, unique-board generators."""
