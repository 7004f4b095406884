// The blockade family's board (blockade, blockade_run), behind the page's board-module
// interface (docs/web.md): `createBoard` and the notation helpers. This module is the one
// place on the page that knows the family's two kinds; it branches on `spec.kind`.
//
// `Board` is the SVG, drawn from the spec games/boards/blockade.py embeds (the same layout
// constants as the server's board.svg). Rotation is a change of coordinates (0 or a half
// turn), not an SVG transform, so labels and symbols stay upright: in Blockade Run the
// viewer's start side is at the bottom; Blockade has no sides and never turns.
// `BlockadeView` turns clicks, taps and keys into actions. Blockade: one click on a marked
// cell places there. Blockade Run: a turn has two parts, so the first click chooses the
// step (the pawn shows ghosted there) and the second the cell to block; Escape, the
// "Undo step" button or clicking the step again takes the step back. A winning step has
// no block and is sent at once.

import { cellName, cellsInWords } from "./cells.js";
import { isTouch, keep, svg } from "./dom.js";
import { boardLabel, eventSentence, gettext, interpolate, ngettext, plainLabel } from "./words.js";

const RUN = "blockade_run";

function html(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

const key = ([r, c]) => `${r},${c}`;
const same = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];

// Half turns that bring `seat`'s start side to the bottom: 2 (180 degrees) when the seat
// starts in the top half of a Blockade Run board, else 0.
export function rotationFor(spec, seat) {
  if (spec.kind !== RUN || seat === null || seat === undefined || !spec.starts || !spec.starts[seat]) return 0;
  return spec.starts[seat][0] < (spec.rows - 1) / 2 ? 2 : 0;
}

export { cellName };

export class Board {
  constructor(container, spec, { rotation = 0, interactive = false, label = gettext("Game board") } = {}) {
    this.spec = spec;
    this.rows = spec.rows;
    this.cols = spec.cols;
    this.k = rotation;
    this.L = spec.layout;
    this.handlers = {};
    this.cursor = null;
    const w = this.cols * this.L.cell + 2 * this.L.margin;
    const h = this.rows * this.L.cell + 2 * this.L.margin;
    this.el = svg("svg", {
      viewBox: `0 0 ${w} ${h}`, class: "board blockade", role: "img", "aria-label": label,
      "data-kind": spec.kind, "data-rotation": rotation, width: "100%",
      preserveAspectRatio: "xMidYMid meet",
    });
    if (interactive) {
      this.el.setAttribute("tabindex", "0");
      this.el.setAttribute("role", "application");
      this.el.setAttribute("aria-roledescription", gettext("game board"));
    }
    this.el.append(svg("rect", { width: w, height: h, rx: 12, fill: this.L.background }));
    this.cellsLayer = svg("g", { class: "cells" });
    this.piecesLayer = svg("g", { class: "pieces" }); // marks (blockade) or blocks (run)
    this.ringLayer = svg("g", { class: "rings" });
    this.marksLayer = svg("g", { class: "marks-legal" });
    this.pawnsLayer = svg("g", { class: "pawns" });
    this.ghostLayer = svg("g", { class: "ghosts" });
    this.suggestLayer = svg("g", { class: "suggestion", "pointer-events": "none" });
    // legal marks above the pawns: the cell a pawn is stepping away from may be blocked
    this.el.append(this.cellsLayer, this.piecesLayer, this.ringLayer, this.pawnsLayer, this.marksLayer, this.ghostLayer, this.suggestLayer);
    this.drawStatic();
    container.replaceChildren(this.el);
    if (interactive) this.listen();
  }

  on(name, fn) { this.handlers[name] = fn; return this; }
  emit(name, ...args) { if (this.handlers[name]) this.handlers[name](...args); }

