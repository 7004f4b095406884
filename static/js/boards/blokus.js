// The Blokus board (blokus, blokus2, blokus_duo) behind the page's board interface
// (createBoard + view.render/on/check/turnHint/cancel, see docs/web.md). The board is SVG
// drawn from the spec games/boards/blokus.py embeds (same layout constants as board.svg);
// rotation is a change of coordinates, so labels and initials stay upright. Around it: a
// score strip, the tray of pieces, and the controls (rotate, flip, hints, move, confirm).
//
// Placing: pick a piece in the tray, a ghost follows the pointer (snapped to squares, kept
// on the board), green when the placement is in the legal list the page passes, red (and
// dashed) when not; a click places a green ghost and asks the engine (view.check) why a
// red one is refused. Keys on the board: arrows move the ghost, R rotates, F flips, H
// toggles hints, Enter places, Escape drops the piece. Touch: tap a piece, tap a square to
// put the ghost there, adjust with the buttons, then Confirm.

import { cellName, cellsKey, colourScore, formatAction, mirror, normalise, sortCells, turnCW } from "./blokus-pieces.js";
import { Tray, html } from "./blokus-tray.js";
import { edgeLabels, isTouch, keep, svg } from "./dom.js";
import { cellsInWords } from "./cells.js";
import { drawHints, drawSuggestion } from "./blokus-hints.js";
import { Magnifier } from "./zoom.js";
import { formatList, formatNumber } from "../i18n.js";
import { gettext, interpolate, ngettext, plainLabel } from "./words.js";

export { describe, formatAction, notationHelp, notationPlaceholder, parseNotation, seatNotes } from "./blokus-pieces.js";

const OK = "var(--ok)", BAD = "var(--danger)";

const key = ([r, c]) => `${r},${c}`;
const capital = (s) => s[0].toUpperCase() + s.slice(1);
const turn = (cells, k) => { let p = cells; for (let i = 0; i < k; i++) p = turnCW(p); return p; };

// Quarter turns (clockwise) that bring the viewer's first colour's start square to the
// bottom-left; spectators see the board as the notation reads it (a0 top left).
export function rotationFor(spec, seat) {
  if (seat === null || seat === undefined || !spec.seats[seat]) return 0;
  const start = spec.starts[spec.seats[seat].colour_ids[0]];
  let best = 0, bestScore = -Infinity;
  for (let k = 0; k < 4; k++) {
    const [dr, dc] = toDisplay(start, k, spec.size);
    if (dr - dc > bestScore) { best = k; bestScore = dr - dc; }
  }
  return best;
}

function toDisplay([r, c], k, n) {
  const m = n - 1;
  return [[r, c], [c, m - r], [m - r, m - c], [m - c, r]][k];
}

export function createBoard(container, spec, { seat = null, interactive = false, label = "", turned = true } = {}) {
  return new BlokusBoard(container, spec, { seat, interactive, label, turned });
}

