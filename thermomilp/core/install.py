"""How to install an optional part of thermomilp, from where this copy came from.

thermomilp is not published on a package index: a user installs it from a clone
(``pip install .``) or from a wheel built there. An install hint that names
``thermomilp[cbc]`` would fail in a fresh venv ("No matching distribution"), so
every hint says the source this copy was installed from, read from pip's own
record of it (PEP 610, ``direct_url.json``): the clone's folder or the wheel's
path. A copy run from a checkout without installing names the checkout.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from urllib.parse import unquote, urlparse

CHECKOUT = Path(__file__).resolve().parent.parent.parent
"""The folder above the package: a clone of the repository when this copy runs from one."""


@functools.lru_cache(maxsize=1)
def source() -> str | None:
    """The folder or wheel this copy of thermomilp was installed from, or None."""
    if (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / "thermomilp").is_dir():
        return str(CHECKOUT)  # running from a clone (installed editable, or not at all)
    try:
        from importlib.metadata import PackageNotFoundError, distribution

        record = distribution("thermomilp").read_text("direct_url.json")
    except (PackageNotFoundError, OSError, ValueError):
        return None
    try:
        url = json.loads(record or "null")["url"]
    except (ValueError, TypeError, KeyError):
        return None
    parsed = urlparse(url)
    return unquote(parsed.path) if parsed.scheme == "file" else None


def pip_install(extra: str) -> str:
    """The command that adds the ``extra`` (``cbc``, ``scip``, ``serve``, ...) to this copy."""
    return f'pip install "{source() or "thermomilp"}[{extra}]"'


__all__ = ["pip_install", "source"]