  // -- coordinates (k is 0 or 2: a half turn) ------------------------------------------------
  cellToDisplay([r, c]) { return this.k === 2 ? [this.rows - 1 - r, this.cols - 1 - c] : [r, c]; }
  displayToCell([dr, dc]) { return this.k === 2 ? [this.rows - 1 - dr, this.cols - 1 - dc] : [dr, dc]; }
  xy(cell) {
    const [dr, dc] = this.cellToDisplay(cell);
    return [this.L.margin + dc * this.L.cell, this.L.margin + dr * this.L.cell];
  }
  centre(cell) {
    const [x, y] = this.xy(cell);
    return [x + this.L.cell / 2, y + this.L.cell / 2];
  }

  // -- drawing -------------------------------------------------------------------------------
  drawStatic() {
    const { cell, margin, inset, label_font: font, label_ink: ink } = this.L;
    for (let d = 0; d < this.cols; d++) {
      const col = this.displayToCell([0, d])[1];
      this.cellsLayer.append(svg("text", {
        x: margin + d * cell + cell / 2, y: margin - 8, "text-anchor": "middle", "font-size": font, fill: ink, class: "label",
      }, String.fromCharCode(97 + col)));
    }
    for (let d = 0; d < this.rows; d++) {
      const row = this.displayToCell([d, 0])[0];
      this.cellsLayer.append(svg("text", {
        x: margin - 8, y: margin + d * cell + cell / 2 + 4, "text-anchor": "end", "font-size": font, fill: ink, class: "label",
      }, String(row)));
    }
    const goals = new Map((this.spec.goal_rows || []).map((row, seat) => [row, seat]));
    this.goalOf = (r) => (goals.has(r) ? goals.get(r) : null);
    this.cellNodes = new Map();
    for (let r = 0; r < this.rows; r++) {
      for (let c = 0; c < this.cols; c++) {
        const [x, y] = this.xy([r, c]);
        const goal = this.goalOf(r);
        const rect = svg("rect", {
          class: "cell", "data-row": r, "data-col": c, "data-goal": goal, x: x + inset, y: y + inset,
          width: cell - 2 * inset, height: cell - 2 * inset, rx: 6,
          fill: goal === null ? "#ffffff" : this.spec.seats[goal].colour,
          "fill-opacity": goal === null ? null : this.L.goal_opacity, stroke: this.L.grid,
        });
        rect.append(svg("title", {}, cellName([r, c])));
        this.cellNodes.set(key([r, c]), rect);
        this.cellsLayer.append(rect);
      }
    }
  }

  // A cell's words for its <title>: "c2, empty", "c2, X", "c4, blocked", "c4, Red pawn".
  setTitles(words) {
    for (const [k, node] of this.cellNodes) {
      const [r, c] = k.split(",").map(Number);
      const goal = this.goalOf(r);
      const what = { cell: cellName([r, c]), what: words.get(k) || gettext("empty") };
      const text = goal === null ? interpolate(gettext("%(cell)s, %(what)s"), what)
        : interpolate(gettext("%(cell)s, %(what)s, %(seat)s's goal"), { ...what, seat: this.spec.seats[goal].name });
      const title = node.firstChild;
      if (title.textContent !== text) title.textContent = text;
    }
  }

  // state: the CONTRACT state of the kind; opts: targets, the cells to mark (dots; a ring
  // for the keys in `wins`, small squares when `blockStage`); last, the last action;
  // ghost, the cell the viewer's pawn (`ghostSeat`) is stepping to. Nodes whose drawing
  // did not change are kept (a pointer, a screen reader or a test may hold them).
  render(state, { targets = [], wins = new Set(), blockStage = false, last = null, ghost = null, ghostSeat = null } = {}) {
    const words = new Map();
    if (this.spec.kind === RUN) this.drawRun(state, last, words);
    else this.drawMarks(state, words);
    this.setTitles(words);
    const targetKeys = new Set(targets.map(key));
    for (const [k, node] of this.cellNodes) node.classList.toggle("legal", targetKeys.has(k));
    keep(this.marksLayer, targets.map((t) => {
      const k = key(t);
      const kind = blockStage ? "block" : wins.has(k) ? "win" : "step";
      return [`${k}|${kind}|${this.k}`, () => this.targetNode(t, kind)];
    }));
    keep(this.ghostLayer, ghost ? [[`${key(ghost)}|${ghostSeat}`, () => this.ghostNode(ghost, ghostSeat)]] : []);
    this.el.classList.toggle("stepping", !!ghost);
    for (const pawn of this.pawnsLayer.children) {
      pawn.classList.toggle("moving", !!ghost && Number(pawn.dataset.seat) === ghostSeat);
    }
    this.drawCursor();
  }