class BlokusBoard {
  constructor(container, spec, { seat, interactive, label, turned }) {
    this.spec = spec;
    this.n = spec.size || spec.rows;
    this.L = spec.layout;
    this.seat = seat;
    this.k = turned ? rotationFor(spec, seat) : 0; // unturned: as the rules page draws it
    this.interactive = interactive;
    this.mine = seat !== null && spec.seats[seat] ? spec.seats[seat].colour_ids : [];
    this.handlers = {};
    this.check = null;
    this.turnHint = "";
    this.state = null;
    this.myTurn = false;
    this.legalRef = null;
    this.pick = null; // {piece, orient}
    this.at = null; // the ghost's handle square
    this.hints = false;
    this.touch = isTouch();
    this.pieceIndex = Object.fromEntries(spec.pieces.map((p, i) => [p.name, i]));
    this.orientIndex = spec.pieces.map((p) => new Map(p.orientations.map((o, i) => [cellsKey(o), i])));

    const { cell, margin } = this.L;
    const size = this.n * cell + 2 * margin;
    const help = !interactive ? "" : this.touch ? gettext("Pick a piece below, then tap the board; Rotate, Flip and the arrows adjust it, Confirm places it.")
      : gettext("Pick a piece below, then point at the board. Arrow keys move the piece, R rotates, F flips, H shows hints, Enter places, Escape drops it.");
    this.el = svg("svg", {
      viewBox: `0 0 ${size} ${size}`, class: "board blokus", role: interactive ? "application" : "img",
      "aria-label": [plainLabel(label, spec), help].filter(Boolean).join(". "),
      "data-kind": spec.kind, "data-rotation": this.k, tabindex: interactive ? "0" : null,
      "aria-roledescription": interactive ? gettext("Blokus board") : null,
    });
    this.el.append(svg("rect", { width: size, height: size, rx: 12, fill: "var(--board-bg)" }),
      svg("rect", { x: margin, y: margin, width: this.n * cell, height: this.n * cell, fill: this.L.grid }));
    this.layers = {};
    for (const name of ["cells", "starts", "hint", "squares", "outlines", "last", "ghost"]) {
      this.layers[name] = svg("g", { class: `layer-${name}` });
      this.el.append(this.layers[name]);
    }
    this.layers.suggest = svg("g", { class: "layer-suggest suggestion" });
    this.el.append(this.layers.suggest);
    this.drawStatic();

    this.scores = html("ul", { class: "bk-scores", "aria-label": gettext("Scores") });
    this.scoreItems = spec.colours.map((c, i) => {
      const item = html("li", { "data-colour": i },
        html("span", { class: "chip", style: `background:${c.colour};color:${(spec.initial_ink || [])[i] || "#0f172a"}`, "aria-hidden": "true" }, c.initial),
        html("span", { class: "bk-name", style: `color:${c.text}` }, capital(c.name),
          this.mine.includes(i) ? html("span", { class: "bk-you" }, ` ${gettext("(you)")}`) : ""),
        html("span", { class: "bk-score" }), html("span", { class: "bk-left" }), html("span", { class: "bk-flag" }));
      if (this.mine.includes(i)) item.classList.add("mine");
      this.scores.append(item);
      return item;
    });
    const boardBox = html("div", { class: "bk-boardbox" }, this.el);
    this.root = html("div", { class: `bk bk-${spec.kind}${interactive ? " interactive" : ""}`, "data-kind": spec.kind }, this.scores,
      html("div", { class: "bk-main" }, boardBox));
    if (interactive) {
      this.magnifier = new Magnifier(this.el, size, cell);
      this.tray = new Tray(this);
      this.root.querySelector(".bk-main").append(this.tray.el);
      this.listen();
    }
    this.root.classList.toggle("touch", this.touch);
    container.replaceChildren(this.root);
  }

  on(name, fn) { this.handlers[name] = fn; return this; }
  emit(name, ...args) { if (this.handlers[name]) this.handlers[name](...args); }
  say(text, kind = "") { this.emit("say", text, kind); }

  // -- coordinates -------------------------------------------------------------------------
  cellToDisplay(p) { return toDisplay(p, this.k, this.n); }
  displayToCell([dr, dc]) { return toDisplay([dr, dc], (4 - this.k) % 4, this.n); }
  xy([dr, dc]) { return [this.L.margin + dc * this.L.cell, this.L.margin + dr * this.L.cell]; }
  colourOf(i) { return this.spec.colours[i]; }

  drawStatic() {
    const { cell, gap } = this.L;
    const layer = this.layers.cells;
    edgeLabels(layer, this, this.L.label, 5);
    this.cellNodes = new Map();
    for (let r = 0; r < this.n; r++) {
      for (let c = 0; c < this.n; c++) {
        const [x, y] = this.xy(this.cellToDisplay([r, c]));
        const rect = svg("rect", { class: "cell", "data-row": r, "data-col": c, x: x + gap, y: y + gap,
          width: cell - 2 * gap, height: cell - 2 * gap, rx: 2, fill: this.L.empty });
        this.cellNodes.set(key([r, c]), rect);
        layer.append(rect);
      }
    }
  }

