"""End to end: the page in a real headless Chromium, driven by Selenium.

Needs Debian's ``chromium`` and ``chromium-driver`` and the ``selenium``
package (extra ``web-test``). Without them the tests skip with the reason --
unless ``THERMOMILP_REQUIRE_BROWSER=1`` (set by ``.ci/run``), where a missing
browser is a failure. A screenshot of each run is written to
``$THERMOMILP_SCREENSHOTS`` (default: pytest's temporary folder).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from thermomilp.core.verify import solution_problems
from thermomilp.formats import json_format
from thermomilp.web.server import serve_in_thread

from helpers import ROOT

RULES = {"bookkeeping", "one line's count", "chained counts", "probe", "pair probe", "reveal",
         "mistake", "subset-sum", "gravity"}
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1400,900")


def _browser_missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[web-test]')"
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        return "no chromium browser (apt-get install chromium chromium-driver)"
    if not shutil.which("chromedriver"):
        return "no chromedriver (apt-get install chromium-driver)"
    return None


@pytest.fixture(scope="module")
def browser():
    missing = _browser_missing()
    if missing:
        if os.environ.get("THERMOMILP_REQUIRE_BROWSER") == "1":
            pytest.fail(f"THERMOMILP_REQUIRE_BROWSER=1 but {missing}")
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="thermomilp-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def site():
    server, thread, base = serve_in_thread()
    yield base
    server.shutdown()
    server.server_close()
    thread.join(5)


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("THERMOMILP_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def wait(driver, predicate, seconds: float = 30):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds).until(lambda d: predicate(d))


def by_id(driver, ident: str):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, ident)


def cells(driver):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, "#board rect.cell")


def board_state(driver, height: int, width: int) -> list[str]:
    rows = [["?"] * width for _ in range(height)]
    for cell in cells(driver):
        rows[int(cell.get_attribute("data-r"))][int(cell.get_attribute("data-c"))] = \
            cell.get_attribute("data-state")
    return ["".join(r) for r in rows]


def current_puzzle(driver):
    data = driver.execute_script("return JSON.stringify(state.board.puzzle)")
    return json_format.read(data)


def idle(driver) -> bool:
    return not driver.execute_script("return state.busy")


def press(driver, ident: str) -> None:
    wait(driver, idle)
    by_id(driver, ident).click()
    wait(driver, idle)


def play(driver, puzzle_name: str, shots: Path) -> None:
    """Click cells, Hint (a rule name shows), Apply, Check, Model, Solve (the solved board
    shows)."""
    puzzle = current_puzzle(driver)
    h, w = puzzle.height, puzzle.width
    assert board_state(driver, h, w) == ["?" * w] * h
    # Clicking cycles unknown -> filled -> empty -> unknown.
    cells(driver)[0].click()
    assert board_state(driver, h, w)[0][0] == "#"
    cells(driver)[1].click()
    cells(driver)[1].click()
    assert board_state(driver, h, w)[0][1] == "."
    cells(driver)[2].click()
    cells(driver)[2].click()
    cells(driver)[2].click()
    assert board_state(driver, h, w)[0][2] == "?"
    # The clue counters react: row 0 now has one filled cell.
    clue = driver.execute_script(
        "return document.querySelector('#board text[data-line=row][data-index=\"0\"]')"
        ".getAttribute('class')")
    assert clue.startswith("clue")

    press(driver, "hint")
    wait(driver, lambda d: by_id(d, "rule").text)
    rule = by_id(driver, "rule").text.removeprefix("Rule: ")
    assert rule in RULES, rule
    assert by_id(driver, "message").text
    driver.save_screenshot(str(shots / f"{puzzle_name}-hint.png"))

    # From a clear board a hint always decides cells; Apply hint marks them.
    by_id(driver, "reset").click()
    press(driver, "hint")
    hint = driver.execute_script("return state.hint")
    assert hint and hint["cells"] and hint["rule"] in RULES
    press(driver, "apply")
    marked = board_state(driver, h, w)
    assert all(marked[r][c] == v for (r, c), v in zip(hint["cells"], hint["values"], strict=True))
    assert by_id(driver, "apply").get_attribute("disabled")

    press(driver, "check")
    assert by_id(driver, "message").text

    press(driver, "model")
    wait(driver, lambda d: "Subject To" in by_id(d, "model-text").text)
    formats = [o.get_attribute("value") for o in
               by_id(driver, "model-format").find_elements("css selector", "option")]
    if "mps" in formats:  # the teaching exports are installed: switch format
        from selenium.webdriver.support.ui import Select

        Select(by_id(driver, "model-format")).select_by_value("mps")
        wait(driver, lambda d: "ROWS" in by_id(d, "model-text").text)

    press(driver, "solve")
    wait(driver, lambda d: by_id(d, "solve-status").text)
    status = by_id(driver, "solve-status").text
    assert status in ("unique", "multiple"), status
    grid = board_state(driver, h, w)
    assert "?" not in "".join(grid)
    assert solution_problems(puzzle, grid) == [], grid  # the page shows a real solution
    driver.save_screenshot(str(shots / f"{puzzle_name}-solved.png"))


def test_the_page_opens_on_a_playable_board(browser, site):
    browser.get(site + "/")
    wait(browser, lambda d: len(cells(d)) > 0)
    wait(browser, idle)
    assert not by_id(browser, "hint").get_attribute("disabled")
    assert by_id(browser, "title").text != "No board yet"


def test_thermometers_in_the_browser(browser, site, shots):
    from selenium.webdriver.support.ui import Select

    browser.get(site + "/")
    wait(browser, lambda d: d.execute_script(
        "return document.querySelectorAll('#instance option').length") > 0)
    Select(by_id(browser, "instance")).select_by_value("thermometers/t03_6x6.txt")
    press(browser, "load")
    wait(browser, lambda d: len(cells(d)) == 36)
    assert "t03_6x6" in by_id(browser, "title").text
    play(browser, "thermometers", shots)


def test_aquarium_in_the_browser(browser, site, shots):
    from selenium.webdriver.support.ui import Select

    browser.get(site + "/")
    wait(browser, lambda d: d.execute_script(
        "return document.querySelectorAll('#instance option').length") > 0)
    Select(by_id(browser, "new-kind")).select_by_value("aquarium")
    size = by_id(browser, "new-size")
    size.clear()
    size.send_keys("5")
    press(browser, "new")
    wait(browser, lambda d: len(cells(d)) == 25)
    assert "aquarium" in by_id(browser, "title").text
    play(browser, "aquarium", shots)


def open_instance(driver, prefix: str) -> None:
    """Load the first bundled instance whose id starts with ``prefix`` (the page is open)."""
    from selenium.webdriver.support.ui import Select

    wait(driver, lambda d: d.execute_script(
        "return document.querySelectorAll('#instance option').length") > 0)
    ids = [o.get_attribute("value") for o in
           by_id(driver, "instance").find_elements("css selector", "option")]
    chosen = [i for i in ids if i.startswith(prefix)]
    if not chosen:
        pytest.skip(f"no bundled instance {prefix}* in this build")
    Select(by_id(driver, "instance")).select_by_value(chosen[0])
    press(driver, "load")
    wait(driver, lambda d: prefix.split("/")[0] in by_id(d, "title").text)


def click_cell(driver, cell, times: int = 1) -> None:
    for _ in range(times):  # each click redraws the board: find the cell again
        next(e for e in cells(driver)
             if (int(e.get_attribute("data-r")), int(e.get_attribute("data-c"))) == cell).click()


def ask_hint(driver) -> tuple[str, dict]:
    press(driver, "hint")
    wait(driver, lambda d: by_id(d, "rule").text)
    return by_id(driver, "rule").text.removeprefix("Rule: "), \
        driver.execute_script("return state.hint || null") or {}


def wrong_highlights(driver) -> set[tuple[int, int]]:
    """Cells drawn with the mistake highlight (a rect.mark-wrong over the cell)."""
    from selenium.webdriver.common.by import By

    found = set()
    for rect in driver.find_elements(By.CSS_SELECTOR, "#board rect.mark-wrong"):
        x, y = float(rect.get_attribute("x")), float(rect.get_attribute("y"))
        found.add((round((y - 30 - 2) / 44), round((x - 34 - 2) / 44)))
    return found


def test_a_wrong_mark_is_named_before_any_deduction(browser, site, shots):
    browser.get(site + "/")
    open_instance(browser, "thermometers/t03_6x6")
    puzzle = current_puzzle(browser)
    assert puzzle.rows[3] == 0
    click_cell(browser, (3, 0))  # filled, in a row whose clue is 0
    rule, hint = ask_hint(browser)
    assert rule == "mistake"
    assert "(4,1) is filled but row 4's clue is 0" in by_id(browser, "message").text
    assert hint == {}  # nothing to apply: no deduction from a wrong mark
    assert by_id(browser, "apply").get_attribute("disabled")
    assert wrong_highlights(browser) == {(3, 0)}
    browser.save_screenshot(str(shots / "mistake-rule.png"))
    # a mark that breaks no rule yet but disagrees with the unique solution
    from thermomilp.logic.mistakes import line_mistake, vessel_mistake
    from thermomilp.logic.search import search_solutions

    (solution,) = list(search_solutions(puzzle, "probing", 2))
    click_cell(browser, (3, 0), 2)  # back to unknown
    cell = next((r, c) for r in range(6) for c in range(6) if solution[r][c] == "#"
                and not (vessel_mistake(puzzle, {(r, c): 0}) or line_mistake(puzzle, {(r, c): 0})))
    click_cell(browser, cell, 2)  # empty
    rule, hint = ask_hint(browser)
    assert rule == "mistake"
    assert f"({cell[0] + 1},{cell[1] + 1}) is marked empty but the solution fills it" in \
        by_id(browser, "message").text
    assert wrong_highlights(browser) == {cell}


def test_gravity_hint_on_a_bundled_aquarium(browser, site, shots):
    from thermomilp.logic.search import search_solutions

    browser.get(site + "/")
    open_instance(browser, "aquarium/")
    puzzle = current_puzzle(browser)
    (solution,) = list(search_solutions(puzzle, "probing", 2))
    # Water in the top row of a tank the solution fills to the top: gravity fills the rows below.
    tank = next(v for v in puzzle.vessels if v.depth >= 2
                and all(solution[r][c] == "#" for r, c in v.cells))
    r, c = tank.layers[-1][0]
    click_cell(browser, (r, c))
    rule, hint = ask_hint(browser)
    assert rule == "gravity", rule
    assert all(v == "#" for v in hint["values"])
    below = {cell for layer in tank.layers[:-1] for cell in layer}
    assert {tuple(x) for x in hint["cells"]} == below | set(tank.layers[-1]) - {(r, c)}
    browser.save_screenshot(str(shots / "aquarium-gravity.png"))
    # The gravity hint does not trust the marks: water where the solution has air is named.
    click_cell(browser, (r, c), 2)  # back to unknown
    dry = next(v for v in puzzle.vessels if v.depth >= 2
               and all(solution[r][c] == "." for r, c in v.cells))
    wet = dry.layers[-1][0]
    click_cell(browser, wet)
    rule, hint = ask_hint(browser)
    assert rule == "mistake", rule
    assert f"({wet[0] + 1},{wet[1] + 1}) is marked filled but the solution leaves it empty" in \
        by_id(browser, "message").text
    assert wrong_highlights(browser) == {wet}


def test_a_bad_upload_shows_an_error_and_the_page_keeps_working(browser, site, tmp_path):
    browser.get(site + "/")
    wait(browser, lambda d: d.execute_script(
        "return document.querySelectorAll('#instance option').length") > 0)
    garbage = tmp_path / "garbage.txt"
    garbage.write_bytes(b"not a puzzle at all\n\x01\x02")
    by_id(browser, "upload").send_keys(str(garbage))
    wait(browser, lambda d: "error" in by_id(d, "message").get_attribute("class"))
    assert "unrecognised" in by_id(browser, "message").text
    big = tmp_path / "big.txt"
    big.write_bytes(b"thermometers 4x4\n" + b"x" * (300 * 1024))
    by_id(browser, "upload").send_keys(str(big))
    wait(browser, lambda d: "KB" in by_id(d, "message").text)
    assert "the limit is 256 KB" in by_id(browser, "message").text
    good = tmp_path / "mine.json"
    text = ROOT / "instances" / "thermometers" / "t01_4x4.txt"
    from thermomilp.formats import load

    nameless = json_format.to_dict(load(text))
    nameless.pop("name", None)  # a board without a name of its own: titled by its file
    good.write_text(json.dumps(nameless))
    by_id(browser, "upload").send_keys(str(good))
    wait(browser, lambda d: "mine.json" in by_id(d, "message").text)
    assert len(cells(browser)) == 16
    assert by_id(browser, "title").text.startswith("mine — thermometers 4×4")  # not "untitled"


def test_the_file_picker_takes_every_format_solve_reads(browser, site, tmp_path):
    """The picker's accept list is the readers' table; a puzz.link .url file uploads and
    keeps its name as the title."""
    from thermomilp.formats import FORMATS

    browser.get(site + "/")
    wait(browser, lambda d: by_id(d, "upload").get_attribute("accept"))
    wait(browser, lambda d: len(cells(d)) > 0)
    wait(browser, idle)
    accept = set(by_id(browser, "upload").get_attribute("accept").split(","))
    assert accept == {suffix for fmt in FORMATS.values() for suffix in fmt.suffixes}
    assert {".url", ".pzpr", ".json", ".txt"} <= accept
    link = tmp_path / "pool board.url"
    link.write_text("https://puzz.link/p?aquarium/4/3/3c80/0022022\n")
    by_id(browser, "upload").send_keys(str(link))
    wait(browser, lambda d: "pool board.url" in by_id(d, "message").text)
    assert by_id(browser, "title").text.startswith("pool board — aquarium 3×4")
    assert len(cells(browser)) == 12


SCREENS = [(390, 844), (768, 1024), (1280, 800)]


def layout(driver) -> dict:
    """Where things are, in CSS pixels of the viewport."""
    return driver.execute_script("""
        const box = (el) => { const r = el.getBoundingClientRect();
            return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                    width: r.width}; };
        const panel = document.getElementById('model-panel');
        return {inner: window.innerWidth,
                scroll: document.documentElement.scrollWidth,
                board: box(document.querySelector('#board svg')),
                controls: box(document.querySelector('section.controls')),
                buttons: Array.from(document.querySelectorAll('.actions button')).map(box),
                panel: panel.hidden ? null : box(panel)};
    """)


@pytest.mark.parametrize("width, height", SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_the_page_fits_the_screen(browser, site, shots, width, height):
    """A 15x15 board on a phone, a tablet and a laptop: no sideways page scroll, the whole
    board inside the viewport's width, the action buttons too; on a narrow screen the
    board comes before the controls; the Model panel stays inside the page."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    try:
        browser.get(site + "/")
        assert browser.execute_script("return window.innerWidth") == width
        open_instance(browser, "thermometers/generated/g12_15x15")
        wait(browser, lambda d: len(cells(d)) == 225)
        wait(browser, idle)
        seen = layout(browser)
        assert seen["scroll"] <= seen["inner"], seen
        board = seen["board"]
        assert board["left"] >= 0 and board["right"] <= seen["inner"], seen
        assert board["width"] > 0.7 * min(width, 702) - 40, seen  # scaled, not shrunk away
        assert all(0 <= b["left"] and b["right"] <= seen["inner"] for b in seen["buttons"])
        if width < 900:  # one column: the board first, the controls follow it
            assert board["bottom"] <= seen["controls"]["top"], seen
        browser.save_screenshot(str(shots / f"page-{width}x{height}.png"))
        # a click still lands on its cell at the scaled size
        click_cell(browser, (7, 7))
        assert board_state(browser, 15, 15)[7][7] == "#"
        # the Model panel: long algebra and LP lines scroll inside it, not the page
        press(browser, "model")
        wait(browser, lambda d: "Subject To" in by_id(d, "model-text").text)
        seen = layout(browser)
        assert seen["scroll"] <= seen["inner"], seen
        assert seen["panel"]["left"] >= 0 and seen["panel"]["right"] <= seen["inner"], seen
        browser.execute_script("document.getElementById('model-panel').scrollIntoView()")
        browser.save_screenshot(str(shots / f"model-{width}x{height}.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_15x15_aquarium_fits_a_phone(browser, site, shots):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(site + "/")
        open_instance(browser, "aquarium/a06_15x15")
        wait(browser, lambda d: len(cells(d)) == 225)
        seen = layout(browser)
        assert seen["scroll"] <= seen["inner"]
        assert seen["board"]["left"] >= 0 and seen["board"]["right"] <= seen["inner"]
        browser.save_screenshot(str(shots / "aquarium-390x844.png"))
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_page_teaches_the_model(browser, site, shots):
    """Model: algebra typeset offline, a clicked cell's rows lit, the LP relaxation shaded."""
    from selenium.webdriver.common.by import By

    from thermomilp.web.modelview import model_rows

    browser.get(site + "/")
    open_instance(browser, "thermometers/t02_5x5")
    puzzle = current_puzzle(browser)
    # every thermometer carries the label the hints use
    labels = browser.execute_script(
        "return Array.from(document.querySelectorAll('#board text.vessel-label'))"
        ".map(t => t.textContent)")
    assert labels == [v.label for v in puzzle.vessels]
    press(browser, "model")
    wait(browser, lambda d: "Subject To" in by_id(d, "model-text").text)
    text = by_id(browser, "model-text").text
    assert "__dummy" not in text
    # the algebra is typeset by the browser (MathML), with nothing fetched from elsewhere
    maths = browser.find_elements(By.CSS_SELECTOR, "#algebra > .eq > math")  # (4) is Aquarium's
    assert len(maths) == 4 and all(m.size["width"] > 0 and m.size["height"] > 0 for m in maths)
    scripts = browser.execute_script(
        "return Array.from(document.scripts).map(s => s.src)")
    assert all(src.startswith(site) for src in scripts), scripts
    # clicking a cell lights exactly its rows: row, column, precedence arcs
    rows = model_rows(puzzle)
    for cell in ((0, 0), (2, 3)):
        click_cell(browser, cell)
        want = {row["name"] for row in rows
                if any(tuple(t["cell"]) == cell for t in row["terms"])}
        lit = {line.split(":")[0] for line in browser.execute_script(
            "return Array.from(document.querySelectorAll('#model-text span.hl'))"
            ".map(s => s.textContent)")}
        assert lit == want and any(n.startswith("prec_") for n in want | {"prec_"})
        typeset = browser.execute_script(
            "return Array.from(document.querySelectorAll('#cell-rows math'))"
            ".map(m => m.getAttribute('data-row'))")
        assert set(typeset) == want
        # the page names the cell counted from 1, beside the model's 0-based variable
        r, c = cell
        assert (f"Cell ({r + 1},{c + 1}) is the variable x_{r}_{c} (the model numbers rows "
                "and columns from 0)") in by_id(browser, "cell-rows").text
        assert all(m.size["height"] > 0
                   for m in browser.find_elements(By.CSS_SELECTOR, "#cell-rows math"))
    browser.save_screenshot(str(shots / "model-rows.png"))
    # the LP relaxation on the board: one shaded rect per cell, fractional ones marked
    by_id(browser, "lp-toggle").click()
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board rect.lp")) == 25)
    wait(browser, idle)
    values = [[0.0] * 5 for _ in range(5)]
    for rect in browser.find_elements(By.CSS_SELECTOR, "#board rect.lp"):
        r, c = int(rect.get_attribute("data-r")), int(rect.get_attribute("data-c"))
        values[r][c] = v = float(rect.get_attribute("data-lp"))
        assert ("lp-frac" in rect.get_attribute("class")) == (0 < v < 1)
    assert any(0 < v < 1 for row in values for v in row)  # this board's LP is fractional
    for row in rows:  # the values shown satisfy every row of the relaxation
        lhs = sum(t["coef"] * values[t["cell"][0]][t["cell"][1]] for t in row["terms"])
        assert (abs(lhs - row["rhs"]) < 1e-6 if row["sense"] == "=" else lhs <= 1e-6), row
    assert "fractional" in by_id(browser, "message").text
    browser.save_screenshot(str(shots / "lp-relaxation.png"))
    by_id(browser, "lp-toggle").click()
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "#board rect.lp"))


