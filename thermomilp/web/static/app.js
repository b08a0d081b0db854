// thermomilp serve: the page. No framework, no build step.
// State: the board the server sent (kind, clues, vessels by layer, the puzzle
// to send back) and the player's marks in the marks notation of
// thermomilp/core/notation.py: '#' filled, '.' empty, '?' undecided.
// Indices from the server are 0-based; every text shown counts from 1 (cellName).
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const CELL = 44;
const FILLED = "#", EMPTY = ".", UNDECIDED = "?";
const CYCLE = { [UNDECIDED]: FILLED, [FILLED]: EMPTY, [EMPTY]: UNDECIDED };

// A cell as a person reads it, counted from 1 (thermomilp.core.notation.cell_name).
function cellName([r, c]) {
  return `(${r + 1},${c + 1})`;
}
const RULES = {
  thermometers: "Fill some thermometers with mercury from the bulb up, without gaps. " +
    "The numbers say how many cells of each row and column are filled.",
  aquarium: "Fill some tanks with water. Water sits level: a tank row is all wet or all " +
    "dry, and a wet row has every lower row of its tank wet. The numbers count wet cells.",
};
// An Aquarium under the pool rule (puzz.link without the r flag).
const POOL_RULE = "Fill some tanks with water. Each connected body of water sits level: " +
  "water never rests beside or above air it could run into, but two arms of a tank joined " +
  "only higher up may stand at different heights. The numbers count wet cells.";

const state = { board: null, marks: null, highlight: null, hint: null, busy: false, limits: null,
  rows: null, selected: null, lp: null };
const MATHML_NS = "http://www.w3.org/1998/Math/MathML";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function say(text, kind = "") {
  const box = $("message");
  box.textContent = text;
  box.className = "message" + (kind ? " " + kind : "");
}

async function api(name, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch("/api/" + name, init);
  } catch (err) {
    throw new Error("the server does not answer (" + err.message + ")");
  }
  let data = null;
  try { data = await response.json(); } catch (err) { data = null; }
  if (!response.ok) {
    throw new Error((data && data.error) || ("HTTP " + response.status));
  }
  return data;
}

async function run(label, work) {
  if (state.busy) return;
  state.busy = true;
  document.body.style.cursor = "progress";
  say(label + " …");
  try {
    await work();
  } catch (err) {
    say(err.message, "error");
  } finally {
    state.busy = false;
    document.body.style.cursor = "";
  }
}

// ------------------------------------------------------------------ marks

function marksAsStrings() {
  return state.marks.map((row) => row.join(""));
}

function lineCount(cells) {
  let filled = 0, unknown = 0;
  for (const [r, c] of cells) {
    const m = state.marks[r][c];
    if (m === FILLED) filled++; else if (m === UNDECIDED) unknown++;
  }
  return { filled, unknown };
}

function clueClass(clue, cells) {
  if (clue === null) return "clue missing";
  const { filled, unknown } = lineCount(cells);
  if (filled > clue || filled + unknown < clue) return "clue bad";
  if (filled === clue) return "clue ok";
  return "clue";
}

// ------------------------------------------------------------------ drawing