  // -- rendering ---------------------------------------------------------------------------
  render(state, { legal = [], last = null, myTurn = false } = {}) {
    const positionChanged = !this.state || this.state.ply !== state.ply || this.state.colour !== state.colour;
    this.state = state;
    this.myTurn = Boolean(myTurn && this.interactive && state.colour !== null && state.colour !== undefined);
    if (legal !== this.legalRef) this.indexLegal(legal);
    if (positionChanged) { this.cancel(); if (this.magnifier) this.magnifier.reset(); }
    this.drawPosition(state, last);
    this.drawScores(state);
    const mover = state.colour !== null && state.colour !== undefined ? this.colourOf(state.colour) : null;
    this.turnHint = this.myTurn && mover ? this.turnWords(mover) : "";
    if (this.tray) this.tray.render();
    this.drawHints();
    this.drawGhost();
  }

  // "Your turn: place a Red piece (you play Blue and Red). Pick one below; R rotates, F flips."
  turnWords(mover) {
    const words = { colour: capital(mover.name), colours: formatList(this.mine.map((c) => capital(this.colourOf(c).name))) };
    const several = this.mine.length > 1;
    if (this.touch) {
      return interpolate(several ? gettext("Your turn: place a %(colour)s piece (you play %(colours)s); pick one below.")
        : gettext("Your turn: place a %(colour)s piece; pick one below."), words);
    }
    return interpolate(several ? gettext("Your turn: place a %(colour)s piece (you play %(colours)s). Pick one below; R rotates, F flips.")
      : gettext("Your turn: place a %(colour)s piece. Pick one below; R rotates, F flips."), words);
  }

  indexLegal(legal) {
    this.legalRef = legal;
    this.legal = new Map();
    this.byPiece = new Map();
    this.hintCache = new Map();
    for (const a of legal || []) {
      if (a.type !== "place") continue;
      this.legal.set(`${a.piece}|${cellsKey(a.cells)}`, a);
      if (!this.byPiece.has(a.piece)) this.byPiece.set(a.piece, []);
      this.byPiece.get(a.piece).push(a);
    }
    this.known = this.legal.size > 0;
  }