  targetNode(cell, kind) {
    const [cx, cy] = this.centre(cell);
    if (kind === "block") {
      const s = 12;
      return svg("rect", { class: "legal-dot block-dot", x: cx - s / 2, y: cy - s / 2, width: s, height: s, rx: 2, fill: this.L.block, "fill-opacity": 0.6 });
    }
    if (kind === "win") {
      return svg("circle", { class: "legal-dot win-dot", cx, cy, r: 9, fill: "none", stroke: this.L.accent, "stroke-width": 3 });
    }
    return svg("circle", { class: "legal-dot", cx, cy, r: 7, fill: this.L.accent, "fill-opacity": 0.55 });
  }

  ring(cell) {
    const [x, y] = this.xy(cell);
    return svg("rect", {
      class: "last-ring", x: x + 1, y: y + 1, width: this.L.cell - 2, height: this.L.cell - 2, rx: 8,
      fill: "none", stroke: this.L.accent, "stroke-width": 3,
    });
  }

  drawMarks(state, words) {
    const { cell, inset, ink } = this.L;
    const last = state.last ? state.last.at : null;
    const wanted = [];
    (state.board || []).forEach((row, r) => row.forEach((owner, c) => {
      if (owner === null || owner === undefined) return;
      const s = this.spec.seats[owner];
      const isLast = same(last, [r, c]);
      words.set(key([r, c]), isLast ? interpolate(gettext("%(seat)s, the last placement"), { seat: s.name }) : s.name);
      wanted.push([`${r},${c}|${owner}|${isLast}`, () => {
        const [x, y] = this.xy([r, c]);
        const g = svg("g", { class: `mark${isLast ? " last" : ""}`, "data-seat": owner, "data-row": r, "data-col": c, "data-last": isLast ? "true" : null });
        g.append(svg("title", {}, interpolate(gettext("%(seat)s on %(cell)s"), { seat: s.name, cell: cellName([r, c]) })));
        g.append(svg("rect", {
          x: x + inset, y: y + inset, width: cell - 2 * inset, height: cell - 2 * inset, rx: 6,
          fill: s.colour, "fill-opacity": this.L.mark_opacity, stroke: s.text, "stroke-width": 1.5,
        }));
        g.append(svg("text", {
          x: x + cell / 2, y: y + cell / 2 + this.L.mark_font * 0.36, "text-anchor": "middle",
          "font-size": this.L.mark_font, "font-weight": 700, fill: ink, "font-family": "system-ui, sans-serif",
        }, s.initial));
        return g;
      }]);
    }));
    keep(this.piecesLayer, wanted);
    keep(this.ringLayer, last ? [[`${key(last)}`, () => this.ring(last)]] : []);
    keep(this.pawnsLayer, []);
  }

