"""``thermomilp serve``: play and teach in the browser.

* :mod:`thermomilp.web.api` -- the JSON API (load, generate, hint, check,
  solve, model), pure Python, no HTTP;
* :mod:`thermomilp.web.server` -- the ASGI application (Starlette) served by
  uvicorn (the ``serve`` extra): the static page from ``static/`` and the API
  under ``/api/``, with host checking, size and time limits and a worker pool;
* :mod:`thermomilp.web.hints` -- the next deduction and its rule's name;
* :mod:`thermomilp.web.newboard` -- fresh boards with the uniqueness reroll;
* :mod:`thermomilp.web.instances` -- the bundled puzzles, looked up by id.

See ``docs/serve.md``.
"""
