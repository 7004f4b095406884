// The barrier family's board (bloqueio, bloqueio2, quoridor, quoridor4), behind the page's
// board-module interface (docs/web.md): `createBoard` and the notation helpers.
//
// `Board` is the SVG, drawn from the spec games/boards/barrier.py embeds (same layout
// constants as the server's board.svg). Rotation is a change of coordinates, not an SVG
// transform, so labels and pawn initials stay upright. Pointer positions are mapped back
// to logical coordinates: near a grid line means a groove (a barrier), otherwise a cell.
// `BarrierView` turns clicks, taps and keys into actions: a click on a cell is a move, on
// a groove a barrier (hover previews it, with the engine's reason when it is refused); a
// tapped or keyed barrier waits in a confirm bar.

import { cellName, cellsInWords } from "./cells.js";
import { keep, svg } from "./dom.js";

const GROOVE = 0.2; // how close to a line (in cells) a pointer must be to mean a groove

const key = ([r, c]) => `${r},${c}`;
export const barrierKey = (b) => `${b.at[0]},${b.at[1]},${b.orientation}`;

// Quarter turns (clockwise) that bring `seat`'s start side to the bottom.
export function rotationFor(spec, seat) {
  if (seat === null || seat === undefined || !spec.seats[seat]) return 0;
  const n = spec.grid;
  const [r, c] = spec.seats[seat].start;
  const sides = [[n - 1 - r, 0], [n - 1 - c, 1], [r, 2], [c, 3]]; // bottom, right, top, left
  sides.sort((a, b) => a[0] - b[0]);
  return sides[0][1];
}

export class Board {
  constructor(container, spec, { rotation = 0, interactive = false, label = "Game board" } = {}) {
    this.spec = spec;
    this.n = spec.grid;
    this.k = rotation;
    this.L = spec.layout;
    this.interactive = interactive;
    this.barrierMode = false; // every point means its nearest groove (BarrierView's toggle)
    this.handlers = {};
    this.legal = new Set();
    this.cursor = null;
    const size = this.n * this.L.cell + 2 * this.L.margin;
    this.el = svg("svg", {
      viewBox: `0 0 ${size} ${size}`, class: "board", role: "img", "aria-label": label,
      "data-kind": spec.kind, "data-rotation": rotation,
    });
    if (interactive) {
      this.el.setAttribute("tabindex", "0");
      this.el.setAttribute("role", "application");
      this.el.setAttribute("aria-roledescription", "game board");
    }
    this.el.append(svg("rect", { width: size, height: size, rx: 12, fill: "#f1f5f9" }));
    this.cellsLayer = svg("g");
    this.marksLayer = svg("g", { class: "marks" });
    this.wallsLayer = svg("g", { class: "walls" });
    this.pawnsLayer = svg("g", { class: "pawns" });
    this.previewLayer = svg("g", { class: "preview" });
    this.suggestLayer = svg("g", { class: "suggestion", "pointer-events": "none" });
    this.el.append(this.cellsLayer, this.marksLayer, this.wallsLayer, this.pawnsLayer, this.previewLayer, this.suggestLayer);
    this.drawStatic();
    container.replaceChildren(this.el);
    if (interactive) this.listen();
  }

  on(name, fn) { this.handlers[name] = fn; return this; }
  emit(name, ...args) { if (this.handlers[name]) this.handlers[name](...args); }

  // -- coordinates -------------------------------------------------------------------------
  cellToDisplay([r, c]) {
    const m = this.n - 1;
    return [[r, c], [c, m - r], [m - r, m - c], [m - c, r]][this.k];
  }
  displayToCell([dr, dc]) {
    const m = this.n - 1;
    return [[dr, dc], [m - dc, dr], [m - dr, m - dc], [dc, m - dr]][this.k];
  }
  pointToDisplay([i, j]) {
    const n = this.n;
    return [[i, j], [j, n - i], [n - i, n - j], [n - j, i]][this.k];
  }
  displayToPoint([y, x]) {
    const n = this.n;
    return [[y, x], [n - x, y], [n - y, n - x], [x, n - y]][this.k];
  }
  xy([dr, dc]) { return [this.L.margin + dc * this.L.cell, this.L.margin + dr * this.L.cell]; }

