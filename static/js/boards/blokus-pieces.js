// Blokus pieces, notation and scores for the page: the parts of the blokus board module
// that need no DOM. The notation is the engine's (games/engine/blokus/notation.py):
// "L5/0@a0" = piece / orientation index / anchor (the top-left corner of the oriented
// piece's bounding box, column letter then row). The orientation order is computed here
// exactly as the engine's pieces.py does (three clockwise quarter turns, then the mirror
// image and its turns, duplicates dropped); the board itself indexes the orientations the
// server ships in the spec, and the tests check the two agree.

import { cellName } from "./cells.js";
import { formatNumber } from "../i18n.js";
import { eventSentence, gettext, interpolate, ngettext } from "./words.js";

export const DRAWINGS = [
  ["I1", "#"], ["I2", "##"], ["I3", "###"], ["V3", "#./##"], ["I4", "####"],
  ["L4", "#../###"], ["T4", "###/.#."], ["O4", "##/##"], ["Z4", "##./.##"],
  ["F", ".##/##./.#."], ["I5", "#####"], ["L5", "#.../####"], ["N", "##../.###"],
  ["P", "##/##/#."], ["T5", "###/.#./.#."], ["U", "#.#/###"], ["V5", "#../#../###"],
  ["W", "#../##./.##"], ["X", ".#./###/.#."], ["Y", "####/.#.."], ["Z5", "##./.#./.##"],
];
export const NAMES = DRAWINGS.map(([name]) => name);

function parseDrawing(drawing) {
  const cells = [];
  drawing.split("/").forEach((line, r) => [...line].forEach((ch, c) => { if (ch === "#") cells.push([r, c]); }));
  return cells;
}

const byRowCol = (a, b) => a[0] - b[0] || a[1] - b[1];
export const sortCells = (cells) => cells.map(([r, c]) => [r, c]).sort(byRowCol);
export const cellsKey = (cells) => sortCells(cells).map(([r, c]) => `${r},${c}`).join(";");

// Shift cells so the top row and left column are 0, sorted row-major (pieces.normalise).
export function normalise(cells) {
  const r0 = Math.min(...cells.map((p) => p[0]));
  const c0 = Math.min(...cells.map((p) => p[1]));
  return cells.map(([r, c]) => [r - r0 + 0, c - c0 + 0]).sort(byRowCol);
}

export const turnCW = (cells) => cells.map(([r, c]) => [c, -r]);
export const mirror = (cells) => cells.map(([r, c]) => [r, -c]);

function orientationsOf(shape) {
  const found = [];
  const keys = new Set();
  for (const mirrored of [false, true]) {
    let pts = mirrored ? mirror(shape) : shape;
    for (let i = 0; i < 4; i++) {
      const norm = normalise(pts);
      const k = cellsKey(norm);
      if (!keys.has(k)) { keys.add(k); found.push(norm); }
      pts = turnCW(pts);
    }
  }
  return found;
}

export const ORIENTATIONS = Object.fromEntries(DRAWINGS.map(([name, d]) => [name, orientationsOf(parseDrawing(d))]));
export const SIZES = Object.fromEntries(DRAWINGS.map(([name, d]) => [name, parseDrawing(d).length]));
const ORIENT_INDEX = Object.fromEntries(NAMES.map((name) => [name,
  new Map(ORIENTATIONS[name].map((cells, i) => [cellsKey(cells), i]))]));

// The orientation index and anchor of a placement, or null when the cells are not a shape
// of the piece.
export function placementOf(piece, cells) {
  if (!ORIENT_INDEX[piece] || !Array.isArray(cells) || !cells.length) return null;
  const orient = ORIENT_INDEX[piece].get(cellsKey(normalise(cells)));
  if (orient === undefined) return null;
  return { orient, anchor: [Math.min(...cells.map((p) => p[0])), Math.min(...cells.map((p) => p[1]))] };
}

export { cellName };
const LEAVES = new Set(["resign", "timeout", "removed"]);

