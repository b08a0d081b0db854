"""Pictures of boards and solutions (layer 2 of docs/architecture.md).

* `text` -- terminal pictures with box-drawing characters;
* `svg` -- SVG for the docs, slides and the browser app.

Only the standard library.
"""