  drawPosition(state, last) {
    const { cell, ink } = this.L;
    const board = state.board;
    const sq = [];
    for (let r = 0; r < this.n; r++) {
      for (let c = 0; c < this.n; c++) {
        const colour = board[r][c];
        if (colour === null || colour === undefined) continue;
        sq.push([`${r},${c},${colour}`, () => {
          const col = this.colourOf(colour);
          const [x, y] = this.xy(this.cellToDisplay([r, c]));
          const g = svg("g", { class: "square", "data-row": r, "data-col": c, "data-colour": colour });
          g.append(svg("rect", { x, y, width: cell, height: cell, fill: col.colour }),
            svg("rect", { x: x + 3, y: y + 3, width: cell - 6, height: cell - 6, rx: 3, fill: "#ffffff", "fill-opacity": 0.18 }),
            svg("text", { x: x + cell / 2, y: y + cell / 2 + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: this.spec.initial_ink ? this.spec.initial_ink[colour] : ink }, col.initial));
          return g;
        }]);
      }
    }
    keep(this.layers.squares, sq);
    const paths = new Map();
    for (let r = 0; r < this.n; r++) {
      for (let c = 0; c < this.n; c++) {
        const colour = board[r][c];
        if (colour === null || colour === undefined) continue;
        if (!paths.has(colour)) paths.set(colour, []);
        paths.get(colour).push(...this.edges([[r, c]], (rr, cc) => board[rr] && board[rr][cc] === colour));
      }
    }
    keep(this.layers.outlines, [...paths].sort((a, b) => a[0] - b[0]).map(([colour, segs]) => {
      const d = segs.join("");
      return [`${colour}|${d}`, () => svg("path", { class: "outline", "data-colour": colour, d, fill: "none", stroke: this.colourOf(colour).text, "stroke-width": 2, "stroke-linecap": "square" })];
    }));
    keep(this.layers.starts, this.spec.starts.flatMap((p, i) => {
      if (board[p[0]][p[1]] !== null) return [];
      return [[`${i}`, () => {
        const col = this.colourOf(i);
        const [x, y] = this.xy(this.cellToDisplay(p));
        const g = svg("g", { class: "start", "data-colour": i, "data-row": p[0], "data-col": p[1] });
        g.append(svg("title", {}, interpolate(gettext("%(colour)s starts on %(cell)s"), { colour: capital(col.name), cell: cellName(p) })),
          svg("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell / 2 - 4, fill: col.colour, "fill-opacity": 0.22, stroke: col.text, "stroke-width": 2, "stroke-dasharray": "4 3" }),
          svg("text", { x: x + cell / 2, y: y + cell / 2 + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: col.text }, col.initial));
        return g;
      }]];
    }));
    const lastCells = last && last.type === "place" && Array.isArray(last.cells) ? last.cells : null;
    keep(this.layers.last, lastCells ? [[`${last.piece}|${cellsKey(lastCells)}`, () => {
      const inside = new Set(lastCells.map(key));
      return svg("path", { class: "last-piece", d: this.edges(lastCells, (r, c) => inside.has(key([r, c]))).join(""),
        fill: "none", stroke: ink, "stroke-width": 3.5, "stroke-linecap": "square" });
    }]] : []);
  }

  // Path segments around `cells` (logical), on the sides where `same(r, c)` is false.
  edges(cells, same) {
    const { cell } = this.L;
    const out = [];
    for (const [r, c] of cells) {
      const [x, y] = this.xy(this.cellToDisplay([r, c]));
      for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
        if (same(r + dr, c + dc)) continue;
        // the side's direction on screen
        const [ddr, ddc] = turn([[dr, dc]], this.k)[0];
        if (ddr === -1) out.push(`M${x} ${y}h${cell}`);
        else if (ddr === 1) out.push(`M${x} ${y + cell}h${cell}`);
        else if (ddc === -1) out.push(`M${x} ${y}v${cell}`);
        else out.push(`M${x + cell} ${y}v${cell}`);
      }
    }
    return out;
  }

  drawScores(state) {
    this.spec.colours.forEach((c, i) => {
      const item = this.scoreItems[i];
      const left = state.hands[i].length;
      const out = state.out && state.out[i];
      const gone = state.in_game && !state.in_game[this.spec.colour_seats[i]];
      const toMove = state.colour === i;
      item.classList.toggle("to-move", toMove);
      item.classList.toggle("out", Boolean(out || gone));
      if (toMove) item.setAttribute("aria-current", "true"); else item.removeAttribute("aria-current");
      const score = formatNumber(colourScore(state, i, this.spec));
      item.querySelector(".bk-score").textContent = score;
      item.querySelector(".bk-left").textContent = interpolate(gettext("%(count)s left"), { count: left });
      item.querySelector(".bk-flag").textContent = gone ? gettext("left") : out ? gettext("out") : toMove ? gettext("to move")
        : left === 0 ? gettext("all placed") : "";
      const about = [interpolate(ngettext("score %(score)s, %(count)s piece left", "score %(score)s, %(count)s pieces left", left), { score, count: left }),
        out ? gettext("out") : "", gone ? gettext("left the game") : "", toMove ? gettext("to move") : ""].filter(Boolean);
      const name = this.mine.includes(i) ? interpolate(gettext("%(colour)s (you)"), { colour: capital(c.name) }) : capital(c.name);
      item.setAttribute("aria-label", `${name}: ${about.join(", ")}`);
    });
  }