  drawRun(state, last, words) {
    const { cell, inset } = this.L;
    const lastBlock = last && last.type === "run" && last.block ? last.block : null;
    const lastTo = state.last ? state.last.at : null;
    keep(this.piecesLayer, (state.blocks || []).map((b) => {
      const isLast = same(b, lastBlock);
      words.set(key(b), isLast ? gettext("blocked last") : gettext("blocked"));
      return [`${key(b)}|${isLast}`, () => {
        const [x, y] = this.xy(b);
        const rect = svg("rect", {
          class: `block${isLast ? " last" : ""}`, "data-row": b[0], "data-col": b[1], "data-last": isLast ? "true" : null,
          x: x + inset, y: y + inset, width: cell - 2 * inset, height: cell - 2 * inset, rx: 6,
          fill: this.L.block, stroke: isLast ? this.L.accent : this.L.block_edge, "stroke-width": isLast ? 3 : 1.5,
        });
        rect.append(svg("title", {}, interpolate(gettext("%(cell)s blocked"), { cell: cellName(b) })));
        return rect;
      }];
    }));
    const pawns = (state.pawns || []).map((p, seat) => [p, seat]).filter(([p]) => p);
    for (const [p, seat] of pawns) words.set(key(p), interpolate(gettext("%(seat)s pawn"), { seat: this.spec.seats[seat].name }));
    keep(this.pawnsLayer, pawns.map(([p, seat]) => {
      const isLast = same(p, lastTo) && state.last.seat === seat;
      return [`${seat}|${key(p)}|${isLast}`, () => this.pawnNode(seat, p, isLast)];
    }));
    keep(this.ringLayer, lastTo ? [[key(lastTo), () => this.ring(lastTo)]] : []);
  }

  pawnNode(seat, p, isLast) {
    const { pawn: radius, ink } = this.L;
    const s = this.spec.seats[seat];
    const [cx, cy] = this.centre(p);
    const g = svg("g", { class: `pawn${isLast ? " last" : ""}`, "data-seat": seat, "data-row": p[0], "data-col": p[1], "data-last": isLast ? "true" : null });
    g.append(svg("title", {}, interpolate(gettext("%(seat)s pawn on %(cell)s"), { seat: s.name, cell: cellName(p) })));
    g.append(svg("circle", { cx, cy, r: radius, fill: s.colour, stroke: ink, "stroke-width": 2 }));
    g.append(svg("text", { x: cx, y: cy + 7, "text-anchor": "middle", "font-size": 20, "font-weight": 700, fill: ink, "font-family": "system-ui, sans-serif" }, s.initial));
    return g;
  }

  ghostNode(p, seat) {
    const { pawn: radius, ink } = this.L;
    const s = this.spec.seats[seat];
    const [cx, cy] = this.centre(p);
    const g = svg("g", { class: "ghost", "data-seat": seat, "data-row": p[0], "data-col": p[1], "pointer-events": "none" });
    g.append(svg("title", {}, interpolate(gettext("%(seat)s pawn stepping to %(cell)s"), { seat: s.name, cell: cellName(p) })));
    g.append(svg("circle", { cx, cy, r: radius, fill: s.colour, "fill-opacity": 0.5, stroke: ink, "stroke-width": 2, "stroke-dasharray": "5 4" }));
    g.append(svg("text", { x: cx, y: cy + 7, "text-anchor": "middle", "font-size": 20, "font-weight": 700, fill: ink, "font-family": "system-ui, sans-serif" }, s.initial));
    return g;
  }

