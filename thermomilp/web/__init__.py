"""``thermomilp serve``: play and teach in the browser.

* `thermomilp.web.api` -- the JSON API (info, instances, load, generate, hint,
  check, solve, model, relax), pure Python, no HTTP;
* `thermomilp.web.server` -- the ASGI application (Starlette) served by
  uvicorn (the ``serve`` extra): the static page from ``static/`` and the API
  under ``/api/``, with host checking, size and time limits and a worker pool;
* `thermomilp.web.hints` -- the next deduction and its rule's name;
* `thermomilp.web.newboard` -- fresh boards with the uniqueness reroll;
* `thermomilp.web.instances` -- the bundled puzzles, looked up by id.

See ``docs/serve.md``.
"""
