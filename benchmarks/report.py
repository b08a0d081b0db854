"""Put a generated block of Markdown between markers in a results page (benchmarks/results/)."""

from __future__ import annotations

import re
from pathlib import Path


def replace_block(page: Path, key: str, body: str) -> None:
    begin, end = f"<!-- {key}:begin (generated) -->", f"<!-- {key}:end -->"
    text = page.read_text() if page.exists() else ""
    block = f"{begin}\n{body.rstrip()}\n{end}"
    if begin in text and end in text:
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, text,
                      flags=re.S)
    else:
        text = text.rstrip() + ("\n\n" if text else "") + block + "\n"
    page.write_text(text)
