// The blockade family's SVG board (blockade, blockade_run), drawn from the spec
// games/boards/blockade.py embeds (the same layout constants as the server's board.svg).
// Rotation is a change of coordinates (0 or a half turn), not an SVG transform, so labels
// and symbols stay upright: in Blockade Run the viewer's start side is at the bottom;
// Blockade has no sides and never turns. Colours are the page's theme and palette
// variables (games/boards/palettes.py), and every seat shows its letter besides its
// colour: on marks, pawns and Blockade Run's goal rows. The view (blockade.js) turns
// clicks, taps and keys into actions.

import { cellName } from "./cells.js";
import { keep, svg } from "./dom.js";
import { gettext, interpolate } from "./words.js";
import { RUN, formatAction } from "./blockade-notation.js";

export const key = ([r, c]) => `${r},${c}`;
export const same = (a, b) => !!a && !!b && a[0] === b[0] && a[1] === b[1];

// Half turns that bring `seat`'s start side to the bottom: 2 (180 degrees) when the seat
// starts in the top half of a Blockade Run board, else 0.
export function rotationFor(spec, seat) {
  if (spec.kind !== RUN || seat === null || seat === undefined || !spec.starts || !spec.starts[seat]) return 0;
  return spec.starts[seat][0] < (spec.rows - 1) / 2 ? 2 : 0;
}

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
        x: margin + d * cell + cell / 2, y: margin - 8, "text-anchor": "middle", "font-size": font, fill: ink, class: "label", "data-edge": "top",
      }, String.fromCharCode(97 + col)));
    }
    for (let d = 0; d < this.rows; d++) {
      const row = this.displayToCell([d, 0])[0];
      this.cellsLayer.append(svg("text", {
        x: margin - 8, y: margin + d * cell + cell / 2 + 4, "text-anchor": "end", "font-size": font, fill: ink, class: "label", "data-edge": "left",
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
          fill: goal === null ? "var(--board-cell)" : this.spec.seats[goal].colour,
          "fill-opacity": goal === null ? null : this.L.goal_opacity, stroke: this.L.grid,
        });
        rect.append(svg("title", {}, cellName([r, c])));
        this.cellNodes.set(key([r, c]), rect);
        this.cellsLayer.append(rect);
        if (goal !== null) { // whose goal, in a letter too (a corner: pawns and dots keep the middle)
          this.cellsLayer.append(svg("text", {
            class: "zone-mark", x: x + inset + 5, y: y + inset + 15, "font-size": 13, "font-weight": 700,
            fill: this.spec.seats[goal].text, "pointer-events": "none", "aria-hidden": "true",
          }, this.spec.seats[goal].initial));
        }
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
    g.append(svg("text", { x: cx, y: cy + 7, "text-anchor": "middle", "font-size": 20, "font-weight": 700, fill: s.ink, "font-family": "system-ui, sans-serif" }, s.initial));
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
