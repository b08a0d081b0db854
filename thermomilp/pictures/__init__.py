"""Pictures of boards and solutions (layer 2 of docs/architecture.md).

* :mod:`~thermomilp.pictures.text` -- terminal pictures with box-drawing characters;
* :mod:`~thermomilp.pictures.svg` -- SVG for the docs, slides and the browser app.

Only the standard library.
"""