  // -- drawing -----------------------------------------------------------------------------
  drawStatic() {
    const { cell, margin, inset } = this.L;
    const letters = (c) => String.fromCharCode(97 + c);
    for (let d = 0; d < this.n; d++) {
      const top = this.displayToCell([0, d]);
      const left = this.displayToCell([d, 0]);
      const colLabel = this.k % 2 === 0 ? letters(top[1]) : String(top[0]);
      const rowLabel = this.k % 2 === 0 ? String(left[0]) : letters(left[1]);
      const mid = margin + d * cell + cell / 2;
      this.cellsLayer.append(svg("text", { x: mid, y: margin - 7, "text-anchor": "middle", "font-size": 11, fill: "#475569", class: "label" }, colLabel));
      this.cellsLayer.append(svg("text", { x: margin - 6, y: mid + 4, "text-anchor": "end", "font-size": 11, fill: "#475569", class: "label" }, rowLabel));
    }
    this.cellNodes = new Map();
    for (let r = 0; r < this.n; r++) {
      for (let c = 0; c < this.n; c++) {
        const zone = this.spec.zones[r][c];
        if (zone === "x") continue;
        const [x, y] = this.xy(this.cellToDisplay([r, c]));
        const goal = zone !== "in";
        const rect = svg("rect", {
          class: "cell", "data-row": r, "data-col": c, x: x + inset, y: y + inset,
          width: cell - 2 * inset, height: cell - 2 * inset, rx: 5,
          fill: goal ? this.spec.seats[zone].colour : "#ffffff", "fill-opacity": goal ? 0.28 : null,
          stroke: "#cbd5e1",
        });
        this.cellNodes.set(key([r, c]), rect);
        this.cellsLayer.append(rect);
        if (goal) {  // a goal zone says whose it is in letters too, not by colour alone
          this.cellsLayer.append(svg("text", {
            class: "zone-mark", x: x + cell / 2, y: y + cell / 2 + 4, "text-anchor": "middle",
            "font-size": 11, fill: this.spec.seats[zone].text, "pointer-events": "none",
            "aria-hidden": "true",
          }, this.spec.seats[zone].initial));
        }
      }
    }
    if (this.n === 9) this.drawGoalBands();
  }

  drawGoalBands() {
    const { cell, margin } = this.L;
    const far = margin + this.n * cell;
    for (const seat of this.spec.seats) {
      const { axis, line } = seat.goal;
      // the goal side as a display side: take a cell on that line and see where it lands
      const probe = axis === 0 ? [line, 4] : [4, line];
      const [dr, dc] = this.cellToDisplay(probe);
      const t = 5;
      let x, y, w, h;
      if (dr === 0) [x, y, w, h] = [margin, margin - t - 1, this.n * cell, t];
      else if (dr === this.n - 1) [x, y, w, h] = [margin, far + 1, this.n * cell, t];
      else if (dc === 0) [x, y, w, h] = [margin - t - 1, margin, t, this.n * cell];
      else [x, y, w, h] = [far + 1, margin, t, this.n * cell];
      this.cellsLayer.append(svg("rect", { class: "goal", "data-seat": seat.seat, x, y, width: w, height: h, rx: 2, fill: seat.colour }));
    }
  }

  wallLine(b, extra = {}) {
    const [r, c] = b.at;
    const [p0, p1] = b.orientation === "H" ? [[r + 1, c], [r + 1, c + 2]] : [[r, c + 1], [r + 2, c + 1]];
    const [x1, y1] = this.xy(this.pointToDisplay(p0));
    const [x2, y2] = this.xy(this.pointToDisplay(p1));
    const owned = b.seat !== undefined && b.seat !== null;
    const line = svg("line", {
      class: "wall", "data-at": `${r},${c}`, "data-orientation": b.orientation,
      "data-seat": b.seat ?? "", x1, y1, x2, y2, "stroke-width": this.L.wall, "stroke-linecap": "round",
      stroke: owned ? this.spec.seats[b.seat].text : this.L.ink, ...extra,
    });
    if (owned) line.append(svg("title", {}, `${this.spec.seats[b.seat].name}'s barrier ${formatAction({ type: "barrier", ...b })}`));
    return line;
  }

