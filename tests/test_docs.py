"""The documentation site builds with ``mkdocs build --strict`` and every example in it runs.

A page opts in with the line ``<!-- examples: tested -->``; every page of
the teaching kit does, and the test below fails if a page with a
``python`` or ``console`` example does not. Rules (docs/index.md says the same):

* ```` ```python ```` blocks of one page run in order in one namespace; a
  plain (or ```` ```text ````) block right after one is what it prints, and must
  equal its output with only timings (``0.004 s``), the scratch folder and the
  version masked. An output that is not reproducible is marked by the comment
  ``<!-- output varies: REASON -->`` between the two blocks, and not compared;
* ```` ```console ```` blocks: each ``$ command`` line runs; the lines shown
  under it must appear in what it prints, in the same order, with only the
  timings in them (such as ``0.004 s``) masked -- status lines are compared like
  any other.
  A trailing ``# exit N`` expects exit code N;
* ```` ```sh ```` blocks: every line is a command, exit 0 expected;
* commands ``thermomilp ...`` / ``python -m thermomilp ...`` go through the
  CLI's ``main`` in-process; ``glpsol ...`` and ``python FILE ...`` run as
  programs (skipped when glpsol is missing); ``pip install ...`` is not run
  (the test run has installed the package); other programs are refused;
* ```` ```puzzle ```` and ```` ```json ```` blocks that hold a puzzle must load.

Everything runs in a scratch folder holding links to ``instances/`` and
``models/``, so examples may write files.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from thermomilp.core.errors import SolverUnavailable

from helpers import ROOT, require_all_solvers, use_pair

DOCS = ROOT / "docs"
ALL_PAGES = sorted(p for p in DOCS.rglob("*.md"))
MARKER = "<!-- examples: tested -->"
README = ROOT / "README.md"
PAGES = [p for p in ALL_PAGES + [README] if MARKER in p.read_text(encoding="utf-8")]
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w+-]*)[^\n]*\n"
                   r"(?P<body>.*?)^(?P=indent)```[ \t]*$", re.S | re.M)
TIMING = re.compile(r"\d+\.\d+ ?s\b")


def blocks(page: Path, *langs: str) -> list[str]:
    text = page.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        if m.group("lang") in langs:
            indent = m.group("indent")
            out.append("\n".join(line[len(indent):] if line.startswith(indent) else line
                                 for line in m.group("body").splitlines()))
    return out


VARIES = re.compile(r"\s*<!-- output varies: (?P<reason>[^>]*\S)\s*-->\s*")


def _dedent(m: re.Match) -> str:
    indent = m.group("indent")
    return "\n".join(line[len(indent):] if line.startswith(indent) else line
                     for line in m.group("body").splitlines())


def python_with_output(page: Path) -> list[tuple[str, str | None, str | None]]:
    """(code, shown output or None, why the output varies or None) of each python block:
    the output is the plain or ``text`` block right after it, with nothing but white
    space -- or an ``<!-- output varies: REASON -->`` comment -- between the two."""
    text = page.read_text(encoding="utf-8")
    fences = list(FENCE.finditer(text))
    out = []
    for k, m in enumerate(fences):
        if m.group("lang") != "python":
            continue
        shown = varies = None
        after = fences[k + 1] if k + 1 < len(fences) else None
        if after is not None and after.group("lang") in ("", "text"):
            between = text[m.end():after.start()]
            marked = VARIES.fullmatch(between)
            if not between.strip() or marked:
                shown = _dedent(after) + "\n"
                varies = marked.group("reason") if marked else None
        out.append((_dedent(m), shown, varies))
    return out


def normalise(printed: str, scratch: Path | None = None) -> str:
    """What may differ between two runs of an example: timings (``0.004 s``), the scratch
    folder the examples run in, the package version; and white space at line ends."""
    from thermomilp import __version__

    if scratch is not None:
        printed = printed.replace(str(scratch) + os.sep, "").replace(str(scratch), ".")
    printed = TIMING.sub("<time>", printed).replace(__version__, "<version>")
    return "\n".join(line.rstrip() for line in printed.strip("\n").splitlines())


def page_id(page: Path) -> str:
    return page.relative_to(DOCS if page.is_relative_to(DOCS) else ROOT).as_posix()


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    for name in ("instances", "models", "benchmarks"):
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return tmp_path


def test_site_builds_offline_with_strict_warnings(tmp_path):
    pytest.importorskip("mkdocs", reason="the docs extra (mkdocs) is not installed")
    pytest.importorskip("pymdownx", reason="the docs extra (pymdown-extensions) is not installed")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                          str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "js" / "mathjax" / "tex-svg.js").is_file()
    html = (tmp_path / "site" / "formulation" / "index.html").read_text(encoding="utf-8")
    assert 'class="arithmatex"' in html  # math went through arithmatex
    check_api_reference(tmp_path / "site" / "reference")
    check_no_literal_roles(tmp_path / "site")
    # offline: no page loads a script or a stylesheet from the network
    remote = re.compile(r'<(?:script|link)\b[^>]*(?:src|href)="(?:https?:)?//')
    for page in (tmp_path / "site").rglob("*.html"):
        found = remote.search(page.read_text(encoding="utf-8"))
        assert found is None, f"{page.relative_to(tmp_path)} loads {found.group(0)}"


# A reference page says what the program does now; a dated run (a date, a clock
# time in UTC, the machine's load) belongs in the journal (docs/journal.md).
DATED = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b"                                      # 2026-12-01
    r"|\bUTC\b|load average"
    r"|\b\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{4}\b"
    r"|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d{1,2}, \d{4}\b")
JOURNAL = "journal.md"


def dated_runs(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every line that holds a date, UTC or a load average."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)
            if DATED.search(line)]


@pytest.mark.parametrize("page", [p for p in ALL_PAGES if page_id(p) != JOURNAL],
                         ids=page_id)
def test_reference_pages_hold_no_dated_run(page):
    found = [f"{page_id(page)}:{n}: {line}" for n, line in
             dated_runs(page.read_text(encoding="utf-8"))]
    assert found == [], ("a dated measurement belongs in docs/journal.md; the reference "
                         "page keeps the current figure and the command that reproduces it:\n"
                         + "\n".join(found))


def test_the_dated_run_check_sees_dates_clock_times_and_load():
    assert dated_runs("Run of 2026-12-01 00:05 UTC") == [(1, "Run of 2026-12-01 00:05 UTC")]
    assert [n for n, _ in dated_runs("a\n(load average 4.4-4.7)\nb")] == [2]
    assert dated_runs("measured on 29 November 2026, seed 2026") != []
    assert dated_runs("Run on the shared machine, 29 Nov 2026") != []
    assert dated_runs("on Nov 29, 2026") != []
    assert dated_runs("seed 2026, 30 boards; 0.26x CP-SAT; 15x15; load the board") == []
    assert (DOCS / JOURNAL).is_file() and dated_runs((DOCS / JOURNAL).read_text()) != []


def _plain(html_text: str) -> str:
    import html as html_module

    text = html_module.unescape(re.sub(r"<[^>]+>", " ", html_module.unescape(html_text)))
    return " ".join(text.split())


def check_api_reference(site: Path) -> None:
    """The generated API reference is in the site and shows the docstrings of the code
    installed now (mkdocstrings read them: nothing in docs/reference/ copies them)."""
    import inspect

    import thermomilp
    from thermomilp.core import errors, puzzle, settings

    pages = {"thermomilp": thermomilp, "puzzle": puzzle, "settings": settings, "errors": errors}
    objects = {"puzzle": puzzle.Puzzle, "settings": settings.Settings,
               "errors": errors.ThermomilpError, "thermomilp": thermomilp.load}
    for page, module in pages.items():
        html = (site / page / "index.html").read_text(encoding="utf-8")
        obj = objects[page]
        anchor = (f"thermomilp.{obj.__name__}" if module is thermomilp
                  else f"{module.__name__}.{obj.__name__}")
        assert f'id="{anchor}"' in html, f"reference/{page}: no entry {anchor}"
        first = (inspect.getdoc(obj) or "").splitlines()[0]
        words = [w for w in re.findall(r"[A-Za-z]{4,}", first)]
        plain = _plain(html)
        assert words and all(w in plain for w in words), (
            f"reference/{page}: the docstring of {anchor} ({first!r}) is not rendered")
    top = (site / "thermomilp" / "index.html").read_text(encoding="utf-8")
    for name in ("load", "is_unique", "count_solutions", "enumerate_solutions", "build_model",
                 "Puzzle", "Settings", "SolveResult", "ThermomilpError"):
        assert f'id="thermomilp.{name}"' in top, f"reference/thermomilp: no entry for {name}"


# A reST role the Markdown of mkdocstrings printed as it is (``:func:`x``` shows as
# ":func:" before the code ``x``), and a cross-reference autorefs left as it was.
LITERAL_ROLE = re.compile(r":(?:func|class|meth|data|mod|attr|exc|obj|ref|const|py:\w+):`")
UNRESOLVED = re.compile(r"\[[^\[\]\n]+\]\[[A-Za-z_][\w.]*\]")


def _text_with_code_marked(html_text: str) -> str:
    """The page's text, its ``<pre>`` blocks dropped; an inline ``<code>`` (where a
    role's name and a reference's title land) becomes ` ` around a CODE placeholder,
    so that ``grid[r][c]`` in code is not a reference while ``[`x`][id]`` still is."""
    import html as html_module

    text = re.sub(r"(?s)<pre\b.*?</pre>", " ", html_text)
    text = re.sub(r"(?s)<code\b[^>]*>.*?</code>", "`CODE`", text)
    return html_module.unescape(re.sub(r"<[^>]+>", "", text))


def literal_roles(html_text: str) -> list[str]:
    text = _text_with_code_marked(html_text)
    return [m.group(0) for m in LITERAL_ROLE.finditer(text)] + \
        [m.group(0) for m in UNRESOLVED.finditer(text)]


def check_no_literal_roles(site: Path) -> None:
    found = [f"{page.relative_to(site)}: {hit}" for page in sorted(site.rglob("*.html"))
             for hit in literal_roles(page.read_text(encoding="utf-8"))]
    assert found == [], ("a docstring's reST role or an unresolved [title][identifier] is "
                         "printed as it is; write [`name`][thermomilp.module.name] for a name "
                         "of the reference, `name` otherwise:\n" + "\n".join(found))


def test_the_role_check_sees_roles_and_unresolved_references():
    assert literal_roles("<p>see :func:<code>solve</code> and :class:`Puzzle`</p>") == [
        ":func:`", ":class:`"]
    assert literal_roles("<p>[<code>solve</code>][thermomilp.solving.solve]</p>") == [
        "[`CODE`][thermomilp.solving.solve]"]
    assert literal_roles("<p>[solve][thermomilp.solve] left</p>") == ["[solve][thermomilp.solve]"]
    assert literal_roles('<p><a href="#x"><code>solve</code></a>, <code>grid[r][c]</code>, '
                         "x[0][1]</p><pre>:func:`a` [b][c]</pre>") == []


def test_no_docstring_uses_a_rest_role():
    """help() and the reference show the same text: cross-references are Markdown
    ([`name`][thermomilp.module.name]), never reST roles."""
    role = re.compile(r":(?:func|class|meth|data|mod|attr|exc|obj|ref):`[^`]*`")
    found = [f"{path.relative_to(ROOT)}:{n}: {m.group(0)}"
             for path in sorted((ROOT / "thermomilp").rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for m in role.finditer(line)]
    assert found == []


def test_the_entry_points_document_their_parameters():
    """``help(thermomilp.solve)`` and the others list every parameter of their signature
    (Google style, as the reference renders it), their result, and no private name."""
    import inspect

    import thermomilp

    for obj in (thermomilp.solve, thermomilp.load, thermomilp.build_model,
                thermomilp.count_solutions, thermomilp.Settings):
        doc = inspect.getdoc(obj) or ""
        name = obj.__name__
        assert re.search(r"^Args:$", doc, re.M), f"{name}: no Args: section"
        assert re.search(r"^Raises:$", doc, re.M), f"{name}: no Raises: section"
        if inspect.isfunction(obj):
            assert re.search(r"^Returns:$", doc, re.M), f"{name}: no Returns: section"
        for param in inspect.signature(obj).parameters.values():
            shown = ("**" if param.kind is param.VAR_KEYWORD else
                     "*" if param.kind is param.VAR_POSITIONAL else "") + param.name
            assert re.search(rf"^    {re.escape(shown)}( \([^)]*\))?: ", doc, re.M), (
                f"{name}: parameter {shown} is not documented")
        private = re.findall(r"(?<![\w.])_[A-Za-z]\w*", doc)
        assert private == [], f"{name} names private {private}"


def test_the_journal_is_development_not_reference():
    yaml = pytest.importorskip("yaml")
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    sections = {k: v for item in nav if isinstance(item, dict) for k, v in item.items()}

    def pages(entry) -> list[str]:
        if isinstance(entry, str):
            return [entry]
        if isinstance(entry, list):
            return [p for e in entry for p in pages(e)]
        return [p for v in entry.values() for p in pages(v)]

    assert JOURNAL in pages(sections["Development"])
    assert JOURNAL not in pages(sections["Reference"])
    assert [p for p in pages(nav) if p.startswith("reference/")] == \
        [p for p in pages(sections["Reference"]) if p.startswith("reference/")]


def test_the_api_reference_is_generated_offline():
    """mkdocstrings reads the source (no import of solvers) and fetches no inventory."""
    config = re.sub(r"(?m)^\s*#.*$", "", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert "mkdocstrings:" in config and "reference/thermomilp.md" in config
    assert "inventories" not in config and "import:" not in config
    for page in (DOCS / "reference").glob("*.md"):
        assert "::: " in page.read_text(encoding="utf-8") or page.name == "index.md"


def test_every_page_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    missing = [page_id(p) for p in ALL_PAGES if page_id(p) not in nav]
    assert missing == [], "add these pages to the nav of mkdocs.yml"


def test_teaching_pages_have_their_examples_tested():
    kit = ["index.md", "tutorial.md", "formulation.md", "aquarium-model.md", "uniqueness.md",
           "lp-relaxation.md", "infeasibility.md", "models.md", "analysis.md", "cli.md",
           "formats.md", "course/exercise.md", "course/instructor.md", "course/grader.md"]
    assert [k for k in kit if (DOCS / k).is_file() and DOCS / k not in PAGES] == []
    assert all((DOCS / k).is_file() for k in kit)
    assert README in PAGES  # the first page a user reads: its Quickstart's output too


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p, "python")], ids=page_id)
def test_python_examples_run(page, scratch):
    """Each block runs; where the page shows what it prints, it prints exactly that."""
    namespace: dict = {"__name__": "__docs__"}
    for k, (code, shown, varies) in enumerate(python_with_output(page)):
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                exec(compile(code, f"{page_id(page)}[python block {k}]", "exec"), namespace)
        except SolverUnavailable as exc:  # an example of an optional engine, not installed
            reason = f"{page_id(page)} python block {k} needs an engine not installed: {exc}"
            if require_all_solvers():
                pytest.fail(f"THERMOMILP_REQUIRE_ALL_SOLVERS=1 but {reason}")
            pytest.skip(reason)
        except Exception as exc:  # name the block that failed
            raise AssertionError(
                f"{page_id(page)} python block {k} failed: {exc!r}\n{code}") from exc
        if shown is not None and varies is None:
            assert normalise(printed.getvalue(), scratch) == normalise(shown, scratch), (
                f"{page_id(page)} python block {k} printed\n{printed.getvalue()}\n"
                f"but the page shows\n{shown}")


def test_the_output_of_a_python_block_is_the_block_after_it(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```python\nprint(1)\n```\n\n```\n1\n```\n\n```python\nx = 2\n```\n"
                    "Prose.\n\n```text\nnot output\n```\n\n```python\nprint(0.5)\n```\n"
                    "<!-- output varies: a timing -->\n```text\n0.4\n```\n")
    assert python_with_output(page) == [("print(1)", "1\n", None), ("x = 2", None, None),
                                        ("print(0.5)", "0.4\n", "a timing")]
    assert normalise("solved in 0.004 s  \n", None) == normalise("solved in 1.5 s", None)


def need_engine_of(args: list[str]) -> None:
    """An example that names an engine (``--solver cbc``) runs where that pair is installed;
    elsewhere it skips with the reason (`helpers.use_pair`; CI fails instead). A pair the
    package refuses is the example's point: it runs."""
    from thermomilp.backends.matrix import KNOWN_PAIRS
    from thermomilp.core.errors import ConfigError
    from thermomilp.core.settings import settings_from

    given = {flag[2:]: value for flag, value in zip(args, args[1:], strict=False)
             if flag in ("--solver", "--backend")}
    try:
        chosen = settings_from(None, **given) if given else None
    except ConfigError:
        return
    if chosen is not None and (chosen.backend, chosen.solver) in KNOWN_PAIRS:
        use_pair(str(chosen.backend), str(chosen.solver))


