"""Untrusted strings -- file names, puzzle names, labels -- put where they cannot steer.

A board file comes from outside, and so do its name, its tank labels and the
name of the file itself. Each place such a string goes has one function here:
`shown` for a terminal (JSON needs none: ``json.dumps`` escapes itself),
`comment_text` for the comment line of an exported model (LP, MPS, GMPL, LaTeX: a
name can never add a row, a section or a command to a model file), `xml_text` for
an SVG or HTML document. (LaTeX labels inside formulas are escaped by
``teach/export.latex_text``, which knows LaTeX's special characters.)
"""

from __future__ import annotations

import re

# C0 controls, DEL, C1 controls, the bidirectional embeddings/overrides/isolates,
# the line and paragraph separators, and lone surrogates.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
                     "\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}

COMMENT_MAX = 60
"""Longest name a model file's comment line carries (longer names are cut, with ``...``)."""


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    return _NAMED.get(ch) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def shown(text: object) -> str:
    """``text`` as it may be printed on a terminal (which obeys ESC sequences, CR and
    newlines): control characters, bidirectional overrides and lone surrogates become
    visible escapes; a clean string is returned unchanged.

    >>> shown("board\\x1b[2J.txt")
    'board\\\\x1b[2J.txt'
    >>> shown("a.txt\\nstatus: unique")
    'a.txt\\\\nstatus: unique'
    >>> shown("plain.txt")
    'plain.txt'
    """
    return _UNSAFE.sub(_escape, str(text))


def shown_lines(text: str) -> str:
    """A printout of several lines (a board, a result) with `shown` applied to
    each line: the line breaks are the printout's own, nothing inside a line can
    move the cursor."""
    return "\n".join(shown(line) for line in text.split("\n"))


# Kept in a comment: letters, digits, space and punctuation that no model language
# gives a meaning inside or at the end of a comment (no \ * # % $ & { } ; < > ":
# without ``*`` no ``*/`` can close a GMPL comment, so ``/`` may stay).
_COMMENT_KEEP = re.compile(r"[^A-Za-z0-9 _.,:()'+=!?@/\[\]-]")


def comment_text(text: object, limit: int = COMMENT_MAX) -> str:
    """``text`` fit for one comment line of an exported model: every character
    outside a small printable-ASCII set becomes ``?``, runs of white space one
    space, at most ``limit`` characters.

    >>> comment_text("t01\\nSubject To\\n c: x_0_0 = 1")
    't01?Subject To? c: x_0_0 = 1'
    >>> comment_text("*/ param H := 9; /*")
    '?/ param H := 9? /?'
    """
    flat = _COMMENT_KEEP.sub("?", str(text))
    flat = re.sub(r" {2,}", " ", flat).strip()
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."


# Characters XML 1.0 does not allow at all (even escaped).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
XML_MAX = 200


def xml_text(text: object, limit: int = XML_MAX) -> str:
    """``text`` as the content of an XML element (or a quoted attribute): ``& < > "
    '`` escaped, the characters XML forbids replaced by U+FFFD, at most ``limit``
    characters of the original.

    >>> xml_text("<script>alert(1)</script>")
    '&lt;script&gt;alert(1)&lt;/script&gt;'
    """
    raw = str(text)
    if len(raw) > limit:
        raw = raw[:limit - 1] + "\u2026"
    raw = _NOT_XML.sub("\ufffd", raw)
    return (raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


__all__ = ["COMMENT_MAX", "XML_MAX", "comment_text", "shown", "shown_lines", "xml_text"]