  // state: {pawns, barriers}; opts: {legal: [[r,c]], last: action}. Nodes whose drawing
  // did not change are kept, so a repaint (a presence frame, legal moves arriving) never
  // detaches what a pointer, a screen reader or a test is holding.
  render(state, { legal = [], last = null } = {}) {
    const { cell } = this.L;
    this.legal = new Set(legal.map(key));
    for (const [k, node] of this.cellNodes) node.classList.toggle("legal", this.legal.has(k));
    this.marksLayer.replaceChildren();
    for (const c of legal) {
      const [x, y] = this.xy(this.cellToDisplay(c));
      this.marksLayer.append(svg("circle", { class: "legal-dot", cx: x + cell / 2, cy: y + cell / 2, r: 6, fill: "#4338ca", "fill-opacity": 0.55 }));
    }
    const lastWall = last && last.type === "barrier" ? barrierKey(last) : null;
    keep(this.wallsLayer, (state.barriers || []).map((b) => {
      const k = barrierKey(b);
      return [`${k}|${b.seat ?? ""}|${k === lastWall}`, () => {
        const line = this.wallLine(b);
        if (k === lastWall) line.classList.add("last");
        return line;
      }];
    }));
    const lastCell = last && last.type === "move" ? key(last.to) : null;
    keep(this.pawnsLayer, (state.pawns || []).flatMap((p, seat) => (
      p ? [[`${seat}|${key(p)}|${key(p) === lastCell}`, () => this.pawnNode(seat, p, key(p) === lastCell)]] : []
    )));
    this.drawCursor();
  }

  pawnNode(seat, p, isLast) {
    const { cell, pawn: radius, ink } = this.L;
    const s = this.spec.seats[seat];
    const [x, y] = this.xy(this.cellToDisplay(p));
    const cx = x + cell / 2, cy = y + cell / 2;
    const g = svg("g", { class: "pawn", "data-seat": seat, "data-row": p[0], "data-col": p[1] });
    if (isLast) g.classList.add("last");
    g.append(svg("title", {}, `${s.name} pawn on ${String.fromCharCode(97 + p[1])}${p[0]}`));
    g.append(svg("circle", { cx, cy, r: radius, fill: s.colour, stroke: ink, "stroke-width": 2 }));
    g.append(svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: ink, "font-family": "system-ui, sans-serif" }, s.initial));
    return g;
  }

  setPreview(barrier, ok) {
    this.previewLayer.replaceChildren();
    if (!barrier) return;
    this.previewLayer.append(this.wallLine({ ...barrier, seat: null }, {
      class: `wall preview ${ok ? "ok" : "bad"}`, stroke: ok ? "#4338ca" : "#dc2626",
      "stroke-opacity": ok ? 0.75 : 0.9, "stroke-dasharray": ok ? null : "6 5",
      "data-ok": ok ? "true" : "false",
    }));
  }

  // A suggested action (the analysis' best move), drawn until the next call: a dashed
  // ring on a move's cell, a dashed barrier in its groove; null (or a pass) draws nothing.
  setSuggestion(action) {
    const layer = this.suggestLayer;
    layer.replaceChildren();
    layer.removeAttribute("data-type");
    if (!action || (action.type !== "move" && action.type !== "barrier")) return;
    layer.dataset.type = action.type;
    const accent = "#4338ca";
    let node;
    if (action.type === "move") {
      const { cell } = this.L;
      const [x, y] = this.xy(this.cellToDisplay(action.to));
      node = svg("circle", { class: "suggest", "data-row": action.to[0], "data-col": action.to[1], cx: x + cell / 2, cy: y + cell / 2,
        r: cell / 2 - 3, fill: accent, "fill-opacity": 0.15, stroke: accent, "stroke-width": 3, "stroke-dasharray": "5 3" });
    } else {
      node = this.wallLine({ at: action.at, orientation: action.orientation, seat: null }, {
        class: "suggest", stroke: accent, "stroke-opacity": 0.85, "stroke-dasharray": "4 4" });
    }
    node.append(svg("title", {}, `Suggested: ${formatAction(action)}`));
    layer.append(node);
  }

  setCursor(cell) { this.cursor = cell; this.drawCursor(); }
  drawCursor() {
    for (const node of this.cellNodes.values()) node.classList.remove("cursor");
    if (this.cursor) {
      const node = this.cellNodes.get(key(this.cursor));
      if (node) node.classList.add("cursor");
    }
  }

  // -- input -------------------------------------------------------------------------------
  // What the pointer is over: {cell: [r,c]} or {barrier: {at, orientation}} or null.
  hit(evt) {
    const pt = this.el.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const ctm = this.el.getScreenCTM();
    if (!ctm) return null;
    const p = pt.matrixTransform(ctm.inverse());
    const y = (p.y - this.L.margin) / this.L.cell, x = (p.x - this.L.margin) / this.L.cell;
    const [i, j] = this.displayToPoint([y, x]);
    if (i < 0 || j < 0 || i > this.n || j > this.n) return null;
    const di = Math.min(i - Math.floor(i), Math.ceil(i) - i);
    const dj = Math.min(j - Math.floor(j), Math.ceil(j) - j);
    const [lo, hi] = this.spec.anchor;
    // In barrier mode every point means its nearest groove: a finger needs no aim.
    if (Math.min(di, dj) < (this.barrierMode ? 0.51 : GROOVE)) {
      let r, c, orientation;
      if (di <= dj) { orientation = "H"; r = Math.round(i) - 1; c = Math.round(j) - 1; }
      else { orientation = "V"; c = Math.round(j) - 1; r = Math.round(i) - 1; }
      const fixed = orientation === "H" ? r : c;
      let free = orientation === "H" ? c : r;
      if (fixed < lo || fixed > hi || free < lo - 1 || free > hi + 1) return null;
      free = Math.max(lo, Math.min(hi, free));
      return { barrier: orientation === "H" ? { at: [r, free], orientation } : { at: [free, c], orientation } };
    }
    const cell = [Math.floor(i), Math.floor(j)];
    if (cell[0] >= this.n || cell[1] >= this.n || this.spec.zones[cell[0]][cell[1]] === "x") return null;
    return { cell };
  }

  listen() {
    let pointerType = "mouse";
    let hovered = null;
    this.el.addEventListener("pointerdown", (e) => { pointerType = e.pointerType || "mouse"; });
    this.el.addEventListener("pointermove", (e) => {
      if (e.pointerType === "touch") return;
      const h = this.hit(e);
      const b = h && h.barrier ? barrierKey(h.barrier) : null;
      this.el.style.cursor = h && (h.barrier || this.legal.has(key(h.cell))) ? "pointer" : "default";
      if (b !== hovered) { hovered = b; this.emit("hover", h && h.barrier ? h.barrier : null); }
    });
    this.el.addEventListener("pointerleave", () => { hovered = null; this.emit("hover", null); });
    this.el.addEventListener("click", (e) => {
      const h = this.hit(e);
      if (!h) return;
      if (h.cell) this.emit("cell", h.cell, pointerType);
      else this.emit("barrier", h.barrier, pointerType);
    });
    this.el.addEventListener("keydown", (e) => this.onKey(e));
  }

  onKey(e) {
    const dirs = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (dirs[e.key]) {
      e.preventDefault();
      const start = this.cursor || this.handlers.cursorStart?.() || [Math.floor(this.n / 2), Math.floor(this.n / 2)];
      const [dr, dc] = this.cellToDisplay(start);
      const [ddr, ddc] = dirs[e.key];
      const nr = Math.max(0, Math.min(this.n - 1, dr + ddr)), nc = Math.max(0, Math.min(this.n - 1, dc + ddc));
      this.setCursor(this.displayToCell([nr, nc]));
      this.emit("cursor", this.cursor);
    } else if ((e.key === "Enter" || e.key === " ") && this.cursor) {
      e.preventDefault();
      this.emit("activate", this.cursor);
    } else if ((e.key === "h" || e.key === "v") && this.cursor) {
      e.preventDefault();
      this.emit("barrierKey", { at: [...this.cursor], orientation: e.key.toUpperCase() });
    } else if (e.key === "Escape") {
      this.emit("escape");
    }
  }
}