function drawBoard(container, board, marks, highlight, interactive) {
  container.textContent = "";
  const H = board.height, W = board.width;
  const left = interactive ? 34 : 6, top = interactive ? 30 : 6;
  const svg = el("svg", {
    width: left + W * CELL + 8, height: top + H * CELL + 8,
    viewBox: `0 0 ${left + W * CELL + 8} ${top + H * CELL + 8}`,
    "data-kind": board.kind, role: "img",
  }, container);
  const x = (c) => left + c * CELL, y = (r) => top + r * CELL;
  const cx = (c) => x(c) + CELL / 2, cy = (r) => y(r) + CELL / 2;

  if (interactive) {
    board.rows.forEach((clue, r) => {
      const cells = Array.from({ length: W }, (_, c) => [r, c]);
      const t = el("text", { x: left / 2, y: cy(r), class: clueClass(clue, cells),
        "data-line": "row", "data-index": r }, svg);
      t.textContent = clue === null ? "?" : String(clue);
    });
    board.cols.forEach((clue, c) => {
      const cells = Array.from({ length: H }, (_, r) => [r, c]);
      const t = el("text", { x: cx(c), y: top / 2, class: clueClass(clue, cells),
        "data-line": "col", "data-index": c }, svg);
      t.textContent = clue === null ? "?" : String(clue);
    });
  }
  for (let r = 0; r < H; r++)
    for (let c = 0; c < W; c++)
      el("rect", { x: x(c), y: y(r), width: CELL, height: CELL, class: "gridline" }, svg);

  if (board.kind === "thermometers") drawThermometers(svg, board, marks, cx, cy);
  else drawAquarium(svg, board, marks, x, y);

  // An empty cell's ✕ sits in the middle of the cell -- except in a bulb, whose middle
  // holds the thermometer's number: there a smaller ✕ goes to the bottom-right corner.
  const bulbs = new Set(board.kind === "thermometers"
    ? board.vessels.map((v) => v.layers[0][0].join(",")) : []);
  for (let r = 0; r < H; r++)
    for (let c = 0; c < W; c++)
      if (marks[r][c] === EMPTY) {
        const corner = bulbs.has(`${r},${c}`);
        const d = CELL * (corner ? 0.08 : 0.14);
        const mx = corner ? x(c) + CELL * 0.82 : cx(c), my = corner ? y(r) + CELL * 0.82 : cy(r);
        el("line", { x1: mx - d, y1: my - d, x2: mx + d, y2: my + d, class: "cross" }, svg);
        el("line", { x1: mx - d, y1: my + d, x2: mx + d, y2: my - d, class: "cross" }, svg);
      }
  drawLabels(svg, board, marks, x, y, cx, cy);  // after the marks: the numbers stay readable

  if (highlight) {
    for (const [r, c] of highlight.reasons || [])
      el("rect", { x: x(c) + 4, y: y(r) + 4, width: CELL - 8, height: CELL - 8, class: "mark-reason" }, svg);
    for (const [r, c] of highlight.cells || [])
      el("rect", { x: x(c) + 2, y: y(r) + 2, width: CELL - 4, height: CELL - 4,
        class: highlight.kind === "wrong" ? "mark-wrong" : "mark-hint" }, svg);
  }
  if (interactive && state.lp) drawRelaxation(svg, state.lp, x, y);
  if (interactive && state.selected) {
    const [sr, sc] = state.selected;
    el("rect", { x: x(sc) + 1, y: y(sr) + 1, width: CELL - 2, height: CELL - 2, class: "selected" }, svg);
  }
  // Click targets last, so they are on top of everything drawn.
  for (let r = 0; r < H; r++)
    for (let c = 0; c < W; c++) {
      const hit = el("rect", { x: x(c), y: y(r), width: CELL, height: CELL,
        class: interactive ? "hit cell" : "hit", "data-r": r, "data-c": c,
        "data-state": marks[r][c] }, svg);
      if (interactive) hit.addEventListener("click", () => cycle(r, c));
    }
  return svg;
}

function drawThermometers(svg, board, marks, cx, cy) {
  for (const vessel of board.vessels) {
    const cells = vessel.layers.map((layer) => layer[0]);
    const points = cells.map(([r, c]) => `${cx(c)},${cy(r)}`).join(" ");
    el("polyline", { points, class: "glass", "stroke-width": CELL * 0.38 }, svg);
    const [br, bc] = cells[0];
    el("circle", { cx: cx(bc), cy: cy(br), r: CELL * 0.34, class: "bulb" }, svg);
    // Mercury: the bulb, the joins between filled neighbours, a dot in each filled cell.
    cells.forEach(([r, c], k) => {
      if (marks[r][c] !== FILLED) return;
      if (k === 0) el("circle", { cx: cx(c), cy: cy(r), r: CELL * 0.27, class: "mercury-bulb" }, svg);
      else el("circle", { cx: cx(c), cy: cy(r), r: CELL * 0.12, class: "mercury-dot" }, svg);
      if (k + 1 < cells.length) {
        const [r2, c2] = cells[k + 1];
        if (marks[r2][c2] === FILLED)
          el("line", { x1: cx(c), y1: cy(r), x2: cx(c2), y2: cy(r2), class: "mercury",
            "stroke-width": CELL * 0.24 }, svg);
      }
    });
  }
}