  // A suggested action (the analysis' best move), drawn until the next call: a dashed
  // ring on the cell placed on or stepped to, a dashed square on the cell to block.
  setSuggestion(action) {
    const layer = this.suggestLayer;
    layer.replaceChildren();
    layer.removeAttribute("data-type");
    const at = action && (action.type === "place" ? action.at : action.type === "run" ? action.to : null);
    if (!at) return;
    layer.dataset.type = action.type;
    const { cell } = this.L, accent = this.L.accent;
    const [x, y] = this.xy(at);
    const ring = svg("rect", { class: "suggest", "data-row": at[0], "data-col": at[1], x: x + 3, y: y + 3, width: cell - 6, height: cell - 6,
      rx: 8, fill: accent, "fill-opacity": 0.15, stroke: accent, "stroke-width": 3, "stroke-dasharray": "5 3" });
    ring.append(svg("title", {}, interpolate(gettext("Suggested: %(move)s"), { move: formatAction(action) })));
    layer.append(ring);
    if (action.type === "run" && action.block) {
      const [cx, cy] = this.centre(action.block), s = cell / 2;
      const block = svg("rect", { class: "suggest suggest-block", "data-row": action.block[0], "data-col": action.block[1],
        x: cx - s / 2, y: cy - s / 2, width: s, height: s, rx: 3, fill: this.L.block, "fill-opacity": 0.45,
        stroke: accent, "stroke-width": 2.5, "stroke-dasharray": "4 3" });
      block.append(svg("title", {}, interpolate(gettext("Suggested block: %(cell)s"), { cell: cellName(action.block) })));
      layer.append(block);
    }
  }

  setCursor(cell) { this.cursor = cell; this.drawCursor(); }
  drawCursor() {
    for (const node of this.cellNodes.values()) node.classList.remove("cursor");
    if (this.cursor) this.cellNodes.get(key(this.cursor))?.classList.add("cursor");
  }

  // -- input ---------------------------------------------------------------------------------
  // The cell under a pointer event, or null (the margins).
  hit(evt) {
    const ctm = this.el.getScreenCTM();
    if (!ctm) return null;
    const pt = this.el.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const p = pt.matrixTransform(ctm.inverse());
    const dr = Math.floor((p.y - this.L.margin) / this.L.cell);
    const dc = Math.floor((p.x - this.L.margin) / this.L.cell);
    if (dr < 0 || dc < 0 || dr >= this.rows || dc >= this.cols) return null;
    return this.displayToCell([dr, dc]);
  }

  listen() {
    let pointerType = "mouse";
    this.el.addEventListener("pointerdown", (e) => { pointerType = e.pointerType || "mouse"; });
    this.el.addEventListener("pointermove", (e) => {
      if (e.pointerType === "touch") return;
      const cell = this.hit(e);
      this.el.style.cursor = cell && this.cellNodes.get(key(cell)).classList.contains("legal") ? "pointer" : "default";
    });
    this.el.addEventListener("click", (e) => {
      const cell = this.hit(e);
      if (cell) this.emit("cell", cell, pointerType);
    });
    this.el.addEventListener("keydown", (e) => this.onKey(e));
  }

  onKey(e) {
    const dirs = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (dirs[e.key]) {
      e.preventDefault();
      const start = this.cursor || this.handlers.cursorStart?.() || [Math.floor(this.rows / 2), Math.floor(this.cols / 2)];
      const [dr, dc] = this.cellToDisplay(start);
      const [ddr, ddc] = this.cursor ? dirs[e.key] : [0, 0]; // the first key shows the cursor
      const nr = Math.max(0, Math.min(this.rows - 1, dr + ddr)), nc = Math.max(0, Math.min(this.cols - 1, dc + ddc));
      this.setCursor(this.displayToCell([nr, nc]));
      this.emit("cursor", this.cursor);
    } else if ((e.key === "Enter" || e.key === " ") && this.cursor) {
      e.preventDefault();
      this.emit("cell", this.cursor, "keyboard");
    } else if (e.key === "Escape") {
      this.emit("escape");
    }
  }
}

// -- notation (docs/engine.md; the same as rules.format_action) ---------------------------

let lastKind = null; // the kind of the board last created: a bare cell's meaning depends on it

export function formatAction(action, seat) {
  switch (action.type) {
    case "place": return cellName(action.at);
    case "run": return action.block ? `${cellName(action.to)}^${cellName(action.block)}` : cellName(action.to);
    case "pass": return "pass";
    case "resign": case "timeout": case "removed": return `${action.type}:${action.seat ?? seat}`;
    default: return action.type;
  }
}