  // -- the picked piece and its ghost --------------------------------------------------------
  shape() { return this.pick ? this.spec.pieces[this.pieceIndex[this.pick.piece]].orientations[this.pick.orient] : null; }

  // The ghost's squares: the shape with its handle (the square nearest its middle) on
  // this.at, shifted back onto the board when it sticks out.
  ghostCells() {
    const shape = this.shape();
    if (!shape || !this.at) return null;
    const h = this.handle(shape);
    let cells = shape.map(([r, c]) => [r - h[0] + this.at[0], c - h[1] + this.at[1]]);
    const rs = cells.map((p) => p[0]), cs = cells.map((p) => p[1]);
    const sr = Math.max(0, -Math.min(...rs)) - Math.max(0, Math.max(...rs) - (this.n - 1));
    const sc = Math.max(0, -Math.min(...cs)) - Math.max(0, Math.max(...cs) - (this.n - 1));
    if (sr || sc) {
      cells = cells.map(([r, c]) => [r + sr, c + sc]);
      this.at = [this.at[0] + sr, this.at[1] + sc];
    }
    return sortCells(cells);
  }

  handle(shape) {
    const h = Math.max(...shape.map((p) => p[0])), w = Math.max(...shape.map((p) => p[1]));
    let best = shape[0], dist = Infinity;
    for (const p of shape) {
      const d = (p[0] - h / 2) ** 2 + (p[1] - w / 2) ** 2;
      if (d < dist - 1e-9) { best = p; dist = d; }
    }
    return best;
  }

  ghostAction() {
    const cells = this.ghostCells();
    return cells ? { type: "place", piece: this.pick.piece, cells } : null;
  }

  status(action) {
    if (!action) return null;
    if (this.legal.has(`${action.piece}|${cellsKey(action.cells)}`)) return true;
    return this.known ? false : null;
  }

  // The ghost as it stands and whether it fits: the one check behind its mark (✓ ✕ ?),
  // the words announcing it and Confirm's colour.
  verdict() {
    const action = this.myTurn ? this.ghostAction() : null;
    return { action, ok: action ? this.status(action) : null };
  }

  drawGhost() {
    const layer = this.layers.ghost;
    const { action, ok } = this.verdict();
    if (!action) { layer.replaceChildren(); this.syncControls(null); this.spoken = null; return; }
    // words already said about an earlier spot or verdict follow the ghost (they must
    // never say "does not fit" beside a ✓, nor nothing beside a ✕)
    if (this.spoken && this.spoken !== `${cellsKey(action.cells)}|${ok}`) this.announceGhost();
    const { cell } = this.L;
    const col = this.colourOf(this.state.colour);
    const stroke = ok === false ? BAD : ok ? OK : col.text;
    const g = svg("g", { class: `ghost ${ok === false ? "bad" : ok ? "ok" : "unknown"}`, "data-ok": ok === null ? "" : String(ok),
      "data-piece": action.piece, "data-cells": cellsKey(action.cells) });
    for (const p of action.cells) {
      const [x, y] = this.xy(this.cellToDisplay(p));
      g.append(svg("rect", { x: x + 1.5, y: y + 1.5, width: cell - 3, height: cell - 3, rx: 3, fill: col.colour, "fill-opacity": ok === false ? 0.45 : 0.8 }));
    }
    const inside = new Set(action.cells.map(key));
    g.append(svg("path", { d: this.edges(action.cells, (r, c) => inside.has(key([r, c]))).join(""), fill: "none", stroke,
      "stroke-width": 4, "stroke-linecap": "round", "stroke-dasharray": ok === false ? "7 5" : null }));
    const [hx, hy] = this.xy(this.cellToDisplay(this.at));
    g.append(svg("text", { x: hx + cell / 2, y: hy + cell / 2 + 6, "text-anchor": "middle", "font-size": 17, "font-weight": 800, fill: stroke, stroke: "var(--board-cell)", "stroke-width": 3, "paint-order": "stroke" }, ok === false ? "✕" : ok ? "✓" : "?"));
    layer.replaceChildren(g);
    this.syncControls(ok);
  }

