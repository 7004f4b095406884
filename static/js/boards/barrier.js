// The barrier family's board (bloqueio, bloqueio2, quoridor, quoridor4), behind the page's
// board-module interface (docs/web.md): `createBoard` and the notation helpers.
//
// The SVG and the pointer mapping are barrier-board.js. `BarrierView` turns clicks, taps
// and keys into actions: a click on a cell is a move, on a groove a barrier (hover
// previews it, with the engine's reason when it is refused); a tapped or keyed barrier
// waits in a confirm bar. On a phone whose squares are too small, a tap first magnifies.

import { Board, barrierKey, key, rotationFor } from "./barrier-board.js";
import { cellName, cellsInWords } from "./cells.js";
import { isTouch } from "./dom.js";
import { boardLabel, eventSentence, gettext, interpolate, ngettext, plainLabel } from "./words.js";

export { barrierKey, Board, rotationFor };

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

// The board's own word for a barrier: "barrier" on Bloqueio boards (goal zones on the
// board), "wall" on Quoridor's (goal bands outside; games/boards/barrier.py `words`). Every
// sentence naming one comes in both wordings, whole, for translators: said(barrier, wall)
// picks one. Set by the view, one kind a page.
let WALLS = false;
const said = (barrierWords, wallWords) => (WALLS ? wallWords : barrierWords);
const hasGoalZones = (spec) => spec.zones.some((row) => row.some((zone) => Number.isInteger(zone)));

export function describe(action, seatName) {
  switch (action.type) {
    case "move": return interpolate(gettext("%(seat)s moved to %(cell)s"), { seat: seatName, cell: cellName(action.to) });
    case "barrier":
      return interpolate(action.orientation === "H"
        ? said(gettext("%(seat)s placed a horizontal barrier at %(cell)s"), gettext("%(seat)s placed a horizontal wall at %(cell)s"))
        : said(gettext("%(seat)s placed a vertical barrier at %(cell)s"), gettext("%(seat)s placed a vertical wall at %(cell)s")),
      { seat: seatName, cell: cellName(action.at) });
    default: return eventSentence(action, seatName) || `${seatName}: ${action.type}`;
  }
}

export const notationHelp = gettext("Cells are named as on the rules page and the board's edges, letter then number (f2); a barrier is the earliest letter and lowest number of the four cells it touches, then h or v (e3h).");

// The engine's reasons speak in [row, col]; the page speaks the notation on the board's
// edges ("cell [7,7] is not reachable" -> "cell h7 is not reachable").
export function readable(reason) {
  return cellsInWords(String(reason)
    .replace(/\b(H|V) at \[(\d+),\s*(\d+)\]/g, (_, o, r, c) => interpolate(said(gettext("barrier %(name)s"), gettext("wall %(name)s")),
      { name: `${cellName([Number(r), Number(c)])}${o.toLowerCase()}` })));
}
export const notationPlaceholder = gettext("Type a move: f2, e3h");

export function seatNotes(state, seat) {
  const left = state.barriers_left ? state.barriers_left[seat] : null;
  if (left === null || left === undefined) return [];
  return [interpolate(said(ngettext("%(count)s barrier", "%(count)s barriers", left),
    ngettext("%(count)s wall", "%(count)s walls", left)), { count: left })];
}

// -- the view: the page's board-module interface --------------------------------------------

export function createBoard(container, spec, { seat = null, interactive = false, label = "", turned = true } = {}) {
  return new BarrierView(container, spec, { seat, interactive, label, turned });
}

class BarrierView {
  constructor(container, spec, { seat, interactive, label, turned }) {
    this.spec = spec;
    WALLS = !hasGoalZones(spec);
    this.handlers = {};
    this.check = async () => ({ ok: true, reason: null });
    this.touch = isTouch();
    this.turnHint = this.touch
      ? said(gettext("Your turn: tap a highlighted cell, or a groove for a barrier."), gettext("Your turn: tap a highlighted cell, or a groove for a wall."))
      : said(gettext("Your turn: click a highlighted cell, or a groove for a barrier."), gettext("Your turn: click a highlighted cell, or a groove for a wall."));
    this.state = null;
    this.myTurn = false;
    this.moves = new Set();
    this.barriers = new Set();
    this.known = false; // legal actions of this position known
    this.pending = null; // a barrier waiting for the touch/keyboard confirm step
    const boardBox = document.createElement("div");
    container.replaceChildren(boardBox);
    this.board = new Board(boardBox, spec, {
      rotation: turned ? rotationFor(spec, seat) : 0, interactive,
      label: interactive
        ? [boardLabel(label || spec.title, spec, seat), this.touch ? "" : said(
          gettext("Arrow keys move the cursor, Enter moves there, H or V previews a barrier."),
          gettext("Arrow keys move the cursor, Enter moves there, H or V previews a wall."))].filter(Boolean).join(" ")
        : plainLabel(label, spec),
    });
    this.el = this.board.el;
    if (!interactive) return;
    this.bar = this.confirmBar();
    this.modeButton = Object.assign(document.createElement("button"), {
      type: "button", id: "barrier-mode", className: "btn secondary small",
      textContent: this.modeText(false),
    });
    this.modeButton.setAttribute("aria-pressed", "false");
    this.modeButton.title = said(gettext("On a phone: every tap places a barrier on the nearest groove (asks to confirm)"),
      gettext("On a phone: every tap places a wall on the nearest groove (asks to confirm)"));
    this.modeButton.addEventListener("click", () => this.setBarrierMode(!this.board.barrierMode));
    const tools = document.createElement("div");
    tools.className = "toolbar board-tools";
    tools.append(this.modeButton, this.board.magnifier.button);
    if (seat !== null && seat !== undefined) {
      // Where you are going, in words (the board is turned: your goal is the far side).
      const me = spec.seats[seat];
      const legend = document.createElement("p");
      legend.className = "small muted board-legend";
      legend.id = "board-legend";
      // Bloqueio marks each goal zone's cells with the seat's initial; Quoridor's goal is
      // the band in the seat's colour outside the board (WALLS says which).
      legend.textContent = interpolate(WALLS
        ? gettext("You are %(seat)s (%(initial)s): your goal is the far side of the board, the band in your colour beyond it. Walls show their owner when you point at them.")
        : gettext("You are %(seat)s (%(initial)s): your goal is the far side of the board, the cells marked %(initial)s. Barriers show their owner when you point at them."),
      { seat: me.name, initial: me.initial });
      tools.append(legend);
    }
    container.append(this.bar, tools);
    this.board.on("cell", (cell) => this.onCell(cell)).on("barrier", (b, pointer) => this.onBarrier(b, pointer))
      .on("hover", (b) => this.onHover(b)).on("activate", (cell) => this.onCell(cell))
      .on("barrierKey", (b) => this.askConfirm(b)).on("escape", () => { this.cancel(); this.say(""); })
      .on("cursorStart", () => (seat !== null && this.state && this.state.pawns[seat]) || null)
      .on("cursor", (c) => this.say(interpolate(gettext("Cursor on %(cell)s"), { cell: cellName(c) })));
  }