const CELL = "([a-z])(0|[1-9][0-9]?)";
const TOKEN = new RegExp(`^${CELL}(?:\\^${CELL})?$`);

// "c2" -> a placement (blockade) or a step without a block (blockade_run); "c1^d3" -> a
// run with its block. `spec` (optional) names the kind; without it, the kind of the board
// this page created. null when the text is not an action.
export function parseNotation(text, spec = null) {
  const m = TOKEN.exec(String(text).trim().toLowerCase());
  if (!m) return null;
  const kind = (spec && spec.kind) || lastKind;
  const first = [Number(m[2]), m[1].charCodeAt(0) - 97];
  if (m[3] !== undefined) {
    if (kind && kind !== RUN) return null;
    return { type: "run", to: first, block: [Number(m[4]), m[3].charCodeAt(0) - 97] };
  }
  return kind === RUN ? { type: "run", to: first } : { type: "place", at: first };
}

export function describe(action, seatName) {
  switch (action.type) {
    case "place": return interpolate(gettext("%(seat)s placed on %(cell)s"), { seat: seatName, cell: cellName(action.at) });
    case "run":
      return action.block
        ? interpolate(gettext("%(seat)s stepped to %(cell)s and blocked %(block)s"),
          { seat: seatName, cell: cellName(action.to), block: cellName(action.block) })
        : interpolate(gettext("%(seat)s stepped to %(cell)s"), { seat: seatName, cell: cellName(action.to) });
    default: return eventSentence(action, seatName) || `${seatName}: ${action.type}`;
  }
}

export const notationHelp = gettext("Letters are columns, numbers rows (a0 top left): c2 places on c2; in Blockade Run c1^d3 steps to c1 and blocks d3, and a winning step is just its cell.");
export const notationPlaceholder = gettext("Type a move: c2 or c1^d3");

export function seatNotes(state, seat, spec = null) {
  if (state.board) { // blockade: how many marks the seat has placed
    const n = state.board.flat().filter((v) => v === seat).length;
    const notes = [interpolate(gettext("%(count)s placed"), { count: n })];
    if (state.ply === 0 && seat === 0) notes.push(gettext("moves first"));
    return notes;
  }
  const pawn = state.pawns ? state.pawns[seat] : null;
  if (!pawn) return [];
  const goal = spec && spec.goal_rows ? spec.goal_rows[seat] : (seat === 0 ? 4 : 0);
  const n = Math.abs(goal - pawn[0]);
  return [n === 0 ? gettext("at the goal") : interpolate(ngettext("%(count)s row to go", "%(count)s rows to go", n), { count: n })];
}

// -- the view: the page's board-module interface --------------------------------------------

export function createBoard(container, spec, { seat = null, interactive = false, label = "" } = {}) {
  lastKind = spec.kind;
  return new BlockadeView(container, spec, { seat, interactive, label });
}