  syncControls(ok) { if (this.tray) this.tray.syncControls(ok); }

  // The analysis' best move, and the hints: blokus-hints.js draws them.
  highlight(action) { drawSuggestion(this, action); }
  drawHints() { drawHints(this); }

  setHints(on) {
    this.hints = on;
    this.drawHints();
    if (this.tray) this.tray.syncControls(this.status(this.ghostAction()));
    this.say(on ? gettext("Hints on: squares the picked piece can cover are lit (darker: as it is turned now); pieces that still fit are marked in the tray.")
      : gettext("Hints off."));
  }

  // -- actions -------------------------------------------------------------------------------
  pickPiece(piece) {
    if (!this.myTurn) { this.say(this.waitText(), "warn"); return; }
    if (this.pick && this.pick.piece === piece) { this.cancel(); this.say(""); return; }
    const prev = this.at;
    this.pick = { piece, orient: 0 };
    const fits = this.byPiece.get(piece) || [];
    if (!prev && fits.length) {
      // start on a legal placement (keyboard and touch users see one at once)
      const first = fits[0];
      this.pick.orient = this.orientIndex[this.pieceIndex[piece]].get(cellsKey(normalise(first.cells))) || 0;
      const h = this.handle(this.shape());
      const anchor = [Math.min(...first.cells.map((p) => p[0])), Math.min(...first.cells.map((p) => p[1]))];
      this.at = [anchor[0] + h[0], anchor[1] + h[1]];
    } else if (!prev) {
      const start = this.spec.starts[this.state.colour];
      this.at = this.state.board[start[0]][start[1]] === null ? [...start] : [Math.floor(this.n / 2), Math.floor(this.n / 2)];
    }
    this.refresh();
    this.say(interpolate(fits.length
      ? (this.touch ? gettext("%(piece)s picked: tap a square for it; Rotate and Flip turn it, Confirm places it.")
        : gettext("%(piece)s picked: point at the board; R rotates, F flips, a click or Enter places it."))
      : (this.touch ? gettext("%(piece)s picked (it fits nowhere now): tap a square for it; Rotate and Flip turn it, Confirm places it.")
        : gettext("%(piece)s picked (it fits nowhere now): point at the board; R rotates, F flips, a click or Enter places it.")), { piece }));
  }

  refresh() { if (this.tray) this.tray.render(); this.drawHints(); this.drawGhost(); }

  turnPiece(how) {
    if (!this.pick) { this.say(gettext("Pick a piece first."), "warn"); return; }
    const shape = this.shape();
    // as seen on the screen: a clockwise turn is the same in both frames; a flip mirrors
    // the screen's columns
    const next = how === "rotate" ? turnCW(shape) : turn(mirror(turn(shape, this.k)), (4 - this.k) % 4);
    this.pick = { ...this.pick, orient: this.orientIndex[this.pieceIndex[this.pick.piece]].get(cellsKey(normalise(next))) };
    this.refresh();
    this.announceGhost();
  }

  moveGhost(dr, dc) {
    if (!this.pick) return;
    const [r, c] = this.cellToDisplay(this.at);
    const nr = Math.max(0, Math.min(this.n - 1, r + dr)), nc = Math.max(0, Math.min(this.n - 1, c + dc));
    this.at = this.displayToCell([nr, nc]);
    this.drawGhost();
    this.announceGhost();
  }

  announceGhost() {
    const { action, ok } = this.verdict();
    if (!action) return;
    this.spoken = `${cellsKey(action.cells)}|${ok}`;
    const move = formatAction(action);
    this.say(ok === false ? interpolate(gettext("%(move)s: does not fit here"), { move })
      : ok ? interpolate(gettext("%(move)s: fits, place it"), { move }) : move);
  }

