"""A long-lived child process that runs ``thermomilp.cli.main.main`` on request.

``tests/test_fuzz_cli.py`` sends one JSON line per example on stdin --
``{"argv": [...], "files": {name: base64}}`` -- and reads one JSON line back:
``{"code", "stderr", "seconds"}``. The files are written to a fresh folder,
which is the working directory of the call. stdout and stderr are UTF-8
streams with strict errors, like a real terminal's, so an unencodable
character is found here too. Address space is capped (``THERMOMILP_FUZZ_MEMORY``
bytes, 2 GiB by default), so an input that asks for a huge allocation meets a
MemoryError instead of the machine's OOM killer; the parent restarts this
process if it dies or hangs. Running the CLI in one process makes an
example cost milliseconds instead of an interpreter start.
"""

from __future__ import annotations

import base64
import io
import json
import os
import sys
import tempfile
import time


def main() -> None:
    try:
        import resource

        cap = int(os.environ.get("THERMOMILP_FUZZ_MEMORY", str(2 << 30)))
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ImportError, ValueError, OSError):
        pass
    os.environ.pop("THERMOMILP_DEBUG", None)
    from thermomilp.cli.main import main as cli

    channel = sys.stdout
    home = os.getcwd()
    for line in sys.stdin:
        request = json.loads(line)
        with tempfile.TemporaryDirectory(prefix="thermomilp-fuzz-") as folder:
            for name, data in request["files"].items():
                with open(os.path.join(folder, name), "wb") as handle:
                    handle.write(base64.b64decode(data))
            out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
            err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
            sys.stdout, sys.stderr = out, err
            start = time.perf_counter()
            try:
                os.chdir(folder)
                code = cli(request["argv"])
            except BaseException as exc:  # noqa: BLE001 - what escaped main is the finding
                code = f"escaped main: {type(exc).__name__}: {exc}"
            finally:
                os.chdir(home)
                sys.stdout, sys.stderr = channel, sys.__stderr__
            seconds = time.perf_counter() - start
            try:
                err.flush()
                text = err.buffer.getvalue().decode("utf-8", "replace")
            except Exception as exc:  # noqa: BLE001
                text = f"stderr could not be read: {exc}"
        channel.write(json.dumps({"code": code, "stderr": text[-4000:],
                                  "seconds": seconds}) + "\n")
        channel.flush()


if __name__ == "__main__":
    main()