def run_command(command: str) -> tuple[int, str]:
    from thermomilp.cli.main import main

    expected_exit = 0
    m = re.search(r"\s+#\s*exit\s+(\d+)\s*$", command)
    if m:
        expected_exit = int(m.group(1))
        command = command[:m.start()]
    args = shlex.split(command)
    if args[:1] == ["thermomilp"] or args[:3] == ["python", "-m", "thermomilp"]:
        need_engine_of(args)
        rest = args[1:] if args[0] == "thermomilp" else args[3:]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(rest)
        return code - expected_exit, out.getvalue()
    if args[0] == "pip":
        return 0, ""
    if args[0] not in ("python", "glpsol"):
        raise AssertionError(f"`{command}`: examples may run thermomilp, python or glpsol only")
    program = sys.executable if args[0] == "python" else shutil.which(args[0])
    if program is None:
        pytest.skip(f"{args[0]} is not installed")
    run = subprocess.run([program] + args[1:], capture_output=True, text=True, timeout=300)
    return run.returncode - expected_exit, run.stdout


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p, "console", "sh")], ids=page_id)
def test_command_examples_run(page, scratch):
    for block in blocks(page, "sh"):
        for line in block.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                status, _ = run_command(line.strip())
                assert status == 0, f"{page_id(page)}: `{line}` exited with another code"
    for block in blocks(page, "console"):
        command, shown = None, []
        for line in block.splitlines() + ["$ "]:
            if line.startswith("$ "):
                if command:
                    status, printed = run_command(command)
                    assert status == 0, f"{page_id(page)}: `{command}` exited with another code"
                    printed_lines = [TIMING.sub("<time>", p.rstrip()) for p in printed.splitlines()]
                    at = 0
                    for want in shown:
                        if want.strip():
                            want = TIMING.sub("<time>", want.rstrip())
                            assert want in printed_lines[at:], (
                                f"{page_id(page)}: `{command}` did not print {want!r} "
                                f"(after the lines shown before it); it printed:\n{printed}")
                            at = printed_lines.index(want, at) + 1
                command, shown = line[2:].strip(), []
            else:
                shown.append(line)


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p, "puzzle", "json")], ids=page_id)
def test_puzzle_examples_load(page):
    from thermomilp.formats import loads

    puzzles = [b for b in blocks(page, "json") if b.lstrip().startswith('{"puzzle"')]
    for block in blocks(page, "puzzle") + puzzles:
        for doc in (block.split("\n\n") if block.lstrip().startswith("{") else [block]):
            if doc.strip():
                loads(doc)


