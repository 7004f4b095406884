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

// The board's own word for a barrier: "barrier" on Bloqueio boards, "wall" on Quoridor's
// (the spec's `words`, games/boards/barrier.py); set by the view, one kind a page.
let WALL = "barrier";
const Wall = () => WALL[0].toUpperCase() + WALL.slice(1);

export function describe(action, seatName) {
  switch (action.type) {
    case "move": return `${seatName} moved to ${cellName(action.to)}`;
    case "barrier":
      return `${seatName} placed a ${action.orientation === "H" ? "horizontal" : "vertical"} ${WALL} at ${cellName(action.at)}`;
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
    .replace(/\b(H|V) at \[(\d+),\s*(\d+)\]/g, (_, o, r, c) => `${WALL} ${cellName([Number(r), Number(c)])}${o.toLowerCase()}`));
}
export const notationPlaceholder = "Type a move: f2, e3h";

export function seatNotes(state, seat) {
  const left = state.barriers_left ? state.barriers_left[seat] : null;
  return left === null || left === undefined ? [] : [`${left} ${WALL}${left === 1 ? "" : "s"}`];
}

// -- the view: the page's board-module interface --------------------------------------------

export function createBoard(container, spec, { seat = null, interactive = false, label = "" } = {}) {
  return new BarrierView(container, spec, { seat, interactive, label });
}

class BarrierView {
  constructor(container, spec, { seat, interactive, label }) {
    this.spec = spec;
    WALL = (spec.words && spec.words.wall) || "barrier";
    this.handlers = {};
    this.check = async () => ({ ok: true, reason: null });
    this.touch = isTouch();
    this.turnHint = `Your turn: ${this.touch ? "tap" : "click"} a highlighted cell, or a groove for a ${WALL}.`;
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
        ? `${label || spec.title} board, ${who}.${this.touch ? "" : " Arrow keys move the cursor, Enter moves there, H or V previews a ${WALL}."}`
        : (label || `${spec.title} board`),
    });
    this.el = this.board.el;
    if (!interactive) return;
    this.bar = this.confirmBar();
    this.modeButton = Object.assign(document.createElement("button"), {
      type: "button", id: "barrier-mode", className: "btn secondary small",
      textContent: `${Wall()} mode: off`,
    });
    this.modeButton.setAttribute("aria-pressed", "false");
    this.modeButton.title = `On a phone: every tap places a ${WALL} on the nearest groove (asks to confirm)`;
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
      // the band in the seat's colour outside the board (spec.words.wall says which).
      legend.textContent = `You are ${me.name} (${me.initial}): your goal is the far side of the board, `
        + (WALL === "barrier" ? `the cells marked ${me.initial}. ` : "the band in your colour beyond it. ")
        + `${Wall()}s show their owner when you point at them.`;
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
    this.modeButton.textContent = `${Wall()} mode: ${on ? "on" : "off"}`;
    this.say(on ? `${Wall()} mode: tap near a line to place a ${WALL} there.` : "");
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
      this.say(`${action.type === "move" ? "You can't move to" : `You can't place a ${WALL} at`} ${text}: ${reason}.`, "error");
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
    const text = formatAction(action);
    if (ok) { this.say(`Click to place a ${WALL} at ${text}.`); return; }
    this.hoverTimer = setTimeout(async () => {
      const reason = await this.reason(action);
      // the pointer may have moved on meanwhile: answer only for the barrier still shown
      const shown = this.el.querySelector(".preview line");
      if (!shown || `${shown.dataset.at},${shown.dataset.orientation}` !== barrierKey(barrier)) return;
      this.board.setPreview(barrier, reason === null);
      this.say(reason === null ? `Click to place a ${WALL} at ${text}.` : `${Wall()} ${text} is not allowed: ${reason}.`, reason === null ? "" : "error");
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
    this.confirmText.textContent = `Place a ${flat ? "horizontal" : "vertical"} ${WALL} at ${formatAction(action)}?`;
    this.bar.hidden = false;
    this.confirmPlace.focus();
  }
}
