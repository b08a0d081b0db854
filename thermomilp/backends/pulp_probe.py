"""Which PuLP solver class a pass-through name reaches: asked by the solver matrix
and by the PuLP session.

Kept apart from :mod:`thermomilp.backends.pulp_backend` so that the matrix
(which the session asks for the CBC executable) and the session do not
import each other.
"""

from __future__ import annotations

import warnings
from typing import Any


def pulp_class_for(name: str) -> Any:
    """The PuLP solver class for a pass-through name, or None.

    ``gurobi`` -> GUROBI, ``cplex`` -> the first available of CPLEX_PY,
    CPLEX_CMD; an exact PuLP class name (``GUROBI_CMD``) works too.
    """
    import pulp

    wanted = name.upper()
    names = [n for n in pulp.listSolvers() if n.upper() == wanted]
    names += [n for n in pulp.listSolvers() if n.upper().startswith(wanted + "_")]
    for n in names:
        cls = getattr(pulp, n, None)
        if cls is None:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if cls(msg=False).available():
                    return cls
        except Exception:  # noqa: BLE001 - a broken interface is just "not this one"
            continue
    return None