def _table_cells(row: str) -> int:
    """Cells of a Markdown table row as the tables extension splits it: on every ``|``
    that is not escaped and not inside a code span (``$...$`` math does NOT protect it)."""
    cells, in_code, escaped = 1, False, False
    body = row.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    for ch in body:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "`":
            in_code = not in_code
        elif ch == "|" and not in_code:
            cells += 1
    return cells


def _tables(text: str):
    """(line number, header, rows) of every pipe table outside fenced code."""
    lines = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text).splitlines()
    k = 0
    while k + 1 < len(lines):
        if (lines[k].lstrip().startswith("|")
                and re.fullmatch(r"\s*\|?[\s:|-]+\|?\s*", lines[k + 1])
                and "-" in lines[k + 1]):
            start, header, body = k + 1, lines[k], []
            k += 2
            while k < len(lines) and lines[k].lstrip().startswith("|"):
                body.append((k + 1, lines[k]))
                k += 1
            yield start, header, body
        else:
            k += 1


@pytest.mark.parametrize("page", ALL_PAGES, ids=page_id)
def test_table_rows_have_as_many_cells_as_their_header(page):
    bad = []
    for _start, header, body in _tables(page.read_text(encoding="utf-8")):
        want = _table_cells(header)
        bad += [f"{page_id(page)}:{n}: {_table_cells(row)} cells, header has {want}: {row}"
                for n, row in body if _table_cells(row) != want]
    assert bad == [], "a | inside $...$ splits a table cell; write \\lvert ... \\rvert"