class screen:
    """The page at ``width`` x ``height`` CSS pixels (a phone below 600 px)."""

    def __init__(self, driver, width: int, height: int):
        self.driver, self.width, self.height = driver, width, height

    def __enter__(self):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": self.width, "height": self.height, "deviceScaleFactor": 1,
            "mobile": self.width < 600})
        return self.driver

    def __exit__(self, *exc):
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_hint_check_and_solve_are_in_reach_at_1280x800(browser, site, shots):
    """A 15x15 board on a laptop: Hint, Check and Solve sit inside the window as the page
    opens, no scrolling -- and stay there after a hint has written its message."""
    with screen(browser, 1280, 800):
        browser.get(site + "/")
        open_instance(browser, "thermometers/generated/g12_15x15")
        wait(browser, lambda d: len(cells(d)) == 225)
        wait(browser, idle)
        for when in ("loaded", "after a hint"):
            seen = browser.execute_script("""
                return {inner: window.innerHeight, scrolled: window.scrollY,
                        buttons: ['hint', 'check', 'solve'].map((id) => {
                            const r = document.getElementById(id).getBoundingClientRect();
                            return {id, top: r.top, bottom: r.bottom}; })};""")
            assert seen["scrolled"] == 0, seen
            for button in seen["buttons"]:
                assert 0 <= button["top"] and button["bottom"] <= seen["inner"], (when, seen)
            if when == "loaded":
                press(browser, "hint")
                wait(browser, lambda d: by_id(d, "rule").text)
        browser.save_screenshot(str(shots / "actions-1280x800.png"))