// Each vessel's label, the name the hints use ("thermometer 7", "tank B"): in a
// thermometer's bulb, in the top-left corner of a tank (as in the SVG export).
function drawLabels(svg, board, marks, x, y, cx, cy) {
  for (const vessel of board.vessels) {
    if (board.kind === "thermometers") {
      const [r, c] = vessel.layers[0][0];
      const t = el("text", { x: cx(c), y: cy(r) + 4, class: "vessel-label" +
        (marks[r][c] === FILLED ? " on-mercury" : "") }, svg);
      t.textContent = vessel.label;
    } else {
      const [r, c] = vessel.layers.flat().reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
      const t = el("text", { x: x(c) + 4, y: y(r) + 12, class: "vessel-label tank" }, svg);
      t.textContent = vessel.label;
    }
  }
}

function drawAquarium(svg, board, marks, x, y) {
  const H = board.height, W = board.width;
  const owner = Array.from({ length: H }, () => Array(W).fill(null));
  board.vessels.forEach((vessel, v) => {
    for (const layer of vessel.layers) for (const [r, c] of layer) owner[r][c] = v;
  });
  for (let r = 0; r < H; r++)
    for (let c = 0; c < W; c++)
      if (marks[r][c] === FILLED)
        el("rect", { x: x(c) + 1, y: y(r) + 1, width: CELL - 2, height: CELL - 2, class: "water" }, svg);
  for (let r = 0; r < H; r++)
    for (let c = 0; c < W; c++) {
      if (c + 1 < W && owner[r][c] !== owner[r][c + 1])
        el("line", { x1: x(c + 1), y1: y(r), x2: x(c + 1), y2: y(r + 1), class: "wall" }, svg);
      if (r + 1 < H && owner[r][c] !== owner[r + 1][c])
        el("line", { x1: x(c), y1: y(r + 1), x2: x(c + 1), y2: y(r + 1), class: "wall" }, svg);
    }
  el("rect", { x: x(0), y: y(0), width: W * CELL, height: H * CELL, class: "frame" }, svg);
}

// The LP relaxation at the vertex HiGHS returns: cells shaded by their value,
// fractional ones hatched and labelled.
function drawRelaxation(svg, lp, x, y) {
  lp.values.forEach((row, r) => row.forEach((v, c) => {
    const frac = v > 0 && v < 1;
    el("rect", { x: x(c) + 3, y: y(r) + 3, width: CELL - 6, height: CELL - 6,
      class: "lp" + (frac ? " lp-frac" : ""), "fill-opacity": (0.15 + 0.6 * v).toFixed(2),
      "data-r": r, "data-c": c, "data-lp": v }, svg);
    if (frac) {
      const t = el("text", { x: x(c) + CELL / 2, y: y(r) + CELL - 6, class: "lp-value" }, svg);
      t.textContent = v.toFixed(2).replace(/^0/, "");
    }
  }));
}

// ------------------------------------------------------------------ teaching the model