def test_the_table_check_sees_a_bar_inside_math():
    assert _table_cells("| constraints | clues $+ |A|$ | x |") == 5
    assert _table_cells("| constraints | clues $+ \\lvert A\\rvert$ | `a|b` |") == 3


@pytest.mark.parametrize("page", [p for p in PAGES if p.parent.name == "course"], ids=page_id)
def test_course_code_blocks_run_alone(page, scratch):
    """A student copies one block at a time: each runs in a fresh namespace."""
    for k, code in enumerate(blocks(page, "python")):
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(code, f"{page_id(page)}[python block {k}]", "exec"),
                     {"__name__": "__docs__"})
        except Exception as exc:
            raise AssertionError(f"{page_id(page)} python block {k} fails alone: {exc!r}") from exc


def test_api_md_names_the_real_parameters():
    """docs/api.md's table called ``thermometers``' third parameter ``paths``: every
    ``name(a, b, c=...)`` row names the function's own positional parameters."""
    import inspect

    import thermomilp

    rows = re.findall(r"^\| `(\w+)\(([^`)]*)\)`", (DOCS / "api.md").read_text(), re.M)
    checked = 0
    for name, args in rows:
        function = getattr(thermomilp, name, None)
        if not callable(function) or not args.strip():
            continue
        params = inspect.signature(function).parameters
        for arg in (a.split("=")[0].strip() for a in args.split(",")):
            if arg and not arg.startswith("*") and arg != "...":
                assert arg in params, f"docs/api.md: {name}({args}) -- no parameter {arg!r}"
        checked += 1
    assert checked >= 2
