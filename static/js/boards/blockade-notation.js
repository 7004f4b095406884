// The blockade family's notation (blockade, blockade_run), the same as the engine's
// rules.format_action (docs/engine.md): formatting, parsing and the words of the move
// list. A bare cell means a placement in Blockade and a step in Blockade Run, so parsing
// asks which kind the page's board is (`useKind`, called by createBoard).

import { cellName } from "./cells.js";
import { eventSentence, gettext, interpolate, ngettext } from "./words.js";

export const RUN = "blockade_run";

let lastKind = null; // the kind of the board last created: a bare cell's meaning depends on it
export function useKind(kind) { lastKind = kind; }

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