// -- notation (docs/engine.md; the same as rules.format_action) ---------------------------

export { cellName };

export function formatAction(action, seat) {
  switch (action.type) {
    case "move": return cellName(action.to);
    case "barrier": return cellName(action.at) + action.orientation.toLowerCase();
    case "pass": return "pass";
    case "resign": case "timeout": case "removed": return `${action.type}:${seat}`;
    default: return action.type;
  }
}

// "f2" -> move, "e3h" -> barrier; null when the text is not an action.
export function parseNotation(text) {
  const m = /^([a-z])(0|[1-9][0-9]?)([hv]?)$/.exec(text.trim().toLowerCase());
  if (!m) return null;
  const cell = [Number(m[2]), m[1].charCodeAt(0) - 97];
  if (m[3]) return { type: "barrier", at: cell, orientation: m[3].toUpperCase() };
  return { type: "move", to: cell };
}

export function describe(action, seatName) {
  switch (action.type) {
    case "move": return `${seatName} moved to ${cellName(action.to)}`;
    case "barrier":
      return `${seatName} placed a ${action.orientation === "H" ? "horizontal" : "vertical"} barrier at ${cellName(action.at)}`;
    case "pass": return `${seatName} passed`;
    case "resign": return `${seatName} resigned`;
    case "timeout": return `${seatName} ran out of time`;
    case "removed": return `${seatName} was removed`;
    default: return `${seatName}: ${action.type}`;
  }
}

