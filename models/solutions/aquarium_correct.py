"""A correct Aquarium model (Pyomo): ties within a tank row, gravity between rows."""

import pyomo.environ as pyo

PUZZLE = "aquarium"  # `thermomilp grade` grades this file on Aquarium boards


def build(puzzle):
    m = pyo.ConcreteModel()
    m.x = pyo.Var(range(puzzle.height), range(puzzle.width), domain=pyo.Binary)
    m.obj = pyo.Objective(expr=0)
    m.clues = pyo.ConstraintList()
    for i, clue in enumerate(puzzle.rows):
        if clue is not None:
            m.clues.add(sum(m.x[i, j] for j in range(puzzle.width)) == clue)
    for j, clue in enumerate(puzzle.cols):
        if clue is not None:
            m.clues.add(sum(m.x[i, j] for i in range(puzzle.height)) == clue)
    m.ties = pyo.ConstraintList()
    m.gravity = pyo.ConstraintList()
    for tank in puzzle.vessels:
        for layer in tank.layers:  # lowest row first
            for cell in layer[1:]:
                m.ties.add(m.x[cell] == m.x[layer[0]])
        for lower, upper in zip(tank.layers, tank.layers[1:]):
            m.gravity.add(m.x[upper[0]] <= m.x[lower[0]])
    return m