  on(name, fn) { this.handlers[name] = fn; return this; }
  emit(name, ...args) { if (this.handlers[name]) this.handlers[name](...args); }
  say(text, kind = "") { this.emit("say", text, kind); }

  render(state, { legal = [], last = null, myTurn = false } = {}) {
    if (this.state && this.state.ply !== state.ply && this.board.magnifier) this.board.magnifier.reset();
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
    this.modeButton.textContent = this.modeText(on);
    this.say(on ? said(gettext("Barrier mode: tap near a line to place a barrier there."),
      gettext("Wall mode: tap near a line to place a wall there.")) : "");
  }

  modeText(on) {
    return on ? said(gettext("Barrier mode: on"), gettext("Wall mode: on")) : said(gettext("Barrier mode: off"), gettext("Wall mode: off"));
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
    const place = Object.assign(document.createElement("button"), { type: "button", id: "confirm-place", className: "btn small", textContent: gettext("Place") });
    const cancel = Object.assign(document.createElement("button"), { type: "button", id: "confirm-cancel", className: "btn secondary small", textContent: gettext("Cancel") });
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
    const words = { move: formatAction(action), reason };
    if (reason !== null) {
      this.say(interpolate(action.type === "move" ? gettext("You can't move to %(move)s: %(reason)s.")
        : said(gettext("You can't place a barrier at %(move)s: %(reason)s."), gettext("You can't place a wall at %(move)s: %(reason)s.")), words), "error");
      return;
    }
    this.cancel();
    if (this.board.magnifier) this.board.magnifier.reset();
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
    const words = { move: formatAction(action) };
    const placeIt = () => interpolate(said(gettext("Click to place a barrier at %(move)s."), gettext("Click to place a wall at %(move)s.")), words);
    if (ok) { this.say(placeIt()); return; }
    this.hoverTimer = setTimeout(async () => {
      const reason = await this.reason(action);
      // the pointer may have moved on meanwhile: answer only for the barrier still shown
      const shown = this.el.querySelector(".preview line");
      if (!shown || `${shown.dataset.at},${shown.dataset.orientation}` !== barrierKey(barrier)) return;
      this.board.setPreview(barrier, reason === null);
      this.say(reason === null ? placeIt() : this.notAllowed(action, reason), reason === null ? "" : "error");
    }, 120);
  }

  async askConfirm(barrier) {
    const action = { type: "barrier", ...barrier };
    if (!this.myTurn) { this.emit("action", action); return; }
    const reason = this.isLegal(action) ? null : await this.reason(action);
    this.board.setPreview(barrier, reason === null);
    if (reason !== null) { this.say(this.notAllowed(action, reason), "error"); return; }
    this.pending = action;
    this.say("");  // an older refusal must not stand beside the question
    // As the player sees it: a quarter-turned board shows H barriers upright.
    const flat = (barrier.orientation === "H") === (this.board.k % 2 === 0);
    this.confirmText.textContent = interpolate(flat
      ? said(gettext("Place a horizontal barrier at %(move)s?"), gettext("Place a horizontal wall at %(move)s?"))
      : said(gettext("Place a vertical barrier at %(move)s?"), gettext("Place a vertical wall at %(move)s?")), { move: formatAction(action) });
    this.bar.hidden = false;
    this.confirmPlace.focus();
  }

  notAllowed(action, reason) {
    return interpolate(said(gettext("Barrier %(move)s is not allowed: %(reason)s."), gettext("Wall %(move)s is not allowed: %(reason)s.")),
      { move: formatAction(action), reason });
  }
}