class BlockadeView {
  constructor(container, spec, { seat, interactive, label }) {
    this.spec = spec;
    this.run = spec.kind === RUN;
    this.seat = seat;
    this.handlers = {};
    this.check = async () => ({ ok: true, reason: null });
    const touch = isTouch(); // "tap" and no keyboard words on a touch screen
    const mark = { mark: seat !== null && spec.seats[seat] ? spec.seats[seat].initial : gettext("mark") };
    if (this.run) {
      this.turnHint = touch ? gettext("Your turn: tap a marked cell to step there, then a cell to block.")
        : gettext("Your turn: click a marked cell to step there, then a cell to block.");
    } else {
      this.turnHint = interpolate(touch ? gettext("Your turn: tap a marked cell to place your %(mark)s.")
        : gettext("Your turn: click a marked cell to place your %(mark)s."), mark);
    }
    this.state = null;
    this.last = null;
    this.myTurn = false;
    this.known = false; // the legal actions of this position are known
    this.places = new Set(); // blockade: legal cells
    this.steps = new Map(); // run: step key -> {to, win, blocks: Map(key -> cell)}
    this.step = null; // run: the chosen step, waiting for its block
    this.busy = 0; // bumps on every position change, so a late check answer is dropped
    const keys = this.run
      ? gettext("Arrow keys move the cursor, Enter chooses the step and then the cell to block, Escape takes the step back.")
      : gettext("Arrow keys move the cursor, Enter places there.");
    const boardBox = document.createElement("div");
    boardBox.className = "blockade-board";
    container.replaceChildren(boardBox);
    this.board = new Board(boardBox, spec, {
      rotation: rotationFor(spec, seat), interactive,
      label: interactive ? [boardLabel(label || spec.title, spec, seat), touch ? "" : keys].filter(Boolean).join(" ") : plainLabel(label, spec),
    });
    this.el = this.board.el;
    if (!interactive) return;
    if (this.run) { this.bar = this.stepBar(); container.append(this.bar); }
    this.board.on("cell", (cell) => this.onCell(cell))
      .on("escape", () => { if (this.step) this.undoStep(); else this.say(""); })
      .on("cursorStart", () => this.cursorStart())
      .on("cursor", (c) => this.say(interpolate(gettext("Cursor on %(cell)s"), { cell: this.cellWords(c) })));
  }

  on(name, fn) { this.handlers[name] = fn; return this; }
  emit(name, ...args) { if (this.handlers[name]) this.handlers[name](...args); }
  say(text, kind = "") { this.emit("say", text, kind); }

  cursorStart() {
    if (this.step) return this.step.to;
    if (!this.state) return null;
    if (this.run) return (this.seat !== null && this.state.pawns[this.seat]) || null;
    return this.state.last ? this.state.last.at : null;
  }

  cellWords(cell) {
    const title = this.board.cellNodes.get(key(cell))?.firstChild?.textContent;
    return title || cellName(cell);
  }

  render(state, { legal = [], last = null, myTurn = false } = {}) {
    if (this.state && this.state.ply !== state.ply) { this.busy++; this.dropStep(); }
    this.state = state;
    this.last = last;
    this.myTurn = myTurn;
    this.known = myTurn && legal.length > 0;
    this.places = new Set();
    this.steps = new Map();
    for (const a of legal) {
      if (a.type === "place") this.places.add(key(a.at));
      else if (a.type === "run") {
        const k = key(a.to);
        if (!this.steps.has(k)) this.steps.set(k, { to: a.to, win: false, blocks: new Map() });
        if (a.block) this.steps.get(k).blocks.set(key(a.block), a.block);
        else this.steps.get(k).win = true;
      }
    }
    if (this.step && this.known && !this.steps.has(key(this.step.to))) this.dropStep();
    this.paint();
  }

  paint() {
    const state = this.state;
    if (!state) return;
    let targets = [], wins = new Set(), blockStage = false, ghost = null;
    if (this.myTurn && this.known) {
      if (!this.run) targets = [...this.places].map((k) => k.split(",").map(Number));
      else if (this.step) {
        blockStage = true;
        ghost = this.step.to;
        const entry = this.steps.get(key(this.step.to));
        targets = entry ? [...entry.blocks.values()] : [];
      } else {
        targets = [...this.steps.values()].map((s) => s.to);
        wins = new Set([...this.steps.values()].filter((s) => s.win).map((s) => key(s.to)));
      }
    } else if (this.step) { ghost = this.step.to; blockStage = true; }
    this.board.render(state, { targets, wins, blockStage, last: this.last, ghost, ghostSeat: this.seat });
  }

  highlight(action) { this.board.setSuggestion(action); }

  // Drop a half-made action (the page calls this when the position changes or it sends).
  cancel() {
    this.busy++;
    if (this.dropStep()) this.paint();
  }

  dropStep() {
    const had = !!this.step;
    this.step = null;
    if (this.bar) this.bar.hidden = true;
    return had;
  }