function mathEl(tag, text, parent) {
  const node = document.createElementNS(MATHML_NS, tag);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function mathVar(r, c, parent) {
  const sub = mathEl("msub", undefined, parent);
  mathEl("mi", "x", sub);
  const idx = mathEl("mrow", undefined, sub);
  mathEl("mn", String(r), idx);
  mathEl("mo", ",", idx);
  mathEl("mn", String(c), idx);
}

// One row of the model typeset as MathML: name: x_{r,c} + ... (=|≤) rhs. Each term is
// its own small <math>, so a long row (15 terms) wraps between terms inside a narrow
// panel instead of running out of it (MathML itself does not break lines).
function mathRow(row, cell) {
  const line = document.createElement("div");
  line.className = "math-row";
  line.setAttribute("data-row", row.name);
  const piece = () => {
    const math = document.createElementNS(MATHML_NS, "math");
    math.setAttribute("data-row", row.name);
    line.appendChild(math);
    line.appendChild(document.createTextNode(" "));
    return mathEl("mrow", undefined, math);
  };
  const name = document.createElement("span");
  name.className = "row-name";
  name.textContent = row.name + ":";
  line.appendChild(name);
  line.appendChild(document.createTextNode(" "));
  row.terms.forEach((term, k) => {
    const body = piece();
    if (k > 0 || term.coef < 0) mathEl("mo", term.coef < 0 ? "\u2212" : "+", body);
    const [r, c] = term.cell;
    if (cell && r === cell[0] && c === cell[1]) {
      const style = mathEl("mstyle", undefined, body);
      style.setAttribute("mathcolor", "#c2410c");
      mathVar(r, c, style);
    } else {
      mathVar(r, c, body);
    }
  });
  const tail = piece();
  mathEl("mo", row.sense === "<=" ? "\u2264" : "=", tail);
  mathEl("mn", String(row.rhs), tail);
  return line;
}

function rowsOf(cell) {
  if (!state.rows || !cell) return [];
  return state.rows.filter((row) => row.terms.some((t) => t.cell[0] === cell[0] && t.cell[1] === cell[1]));
}

const ROW_NAME = /\b(?:row|col|prec|tie)_[0-9_]*[0-9]\b/g;

function showModelText(text) {
  const pre = $("model-text");
  pre.textContent = "";
  for (const line of text.split("\n")) {
    const span = document.createElement("span");
    span.className = "lp-line";
    span.textContent = line + "\n";
    const names = line.match(ROW_NAME);
    if (names) span.dataset.rows = names.join(" ");
    pre.appendChild(span);
  }
}

// The clicked cell's rows: lit in the model text and typeset below the algebra.
function showCellRows() {
  const box = $("cell-rows");
  box.textContent = "";
  const cell = state.selected;
  const rows = rowsOf(cell);
  const names = new Set(rows.map((row) => row.name));
  let first = null;
  for (const span of $("model-text").querySelectorAll("span.lp-line")) {
    const hit = (span.dataset.rows || "").split(" ").some((n) => names.has(n));
    span.classList.toggle("hl", hit);
    if (hit && !first) first = span;
  }
  if (first) $("model-text").scrollTop = first.offsetTop - $("model-text").offsetTop - 8;
  if (!cell) {
    box.textContent = "Click a cell: its rows light up in the model.";
    return;
  }
  const head = document.createElement("p");
  head.className = "note";
  head.textContent = `Cell ${cellName(cell)} is the variable x_${cell[0]}_${cell[1]} ` +
    "(the model numbers rows and columns from 0); " +
    `it appears in ${rows.length} row${rows.length === 1 ? "" : "s"}:`;
  box.appendChild(head);
  for (const row of rows) box.appendChild(mathRow(row, cell));
}

async function toggleRelaxation() {
  if (!$("lp-toggle").checked) {
    state.lp = null;
    render();
    say("The LP relaxation is hidden.");
    return;
  }
  await run("Solving the LP relaxation", async () => {
    const data = await api("relax", { puzzle: state.board.puzzle });
    state.lp = data.feasible ? data : null;
    render();
    say(data.message, data.feasible ? "" : "error");
  });
}

function render() {
  const b = state.board;
  if (!b) return;
  drawBoard($("board"), b, state.marks, state.highlight, true);
}

// ------------------------------------------------------------------ actions

function forgetHint() {
  state.hint = null;
  $("apply").disabled = true;
}

function cycle(r, c) {
  state.marks[r][c] = CYCLE[state.marks[r][c]];
  state.highlight = null;
  state.selected = [r, c];
  forgetHint();
  $("rule").textContent = "";
  render();
  if (!$("model-panel").hidden) showCellRows();
}

function setBoard(board, note) {
  state.board = board;
  state.marks = Array.from({ length: board.height }, () => Array(board.width).fill(UNDECIDED));
  state.highlight = null;
  state.selected = null;
  state.lp = null;
  state.rows = null;
  $("lp-toggle").checked = false;
  $("lp-toggle").disabled = false;
  forgetHint();
  $("title").textContent = (board.name || "untitled") +
    ` — ${board.kind} ${board.height}×${board.width}`;
  $("rules").textContent = board.rule === "pool" ? POOL_RULE : (RULES[board.kind] || "");
  for (const id of ["hint", "check", "solve", "model", "reset"]) $(id).disabled = false;
  $("solve-panel").hidden = true;
  $("model-panel").hidden = true;
  $("rule").textContent = "";
  render();
  say(note || "Click cells to mark them, or ask for a hint.");
}

function request() {
  return { puzzle: state.board.puzzle, marks: marksAsStrings() };
}

async function loadInstances() {
  const info = await api("info");
  state.limits = info.limits;
  const newMax = () => {
    $("new-size").max = String(info.limits.max_new_side[$("new-kind").value] || 10);
  };
  newMax();
  $("new-kind").addEventListener("change", newMax);
  $("engine").textContent = `MILP engine: ${info.backend} / ${info.solver}`;
  if (info.upload_suffixes) $("upload").accept = info.upload_suffixes.join(",");
  const data = await api("instances");
  const select = $("instance");
  select.textContent = "";
  const groups = {};
  for (const item of data.instances) {
    if (!groups[item.kind]) {
      groups[item.kind] = document.createElement("optgroup");
      groups[item.kind].label = item.kind;
      select.appendChild(groups[item.kind]);
    }
    const option = document.createElement("option");
    option.value = item.id;
    option.textContent = `${item.name} (${item.height}×${item.width})`;
    groups[item.kind].appendChild(option);
  }
  $("load").disabled = data.instances.length === 0;
}

function wire() {
  $("load").addEventListener("click", () => run("Loading", async () => {
    const data = await api("load", { instance: $("instance").value });
    setBoard(data.board);
  }));

  $("upload").addEventListener("change", () => run("Reading your file", async () => {
    const file = $("upload").files[0];
    if (!file) return;
    const limit = state.limits ? state.limits.max_body_bytes : Infinity;
    if (file.size > limit) {
      throw new Error(`${file.name} is ${Math.ceil(file.size / 1024)} KB; ` +
        `the limit is ${Math.floor(limit / 1024)} KB`);
    }
    const text = await file.text();
    const data = await api("load", { text, filename: file.name });
    setBoard(data.board, `Loaded ${file.name}.`);
  }));

  $("new").addEventListener("click", () => run("Generating (with the uniqueness check)", async () => {
    const size = parseInt($("new-size").value, 10);
    const wish = $("new-difficulty").value;
    const data = await api("generate", { kind: $("new-kind").value, size, difficulty: wish });
    const graded = data.difficulty ? ` Difficulty: ${data.difficulty}` +
      (wish !== "any" && wish !== data.difficulty ? ` (no ${wish} board turned up in time).` : ".") : "";
    setBoard(data.board, (data.unique
      ? `A new board with a unique solution (found in ${data.tries} tries).`
      : `No unique board found in time (${data.tries} tries): this one has several solutions.`) + graded);
  }));

  $("hint").addEventListener("click", () => run("Thinking", async () => {
    const data = await api("hint", request());
    const hint = data.hint;
    forgetHint();
    if (hint && hint.cells.length && hint.values.length === hint.cells.length) {
      state.hint = hint;
      $("apply").disabled = false;
    }
    if (!hint) { state.highlight = null; $("rule").textContent = ""; render(); say(data.message); return; }
    state.highlight = { cells: hint.cells, reasons: hint.reasons,
      kind: hint.mistake ? "wrong" : "hint" };
    $("rule").textContent = "Rule: " + hint.rule;
    render();
    const filled = hint.values.filter((v) => v === FILLED).length;
    const empty = hint.values.length - filled;
    const parts = [];
    if (filled) parts.push(`${filled} → filled`);
    if (empty) parts.push(`${empty} → empty`);
    say(hint.message + (parts.length ? ` (highlighted: ${parts.join(", ")})` : ""));
  }));

  $("apply").addEventListener("click", () => {
    const hint = state.hint;
    if (!hint) return;
    hint.cells.forEach(([r, c], k) => { state.marks[r][c] = hint.values[k]; });
    forgetHint();
    state.highlight = { cells: hint.cells, reasons: [], kind: "hint" };
    render();
    say(`Applied: ${hint.rule}.`);
  });

  $("check").addEventListener("click", () => run("Checking", async () => {
    const data = await api("check", request());
    state.highlight = data.wrong.length ? { cells: data.wrong, kind: "wrong" } : null;
    $("rule").textContent = "";
    render();
    say(data.message, data.consistent ? "good" : "error");
  }));

  $("solve").addEventListener("click", () => run("Solving the MILP", async () => {
    const data = await api("solve", { puzzle: state.board.puzzle });
    $("solve-panel").hidden = false;
    $("solve-status").textContent = data.status;
    $("solve-engine").textContent = `${data.backend} / ${data.solver}`;
    $("solve-time").textContent = `${(data.time_s * 1000).toFixed(1)} ms`;
    $("solve-message").textContent = data.message;
    $("second-wrap").hidden = !data.second;
    $("second").textContent = "";
    if (data.second) drawBoard($("second"), state.board, data.second, null, false);
    forgetHint();
    if (data.grid) {
      state.marks = data.grid.map((row) => row.split(""));
      state.highlight = null;
      $("rule").textContent = "";
      render();
    }
    say(data.grid ? `Solved by the MILP: ${data.status}.` : data.message,
      data.grid ? "good" : "error");
  }));

  const FORMAT_NAMES = { lp: "LP", mps: "MPS", dat: "GMPL data (.dat)", latex: "LaTeX" };
  const showModel = () => run("Building the model", async () => {
    const format = $("model-format").value || "lp";
    const data = await api("model", { puzzle: state.board.puzzle, format });
    const select = $("model-format");
    if (select.options.length !== data.formats.length) {
      select.textContent = "";
      for (const name of data.formats) {
        const option = document.createElement("option");
        option.value = name;
        option.textContent = FORMAT_NAMES[name] || name;
        select.appendChild(option);
      }
      select.value = data.format;
    }
    $("model-panel").hidden = false;
    $("algebra-aquarium").hidden = state.board.kind !== "aquarium";
    state.rows = data.rows || null;
    showModelText(data.text);
    showCellRows();
    say(`The ${FORMAT_NAMES[data.format] || data.format} model of this board is in the Model panel.`);
  });
  $("model").addEventListener("click", showModel);
  $("lp-toggle").addEventListener("change", toggleRelaxation);
  $("model-format").addEventListener("change", showModel);

  $("reset").addEventListener("click", () => {
    if (!state.board) return;
    setBoard(state.board, "Marks cleared.");
  });
}

wire();
// Start with the first bundled puzzle on the board, so the page is playable at once.
run("Loading the puzzle list", async () => {
  await loadInstances();
  const first = $("instance").value;
  if (first) {
    const data = await api("load", { instance: first });
    setBoard(data.board, "Click cells to mark them, or ask for a hint. Pick another from the Bundled puzzle list.");
  } else {
    say("Upload a puzzle or make a new one to start.");
  }
});
