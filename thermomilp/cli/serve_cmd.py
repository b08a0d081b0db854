"""``thermomilp serve``: the browser game and teaching page on a local web server."""

from __future__ import annotations

import argparse
import sys

from thermomilp.cli.main import EXIT_OK, add_solver_flags
from thermomilp.core.errors import ConfigError


def register(sub) -> None:
    p = sub.add_parser("serve", help="play, get hints and see the MILP in a browser",
                       description="Start a local web app: pick or upload a Thermometers or "
                                   "Aquarium board, play it, ask for a hint (the rule's name), "
                                   "check, solve with the configured MILP engine and read the "
                                   "LP model. Binds to 127.0.0.1 unless --host says otherwise. "
                                   "Needs the 'serve' extra (uvicorn, starlette).")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1, this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 = any free)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="also answer requests whose Host header is NAME (repeatable); "
                        "localhost, 127.0.0.1, [::1] and the --host address always are")
    p.add_argument("--open", action="store_true", help="open the page in a web browser")
    add_solver_flags(p)


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import settings_of

    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        from thermomilp.core.install import pip_install

        raise ConfigError("`thermomilp serve` needs the web server packages (uvicorn, "
                          f"starlette): {pip_install('serve')}") from None
    from thermomilp.web.api import Api, server_settings
    from thermomilp.web.server import host_name, is_loopback, make_server

    if not 0 <= args.port <= 65535:
        raise ConfigError(f"port {args.port} is outside 0..65535")
    bad = [name for name in args.allow_host if host_name(name) != name.strip().lower()
           .strip("[]") or not name.strip()]
    if bad:
        raise ConfigError("--allow-host takes a host name or address without port or path, "
                          f"not {bad[0]!r}")
    engine = server_settings(settings_of(args))
    _check_engine(engine)  # an unusable backend/solver pair fails now, not at the first Solve
    server = make_server(args.host, args.port, Api(engine), allow_hosts=tuple(args.allow_host))
    url = server.url + "/"
    if not is_loopback(args.host):
        print(f"thermomilp: warning: listening on {args.host}, not only this machine: anyone "
              "who can reach it can use the page and the solver (requests must name the "
              "server as localhost, 127.0.0.1, the --host address or an --allow-host name)",
              file=sys.stderr)
    print(f"thermomilp serve: {url}  (engine {engine.backend}/{engine.solver}; Ctrl-C stops)",
          flush=True)
    if args.open:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    print("thermomilp serve: stopped", file=sys.stderr)
    return EXIT_OK


def _check_engine(engine) -> None:
    """Solve a 1x1 board with the configured pair; raises SolverUnavailable if it cannot."""
    from thermomilp.core.puzzle import thermometers
    from thermomilp.solving import solve

    tiny = thermometers([1], [1], [[[0, 0]]])
    # presolve none: the logic would decide the 1x1 board and no engine would run
    result = solve(tiny, unique=False, settings=engine, logic="none")
    if not result.ok:
        raise ConfigError(f"the engine {engine.backend}/{engine.solver} cannot solve a 1x1 "
                          f"board: {result.status} {result.error or ''}".strip())