  async place() {
    const action = this.ghostAction();
    if (!action) { this.say(this.myTurn ? gettext("Pick a piece first.") : this.waitText(), "warn"); return; }
    if (!this.myTurn) { this.say(this.waitText(), "warn"); return; }
    const ok = this.status(action);
    if (ok) { this.emit("action", action); return; }
    const answer = this.check ? await this.check(action) : { ok: ok !== false, reason: null };
    if (this.ghostAction() === null || cellsKey(this.ghostAction().cells) !== cellsKey(action.cells)) return;
    if (answer && answer.ok) { this.emit("action", action); return; }
    this.say(interpolate(gettext("You can't place %(move)s: %(reason)s."), { move: formatAction(action),
      reason: (answer && answer.reason) ? cellsInWords(answer.reason) : gettext("not a legal placement") }), "error");
  }

  waitText() {
    if (!this.state || this.state.colour === null || this.state.colour === undefined) return gettext("The game is over.");
    if (this.seat === null) return gettext("You are watching this game.");
    return interpolate(gettext("Not your turn: %(colour)s is to move."), { colour: capital(this.colourOf(this.state.colour).name) });
  }

  cancel() {
    this.pick = null;
    this.at = null;
    this.spoken = null;
    if (this.state) this.refresh();
  }

  // -- input ---------------------------------------------------------------------------------
  hit(evt) {
    const pt = this.el.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const ctm = this.el.getScreenCTM();
    if (!ctm) return null;
    const p = pt.matrixTransform(ctm.inverse());
    const dr = Math.floor((p.y - this.L.margin) / this.L.cell), dc = Math.floor((p.x - this.L.margin) / this.L.cell);
    if (dr < 0 || dc < 0 || dr >= this.n || dc >= this.n) return null;
    return this.displayToCell([dr, dc]);
  }

  setTouch(on) {
    if (on === this.touch) return;
    this.touch = on;
    this.root.classList.toggle("touch", on);
  }

  listen() {
    let pointerType = "mouse";
    this.el.addEventListener("pointerdown", (e) => { pointerType = e.pointerType || "mouse"; this.setTouch(pointerType === "touch"); });
    this.el.addEventListener("pointermove", (e) => {
      if (e.pointerType === "touch" || !this.pick || !this.myTurn) return;
      const cell = this.hit(e);
      if (!cell || (this.at && key(cell) === key(this.at))) return;
      this.at = cell;
      this.drawGhost();
    });
    this.el.addEventListener("click", (e) => {
      const cell = this.hit(e);
      if (!cell) return;
      if (!this.myTurn) { this.say(this.waitText(), "warn"); return; }
      if (!this.pick) { this.say(gettext("Pick a piece from your tray first."), "warn"); return; }
      if (pointerType === "touch") {
        // a tap puts the ghost there; on squares too small for a finger it also magnifies
        if (this.magnifier.wanted()) this.magnifier.zoomAt(e.clientX, e.clientY);
        this.at = cell; this.drawGhost(); this.announceGhost(); return;
      }
      this.at = cell;
      this.drawGhost();
      this.place();
    });
    this.el.addEventListener("keydown", (e) => {
      const dirs = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
      if (dirs[e.key] && this.pick) { e.preventDefault(); this.moveGhost(...dirs[e.key]); }
      else if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.place(); }
    });
    this.root.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.target instanceof HTMLInputElement) return;
      const k = e.key.toLowerCase();
      if (k === "r") { e.preventDefault(); this.turnPiece("rotate"); }
      else if (k === "f") { e.preventDefault(); this.turnPiece("flip"); }
      else if (k === "h") { e.preventDefault(); this.setHints(!this.hints); }
      else if (e.key === "Escape" && this.pick) { e.preventDefault(); this.cancel(); this.say(""); }
    });
  }
}