export const notationHelp = "Cells are named as on the board's edges, letter then number (f2); a barrier is the earliest letter and lowest number of the four cells it touches, then h or v (e3h).";

// The engine's reasons speak in [row, col]; the page speaks the notation on the board's
// edges ("cell [7,7] is not reachable" -> "cell h7 is not reachable").
export function readable(reason) {
  return cellsInWords(String(reason)
    .replace(/\b(H|V) at \[(\d+),\s*(\d+)\]/g, (_, o, r, c) => `barrier ${cellName([Number(r), Number(c)])}${o.toLowerCase()}`));
}
export const notationPlaceholder = "Type a move: f2, e3h";

export function seatNotes(state, seat) {
  const left = state.barriers_left ? state.barriers_left[seat] : null;
  return left === null || left === undefined ? [] : [`${left} barrier${left === 1 ? "" : "s"}`];
}

// -- the view: the page's board-module interface --------------------------------------------

export function createBoard(container, spec, { seat = null, interactive = false, label = "" } = {}) {
  return new BarrierView(container, spec, { seat, interactive, label });
}

class BarrierView {
  constructor(container, spec, { seat, interactive, label }) {
    this.spec = spec;
    this.handlers = {};
    this.check = async () => ({ ok: true, reason: null });
    this.turnHint = "Your turn: click a highlighted cell, or a groove for a barrier.";
    this.state = null;
    this.myTurn = false;
    this.moves = new Set();
    this.barriers = new Set();
    this.known = false; // legal actions of this position known
    this.pending = null; // a barrier waiting for the touch/keyboard confirm step
    const who = seat === null || seat === undefined ? "watching" : `you are ${spec.seats[seat].name}`;
    const boardBox = document.createElement("div");
    container.replaceChildren(boardBox);
    this.board = new Board(boardBox, spec, {
      rotation: rotationFor(spec, seat), interactive,
      label: interactive
        ? `${label || spec.title} board, ${who}. Arrow keys move the cursor, Enter moves there, H or V previews a barrier.`
        : (label || `${spec.title} board`),
    });
    this.el = this.board.el;
    if (!interactive) return;
    this.bar = this.confirmBar();
    this.modeButton = Object.assign(document.createElement("button"), {
      type: "button", id: "barrier-mode", className: "btn secondary small",
      textContent: "Barrier mode: off",
    });
    this.modeButton.setAttribute("aria-pressed", "false");
    this.modeButton.title = "On a phone: every tap places a barrier on the nearest groove (asks to confirm)";
    this.modeButton.addEventListener("click", () => this.setBarrierMode(!this.board.barrierMode));
    const tools = document.createElement("div");
    tools.className = "toolbar board-tools";
    tools.append(this.modeButton);
    if (seat !== null && seat !== undefined) {
      // Where you are going, in words (the board is turned: your goal is the far side).
      const me = spec.seats[seat];
      const legend = document.createElement("p");
      legend.className = "small muted board-legend";
      legend.id = "board-legend";
      legend.textContent = `You are ${me.name} (${me.initial}): your goal is the far side of the board, `
        + `the cells marked ${me.initial}${spec.grid === 9 ? " beyond the band in your colour" : ""}. `
        + "Barriers show their owner when you point at them.";
      tools.append(legend);
    }
    container.append(this.bar, tools);
    this.board.on("cell", (cell) => this.onCell(cell)).on("barrier", (b, pointer) => this.onBarrier(b, pointer))
      .on("hover", (b) => this.onHover(b)).on("activate", (cell) => this.onCell(cell))
      .on("barrierKey", (b) => this.askConfirm(b)).on("escape", () => { this.cancel(); this.say(""); })
      .on("cursorStart", () => (seat !== null && this.state && this.state.pawns[seat]) || null)
      .on("cursor", (c) => this.say(`Cursor on ${cellName(c)}`));
  }

  on(name, fn) { this.handlers[name] = fn; return this; }
  emit(name, ...args) { if (this.handlers[name]) this.handlers[name](...args); }
  say(text, kind = "") { this.emit("say", text, kind); }

