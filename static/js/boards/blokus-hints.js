// What the Blokus board draws over the position besides the ghost: the analysis' best
// move (a dashed outline) and, in hint mode, every square the picked piece can cover in
// some legal placement (lighter) and as it is turned now (darker). Functions of the
// board (blokus.js), kept apart to keep that module small.

import { cellsKey, formatAction, normalise } from "./blokus-pieces.js";
import { keep, svg } from "./dom.js";
import { gettext, interpolate } from "./words.js";

const key = ([r, c]) => `${r},${c}`;

// A suggested placement (the analysis' best move), drawn until the next call: the
// piece's squares in the colour to move, outlined and dashed; null or a pass: nothing.
export function drawSuggestion(b, action) {
  const layer = b.layers.suggest;
  layer.replaceChildren();
  layer.removeAttribute("data-type");
  if (!action || action.type !== "place" || !Array.isArray(action.cells) || !b.state) return;
  layer.dataset.type = action.type;
  const { cell, ink } = b.L;
  const colour = b.state.colour !== null && b.state.colour !== undefined ? b.colourOf(b.state.colour) : null;
  const g = svg("g", { class: "suggest", "data-piece": action.piece, "data-cells": cellsKey(action.cells) });
  g.append(svg("title", {}, interpolate(gettext("Suggested: %(move)s"), { move: formatAction(action) })));
  for (const p of action.cells) {
    const [x, y] = b.xy(b.cellToDisplay(p));
    g.append(svg("rect", { x: x + 1.5, y: y + 1.5, width: cell - 3, height: cell - 3, rx: 3,
      fill: colour ? colour.colour : ink, "fill-opacity": 0.6 }));
  }
  const inside = new Set(action.cells.map(key));
  g.append(svg("path", { d: b.edges(action.cells, (r, c) => inside.has(key([r, c]))).join(""), fill: "none",
    stroke: ink, "stroke-width": 3, "stroke-dasharray": "6 4", "stroke-linecap": "round" }));
  layer.append(g);
}

// Every square the picked piece can cover in some legal placement (lighter), and those
// it can cover as it is turned now (darker).
function hintCells(b, piece) {
  if (!b.hintCache.has(piece)) {
    const all = new Set(), byOrient = new Map();
    const oi = b.orientIndex[b.pieceIndex[piece]];
    for (const a of b.byPiece.get(piece) || []) {
      const o = oi.get(cellsKey(normalise(a.cells)));
      if (!byOrient.has(o)) byOrient.set(o, new Set());
      for (const p of a.cells) { all.add(key(p)); byOrient.get(o).add(key(p)); }
    }
    b.hintCache.set(piece, { all, byOrient });
  }
  return b.hintCache.get(piece);
}

export function drawHints(b) {
  const lit = b.hints && b.myTurn && b.pick ? hintCells(b, b.pick.piece) : null;
  const now = lit ? lit.byOrient.get(b.pick.orient) || new Set() : null;
  const { cell } = b.L;
  const dots = [];
  for (const [k, node] of b.cellNodes) {
    const on = Boolean(lit && lit.all.has(k)), strong = Boolean(now && now.has(k));
    node.classList.toggle("hint", on);
    node.classList.toggle("hint-now", strong);
    if (!on) continue;
    const [x, y] = b.xy(b.cellToDisplay(k.split(",").map(Number)));
    dots.push([`${k}|${strong}`, () => svg("circle", { class: `hint-dot${strong ? " now" : ""}`, cx: x + cell / 2, cy: y + cell / 2, r: strong ? 5.5 : 3 })]);
  }
  keep(b.layers.hint, dots);
  if (b.tray) b.tray.markFits();
}
