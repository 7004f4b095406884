// The blockade family's board (blockade, blockade_run), behind the page's board-module
// interface (docs/web.md): `createBoard` and the notation helpers. These modules are the
// one place on the page that knows the family's two kinds; they branch on `spec.kind`.
//
// `Board` is the SVG (blockade-board.js), the notation blockade-notation.js.
// `BlockadeView` turns clicks, taps and keys into actions. Blockade: one click on a marked
// cell places there. Blockade Run: a turn has two parts, so the first click chooses the
// step (the pawn shows ghosted there) and the second the cell to block; Escape, the
// "Undo step" button or clicking the step again takes the step back. A winning step has
// no block and is sent at once.

import { Board, key, rotationFor, same } from "./blockade-board.js";
import { RUN, useKind } from "./blockade-notation.js";
import { cellName, cellsInWords } from "./cells.js";
import { isTouch } from "./dom.js";
import { boardLabel, gettext, interpolate, plainLabel } from "./words.js";

export { Board, cellName, rotationFor };
export { describe, formatAction, notationHelp, notationPlaceholder, parseNotation, seatNotes } from "./blockade-notation.js";

function html(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

// -- the view: the page's board-module interface --------------------------------------------

export function createBoard(container, spec, { seat = null, interactive = false, label = "", turned = true } = {}) {
  useKind(spec.kind);
  return new BlockadeView(container, spec, { seat, interactive, label, turned });
}

class BlockadeView {
  constructor(container, spec, { seat, interactive, label, turned }) {
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
      rotation: turned ? rotationFor(spec, seat) : 0, interactive,
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
