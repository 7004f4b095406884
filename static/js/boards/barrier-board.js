// The barrier family's SVG board (bloqueio, bloqueio2, quoridor, quoridor4), drawn from the
// spec games/boards/barrier.py embeds (same layout constants as the server's board.svg).
// Rotation is a change of coordinates, not an SVG transform, so labels and pawn initials
// stay upright. `target` is the one mapping from a pointer position to what it means (a
// cell or a barrier): the hover preview and the click both ask it, so what is previewed
// is what is placed, on every rotation.

import { cellName } from "./cells.js";
import { edgeLabels, keep, svg } from "./dom.js";
import { Magnifier } from "./zoom.js";
import { gettext, interpolate } from "./words.js";

const GROOVE = 0.2; // how close to a line (in cells) a pointer must be to mean a groove

const TOUCH_SLACK = 12; // px: a fingertip that far from a line still means the groove
const MAX_SLACK = 0.35; // cells: never so wide that a cell's middle means a groove

export const key = ([r, c]) => `${r},${c}`;
const actionName = (a) => (a.type === "move" ? cellName(a.to) : cellName(a.at) + a.orientation.toLowerCase());
export const barrierKey = (b) => `${b.at[0]},${b.at[1]},${b.orientation}`;

// A seat's letter on a small disc of its colour: the second cue (never colour alone) on
// its barriers and, on Quoridor boards, its goal band.
function seatMark(seat, cx, cy, attrs) {
  const g = svg("g", { ...attrs, "aria-hidden": "true", "pointer-events": "none" });
  g.append(svg("circle", { cx, cy, r: 7, fill: seat.colour, stroke: seat.text, "stroke-width": 1.5 }),
    svg("text", { x: cx, y: cy + 3.5, "text-anchor": "middle", "font-size": 10, "font-weight": 800, fill: seat.ink,
      "font-family": "system-ui, sans-serif" }, seat.initial));
  return g;
}

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
  constructor(container, spec, { rotation = 0, interactive = false, label = gettext("Game board") } = {}) {
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
      this.el.setAttribute("aria-roledescription", gettext("game board"));
    }
    this.el.append(svg("rect", { width: size, height: size, rx: 12, fill: "var(--board-bg)" }));
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
    edgeLabels(this.cellsLayer, this, "var(--board-label)");
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
          fill: goal ? this.spec.seats[zone].colour : "var(--board-cell)", "fill-opacity": goal ? 0.28 : null,
          stroke: "var(--board-grid)",
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
      this.cellsLayer.append(svg("rect", { class: "goal", "data-seat": seat.seat, x, y, width: w, height: h, rx: 2, fill: seat.colour,
        stroke: seat.text, "stroke-width": 1 })); // the edge: a light colour on a light board still shows
      // its letter too, on the band between the two middle labels (never over one)
      const mid = margin + Math.floor(this.n / 2) * cell;
      this.cellsLayer.append(seatMark(seat, w > h ? mid : x + w / 2, w > h ? y + h / 2 : mid, { class: "goal-mark", "data-seat": seat.seat }));
    }
  }

  // A barrier: a line in its groove; an owned one is a group of the line (in its
  // seat's colour) and its seat's letter on a disc at its middle, so the owner shows
  // without colour. Previews and suggestions (no owner) are the bare line.
  wallLine(b, extra = {}) {
    const [r, c] = b.at;
    const [p0, p1] = b.orientation === "H" ? [[r + 1, c], [r + 1, c + 2]] : [[r, c + 1], [r + 2, c + 1]];
    const [x1, y1] = this.xy(this.pointToDisplay(p0));
    const [x2, y2] = this.xy(this.pointToDisplay(p1));
    const owned = b.seat !== undefined && b.seat !== null;
    const where = { "data-at": `${r},${c}`, "data-orientation": b.orientation, "data-seat": b.seat ?? "" };
    const line = svg("line", {
      class: owned ? "wall-line" : "wall", ...(owned ? {} : where), x1, y1, x2, y2, "stroke-width": this.L.wall,
      "stroke-linecap": "round", stroke: owned ? this.spec.seats[b.seat].text : this.L.ink, ...extra,
    });
    if (!owned) return line;
    const s = this.spec.seats[b.seat];
    const g = svg("g", { class: "wall", ...where });
    g.append(svg("title", {}, interpolate(gettext("%(seat)s's barrier %(name)s"),
      { seat: s.name, name: actionName({ type: "barrier", ...b }) })),
      line, seatMark(s, (x1 + x2) / 2, (y1 + y2) / 2, { class: "wall-mark" }));
    return g;
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
      this.marksLayer.append(svg("circle", { class: "legal-dot", cx: x + cell / 2, cy: y + cell / 2, r: 6, fill: "var(--accent)", "fill-opacity": 0.55 }));
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
    g.append(svg("title", {}, interpolate(gettext("%(seat)s pawn on %(cell)s"), { seat: s.name, cell: cellName(p) })));
    g.append(svg("circle", { cx, cy, r: radius, fill: s.colour, stroke: ink, "stroke-width": 2 }));
    g.append(svg("text", { x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: s.ink, "font-family": "system-ui, sans-serif" }, s.initial));
    return g;
  }

  setPreview(barrier, ok) {
    this.previewLayer.replaceChildren();
    if (!barrier) return;
    this.previewLayer.append(this.wallLine({ ...barrier, seat: null }, {
      class: `wall preview ${ok ? "ok" : "bad"}`, stroke: ok ? "var(--accent)" : "var(--danger)",
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
    const accent = "var(--accent)";
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
    node.append(svg("title", {}, interpolate(gettext("Suggested: %(move)s"), { move: actionName(action) })));
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
  // What a pointer at (clientX, clientY) means: {cell: [r,c]}, {barrier: {at, orientation}}
  // or null. The one mapping for the hover preview and the click. It decides in display
  // space (as the player sees the board), so a tie (a groove's exact middle, a crossing)
  // goes the same way on every rotation: the crossing means the barrier lying flat on
  // screen, the middle of a groove the barrier running on to the right (or down).
  target(clientX, clientY, pointerType = "mouse") {
    const ctm = this.el.getScreenCTM();
    if (!ctm) return null;
    const pt = this.el.createSVGPoint();
    pt.x = clientX; pt.y = clientY;
    const p = pt.matrixTransform(ctm.inverse());
    // thousandths of a cell: float noise in the matrix never decides a tie
    const q = (v) => Math.round(((v - this.L.margin) / this.L.cell) * 1000) / 1000;
    const y = q(p.y), x = q(p.x);
    if (y < 0 || x < 0 || y > this.n || x > this.n) return null;
    const dy = Math.abs(y - Math.round(y)), dx = Math.abs(x - Math.round(x));
    if (Math.min(dy, dx) < this.slack(pointerType)) return this.grooveAt(y, x, dy <= dx);
    const [r, c] = this.displayToCell([Math.min(this.n - 1, Math.floor(y)), Math.min(this.n - 1, Math.floor(x))]);
    return this.spec.zones[r][c] === "x" ? null : { cell: [r, c] };
  }

  // How near a line (in cells) a pointer must be to mean a groove. In barrier mode every
  // point means its nearest groove; a finger gets a margin in pixels, not in cells.
  slack(pointerType) {
    if (this.barrierMode) return 0.51;
    if (pointerType !== "touch") return GROOVE;
    const px = this.el.getBoundingClientRect().width * this.L.cell / (this.n * this.L.cell + 2 * this.L.margin);
    return Math.min(MAX_SLACK, Math.max(GROOVE, TOUCH_SLACK / px));
  }

  // The barrier on the display line nearest (y, x): flat (a row line) or upright, two
  // squares long, centred on the nearest crossing along it; mapped to the logical grid.
  grooveAt(y, x, flat) {
    const line = flat ? Math.round(y) : Math.round(x);
    const from = Math.floor((flat ? x : y) + 0.5) - 1;
    const ends = [0, 2].map((d) => this.displayToPoint(flat ? [line, from + d] : [from + d, line]));
    const [i0, j0] = ends[0], [i1, j1] = ends[1];
    const orientation = i0 === i1 ? "H" : "V";
    const fixed = orientation === "H" ? i0 - 1 : j0 - 1;
    const [lo, hi] = this.spec.anchor;
    let free = orientation === "H" ? Math.min(j0, j1) : Math.min(i0, i1);
    if (fixed < lo || fixed > hi || free < lo - 1 || free > hi + 1) return null;
    free = Math.max(lo, Math.min(hi, free));
    return { barrier: { at: orientation === "H" ? [fixed, free] : [free, fixed], orientation } };
  }

  hit(evt, pointerType = "mouse") { return this.target(evt.clientX, evt.clientY, pointerType); }

  listen() {
    let pointerType = "mouse";
    let hovered = null; // {x, y, h}: where the pointer last was, and what it meant there
    this.magnifier = new Magnifier(this.el, this.n * this.L.cell + 2 * this.L.margin, this.L.cell);
    this.el.addEventListener("pointerdown", (e) => { pointerType = e.pointerType || "mouse"; });
    this.el.addEventListener("pointermove", (e) => {
      if (e.pointerType === "touch") return;
      const h = this.hit(e);
      const b = h && h.barrier ? barrierKey(h.barrier) : null;
      this.el.style.cursor = h && (h.barrier || this.legal.has(key(h.cell))) ? "pointer" : "default";
      const was = hovered && hovered.h && hovered.h.barrier ? barrierKey(hovered.h.barrier) : null;
      hovered = { x: e.clientX, y: e.clientY, h };
      if (b !== was) this.emit("hover", h && h.barrier ? h.barrier : null);
    });
    this.el.addEventListener("pointerleave", () => { hovered = null; this.emit("hover", null); });
    this.el.addEventListener("click", (e) => {
      if (pointerType === "touch" && this.magnifier.wanted()) {
        // A highlighted cell is played at the first tap, as the help says ("tap a highlighted
        // cell"); anything else (a groove, a plain cell) magnifies first.
        const h = this.hit(e, pointerType);
        if (h && h.cell && this.legal.has(key(h.cell))) { this.emit("cell", h.cell, pointerType); return; }
        this.magnifier.zoomAt(e.clientX, e.clientY);
        return;
      }
      // A mouse clicks where it last moved: what the preview shows there is what is played
      // (a click's coordinates may be rounded differently from the move's).
      const near = hovered && pointerType !== "touch" && Math.abs(hovered.x - e.clientX) <= 2 && Math.abs(hovered.y - e.clientY) <= 2;
      const h = near ? hovered.h : this.hit(e, pointerType);
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