  render(state, { legal = [], last = null, myTurn = false } = {}) {
    this.state = state;
    this.myTurn = myTurn;
    this.known = myTurn && legal.length > 0;
    this.moves = new Set();
    this.barriers = new Set();
    const cells = [];
    for (const a of legal) {
      if (a.type === "move") { cells.push(a.to); this.moves.add(key(a.to)); }
      else if (a.type === "barrier") this.barriers.add(barrierKey(a));
    }
    this.board.render(state, { legal: myTurn ? cells : [], last });
  }

  highlight(action) { this.board.setSuggestion(action); }

  setBarrierMode(on) {
    this.board.barrierMode = on;
    this.modeButton.setAttribute("aria-pressed", on ? "true" : "false");
    this.modeButton.textContent = `Barrier mode: ${on ? "on" : "off"}`;
    this.say(on ? "Barrier mode: tap near a line to place a barrier there." : "");
  }

  cancel() {
    this.pending = null;
    if (this.bar) this.bar.hidden = true;
    this.board.setPreview(null);
  }

  confirmBar() {
    const bar = document.createElement("div");
    bar.className = "confirm-bar";
    bar.id = "confirm-bar";
    bar.hidden = true;
    const text = document.createElement("span");
    text.id = "confirm-text";
    const place = Object.assign(document.createElement("button"), { type: "button", id: "confirm-place", className: "btn small", textContent: "Place" });
    const cancel = Object.assign(document.createElement("button"), { type: "button", id: "confirm-cancel", className: "btn secondary small", textContent: "Cancel" });
    place.addEventListener("click", () => { if (this.pending) this.tryAction(this.pending); });
    cancel.addEventListener("click", () => { this.cancel(); this.say(""); });
    bar.append(text, " ", place, " ", cancel);
    this.confirmText = text;
    this.confirmPlace = place;
    return bar;
  }

  isLegal(action) {
    if (!this.known) return null;
    return action.type === "move" ? this.moves.has(key(action.to)) : this.barriers.has(barrierKey(action));
  }

  async reason(action) {
    const answer = await this.check(action);
    return answer.ok ? null : readable(answer.reason);
  }

  async tryAction(action) {
    if (!this.myTurn) { this.cancel(); this.emit("action", action); return; } // the page says why not
    let reason = null;
    if (this.isLegal(action) !== true) reason = await this.reason(action);
    const text = formatAction(action);
    if (reason !== null) {
      this.say(`${action.type === "move" ? "You can't move to" : "You can't place a barrier at"} ${text}: ${reason}.`, "error");
      return;
    }
    this.cancel();
    this.emit("action", action);
  }

  onCell(cell) {
    this.cancel();
    this.tryAction({ type: "move", to: cell });
  }

  onBarrier(barrier, pointerType) {
    if (pointerType === "touch") { this.askConfirm(barrier); return; }
    this.tryAction({ type: "barrier", ...barrier });
  }

  onHover(barrier) {
    if (this.pending) return;
    clearTimeout(this.hoverTimer);
    if (!barrier || !this.myTurn) { this.board.setPreview(null); return; }
    const action = { type: "barrier", ...barrier };
    const ok = this.isLegal(action);
    this.board.setPreview(barrier, ok !== false);
    const text = formatAction(action);
    if (ok) { this.say(`Click to place a barrier at ${text}.`); return; }
    this.hoverTimer = setTimeout(async () => {
      const reason = await this.reason(action);
      if (this.el.querySelector(".preview line")?.dataset.at !== `${barrier.at[0]},${barrier.at[1]}`) return;
      this.board.setPreview(barrier, reason === null);
      this.say(reason === null ? `Click to place a barrier at ${text}.` : `Barrier ${text} is not allowed: ${reason}.`, reason === null ? "" : "error");
    }, 120);
  }

  async askConfirm(barrier) {
    const action = { type: "barrier", ...barrier };
    if (!this.myTurn) { this.emit("action", action); return; }
    const reason = this.isLegal(action) ? null : await this.reason(action);
    this.board.setPreview(barrier, reason === null);
    if (reason !== null) { this.say(`Barrier ${formatAction(action)} is not allowed: ${reason}.`, "error"); return; }
    this.pending = action;
    this.say("");  // an older refusal must not stand beside the question
    // As the player sees it: a quarter-turned board shows H barriers upright.
    const flat = (barrier.orientation === "H") === (this.board.k % 2 === 0);
    this.confirmText.textContent = `Place a ${flat ? "horizontal" : "vertical"} barrier at ${formatAction(action)}?`;
    this.bar.hidden = false;
    this.confirmPlace.focus();
  }
}