  stepBar() {
    const bar = html("div", { class: "confirm-bar step-bar", id: "step-bar" });
    bar.hidden = true;
    this.stepText = html("span", { id: "step-text" });
    const undo = html("button", { type: "button", id: "undo-step", class: "btn secondary small" }, gettext("Undo step"));
    undo.addEventListener("click", () => { this.undoStep(); this.el.focus(); });
    bar.append(this.stepText, " ", undo);
    return bar;
  }

  undoStep() {
    if (!this.step) return;
    this.dropStep();
    this.paint();
    this.say(gettext("Step taken back: choose where to step."));
  }

  async reason(action) {
    const ticket = this.busy;
    const answer = await this.check(action);
    if (ticket !== this.busy) return undefined; // the position changed meanwhile
    return answer.ok ? null : (answer.reason ? cellsInWords(answer.reason) : gettext("not allowed"));
  }

  send(action) {
    this.busy++;
    this.dropStep();
    this.paint();
    this.emit("action", action);
  }

  onCell(cell) {
    if (!this.state) return;
    if (this.run) this.onRunCell(cell);
    else this.onPlaceCell(cell);
  }

  async onPlaceCell(cell) {
    const action = { type: "place", at: cell };
    if (this.known && this.places.has(key(cell))) { this.send(action); return; }
    const reason = await this.reason(action);
    if (reason === undefined) return;
    if (reason !== null) { this.say(interpolate(gettext("You can't place on %(cell)s: %(reason)s."), { cell: cellName(cell), reason }), "error"); return; }
    this.send(action);
  }

  async onRunCell(cell) {
    if (this.step) { await this.onBlockCell(cell); return; }
    const k = key(cell);
    if (this.known && this.steps.has(k)) {
      const entry = this.steps.get(k);
      if (entry.win || entry.blocks.size === 0) { this.send({ type: "run", to: cell }); return; }
      this.chooseStep(cell);
      return;
    }
    // Not a known step: the engine says why (a winning step alone is legal as it is).
    const action = { type: "run", to: cell };
    const reason = await this.reason(action);
    if (reason === undefined) return;
    if (reason === null) { this.send(action); return; }
    if (!this.known && this.myTurn && this.couldStep(cell)) { this.chooseStep(cell); return; }
    this.say(interpolate(gettext("You can't step to %(cell)s: %(reason)s."), { cell: cellName(cell), reason }), "error");
  }

  // Only while the legal actions are still on their way: a cell next to the pawn that is
  // neither blocked nor the opponent's is worth choosing; the server decides anyway.
  couldStep(cell) {
    const pawn = this.state.pawns[this.seat];
    if (!pawn || Math.abs(pawn[0] - cell[0]) + Math.abs(pawn[1] - cell[1]) !== 1) return false;
    if ((this.state.blocks || []).some((b) => same(b, cell))) return false;
    return !this.state.pawns.some((p, s) => s !== this.seat && same(p, cell));
  }

  chooseStep(cell) {
    this.step = { to: cell };
    this.paint();
    if (this.bar) {
      this.stepText.textContent = interpolate(gettext("Step to %(cell)s: now choose a cell to block."), { cell: cellName(cell) });
      this.bar.hidden = false;
    }
    this.say(gettext("Now block a cell (Esc to undo the step)"));
  }

  async onBlockCell(cell) {
    const to = this.step.to;
    if (same(cell, to)) { this.undoStep(); return; }
    const action = { type: "run", to, block: cell };
    const entry = this.steps.get(key(to));
    if (this.known && entry && entry.blocks.has(key(cell))) { this.send(action); return; }
    const reason = await this.reason(action);
    if (reason === undefined) return;
    if (reason !== null) { this.say(interpolate(gettext("You can't block %(cell)s: %(reason)s."), { cell: cellName(cell), reason }), "error"); return; }
    this.send(action);
  }
}