export function formatAction(action, seat) {
  if (!action) return "";
  if (action.type === "pass") return "pass";
  if (LEAVES.has(action.type)) return `${action.type}:${action.seat ?? seat ?? ""}`;
  if (action.type === "place") {
    const at = placementOf(action.piece, action.cells);
    if (at) return `${action.piece}/${at.orient}@${cellName(at.anchor)}`;
  }
  return JSON.stringify(action);
}

const capital = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

export function describe(action, seatName) {
  const who = capital(seatName || gettext("A player"));
  if (!action) return who;
  if (action.type === "pass") return interpolate(gettext("%(seat)s passed: no piece fits any more, that colour is out"), { seat: who });
  if (LEAVES.has(action.type)) return eventSentence(action, who);
  if (action.type === "place") {
    const at = placementOf(action.piece, action.cells);
    const n = action.cells.length;
    const words = { seat: who, piece: action.piece, count: n, cell: at ? cellName(at.anchor) : "" };
    return interpolate(at ? ngettext("%(seat)s placed %(piece)s (%(count)s square) at %(cell)s", "%(seat)s placed %(piece)s (%(count)s squares) at %(cell)s", n)
      : ngettext("%(seat)s placed %(piece)s (%(count)s square) on the board", "%(seat)s placed %(piece)s (%(count)s squares) on the board", n), words);
  }
  return interpolate(gettext("%(seat)s played %(move)s"), { seat: who, move: formatAction(action) });
}

const PLACE = /^([A-Z][1-5]?)\/([0-7])@([a-t])(0|[1-9][0-9]?)$/;

// Typed notation -> action; a pass or leaving is never typed (the server records passes).
export function parseNotation(text) {
  const m = PLACE.exec(String(text ?? "").trim());
  if (!m) return null;
  const [, piece, o, col, row] = m;
  const shapes = ORIENTATIONS[piece];
  if (!shapes || Number(o) >= shapes.length) return null;
  const r0 = Number(row), c0 = col.charCodeAt(0) - 97;
  if (r0 > 19) return null;
  return { type: "place", piece, cells: shapes[Number(o)].map(([r, c]) => [r + r0, c + c0]) };
}

export const notationHelp = gettext("A move is piece/orientation@anchor: L5/0@a0 puts L5 as drawn with its box's top-left on a0 (letters are columns, numbers rows).");
export const notationPlaceholder = gettext("Type a move: L5/0@a0");

// A colour's score: -1 per square in hand; +15 with every piece placed, +5 more if the
// last one was I1.
export function colourScore(state, colour, spec) {
  const hand = state.hands[colour] || [];
  if (hand.length) return -hand.reduce((sum, name) => sum + (SIZES[name] || 0), 0);
  const bonus = (spec && spec.bonus) || { all_placed: 15, i1_last: 5 };
  return bonus.all_placed + (state.last_piece && state.last_piece[colour] === "I1" ? bonus.i1_last : 0);
}

export function seatColours(spec, seat) {
  const s = spec.seats[seat];
  return s && s.colour_ids ? s.colour_ids : [seat];
}

export function seatNotes(state, seat, spec) {
  if (!state || !state.hands) return [];
  const colours = seatColours(spec, seat);
  const score = (n) => interpolate(gettext("score %(score)s"), { score: formatNumber(n) });
  const one = (c) => {
    const left = state.hands[c].length;
    return [interpolate(ngettext("%(count)s piece left", "%(count)s pieces left", left), { count: left }),
      ...(state.out && state.out[c] ? [gettext("out")] : [])];
  };
  if (colours.length === 1) return [score(colourScore(state, colours[0], spec)), ...one(colours[0])];
  const total = colours.reduce((sum, c) => sum + colourScore(state, c, spec), 0);
  return [score(total), ...colours.map((c) => {
    const words = { colour: spec.colours[c].name, score: formatNumber(colourScore(state, c, spec)), left: state.hands[c].length };
    return interpolate(state.out && state.out[c] ? gettext("%(colour)s %(score)s (%(left)s left, out)")
      : gettext("%(colour)s %(score)s (%(left)s left)"), words);
  })];
}