def test_bulb_numbers_stay_readable_after_solve(browser, site, shots):
    """After Solve the empty thermometers carry a ✕ in every cell; the number in the bulb
    is not drawn over: no ✕ touches a label, and the label is what is at its centre."""
    browser.get(site + "/")
    open_instance(browser, "thermometers/t03_6x6")
    press(browser, "solve")
    wait(browser, lambda d: by_id(d, "solve-status").text)
    empty_bulbs = browser.execute_script(
        "return state.board.vessels.filter((v) => { const [r, c] = v.layers[0][0];"
        " return state.marks[r][c] === '.'; }).length")
    assert empty_bulbs > 0  # the case that matters: a ✕ in a numbered cell
    found = browser.execute_script("""
        const box = (e) => e.getBoundingClientRect();
        const meets = (a, b) => a.left < b.right && b.left < a.right
                                && a.top < b.bottom && b.top < a.bottom;
        const crosses = Array.from(document.querySelectorAll('#board line.cross')).map(box);
        const style = document.createElement('style');
        style.textContent = '#board .hit { pointer-events: none !important; }'
            + ' #board .vessel-label { pointer-events: auto !important; }';
        document.head.appendChild(style);
        const out = Array.from(document.querySelectorAll('#board text.vessel-label')).map((t) => {
            const b = box(t);
            const at = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
            return {label: t.textContent, covered: crosses.filter((c) => meets(b, c)).length,
                    top: at === t || t.contains(at)};
        });
        style.remove();
        return {labels: out, crosses: crosses.length};""")
    assert found["crosses"] > 0 and found["labels"], found
    for label in found["labels"]:
        assert label["covered"] == 0 and label["top"], found
    browser.save_screenshot(str(shots / "solved-labels.png"))


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)], ids=["1280x800", "390x844"])
def test_the_model_panel_never_clips(browser, site, shots, width, height):
    """The algebra, a clicked cell's long row (15 terms) and the model file all fit the
    Model panel's width: they wrap, nothing is cut off or left to a sideways scroll."""
    with screen(browser, width, height):
        browser.get(site + "/")
        open_instance(browser, "thermometers/generated/g12_15x15")
        wait(browser, lambda d: len(cells(d)) == 225)
        press(browser, "model")
        wait(browser, lambda d: "Subject To" in by_id(d, "model-text").text)
        click_cell(browser, (7, 7))
        wait(browser, lambda d: d.execute_script(
            "return document.querySelectorAll('#cell-rows math').length") > 15)
        seen = browser.execute_script("""
            const panel = document.getElementById('model-panel');
            const right = panel.getBoundingClientRect().right;
            const parts = [panel, ...panel.querySelectorAll(
                '#algebra, #cell-rows, #model-text, .eq, .math-row')];
            return {width: panel.clientWidth,
                    overflowing: parts.filter((e) => e.offsetParent !== null
                        && e.scrollWidth > e.clientWidth + 1)
                        .map((e) => [e.id || e.className, e.scrollWidth, e.clientWidth]),
                    outside: Array.from(panel.querySelectorAll('math'))
                        .filter((m) => m.getBoundingClientRect().width > 0
                                && m.getBoundingClientRect().right > right + 1).length};""")
        assert seen["overflowing"] == [] and seen["outside"] == 0, seen
        browser.execute_script("document.getElementById('model-panel').scrollIntoView()")
        browser.save_screenshot(str(shots / f"model-fits-{width}x{height}.png"))


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)], ids=["1280x800", "390x844"])
def test_the_page_does_not_say_left_or_right(browser, site, width, height):
    """On a phone the panels are below the board, on a laptop beside it: the page's words
    name them ("the Model panel", "the Bundled puzzle list") instead of a side."""
    import re

    side = re.compile(r"\b(left|right)\b", re.IGNORECASE)
    with screen(browser, width, height):
        browser.get(site + "/")
        wait(browser, lambda d: len(cells(d)) > 0)
        wait(browser, idle)
        said = [by_id(browser, "message").text]
        press(browser, "model")
        wait(browser, lambda d: "Subject To" in by_id(d, "model-text").text)
        said.append(by_id(browser, "message").text)
        said.append(browser.execute_script(
            "const copy = document.body.cloneNode(true);"
            "copy.querySelector('#model-text').remove(); return copy.innerText"))
        assert "Model panel" in said[1]
        assert not [text for text in said if side.search(text)], said
