// DOM helpers every board module draws with.

const NS = "http://www.w3.org/2000/svg";

// An SVG element with attributes (null/undefined ones left out) and optional text.
export function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined) continue;
    if (k === "style") node.style.cssText = v; // the CSSOM: a style="" attribute breaks the CSP
    else node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

// Make `layer` hold one node per [id, make] pair, in order, reusing the nodes it already
// holds for the same ids (a node's id says everything it draws), so a repaint never
// detaches what a pointer, a screen reader or a test is holding.
export function keep(layer, wanted) {
  const old = new Map([...layer.children].map((n) => [n.dataset.keep, n]));
  const nodes = wanted.map(([id, make]) => {
    const node = old.get(id) || make();
    node.dataset.keep = id;
    return node;
  });
  const same = nodes.length === layer.children.length && nodes.every((n, i) => layer.children[i] === n);
  if (!same) layer.replaceChildren(...nodes);
}

// A touch screen (a finger, no hover): boards say "tap" there and show no keyboard hints.
export const isTouch = () => typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches;

// The coordinate labels along the top and left edges of a square board shown turned
// `board.k` quarter turns: the game's own letters and numbers, wherever they land.
export function edgeLabels(layer, board, fill, gap = 6) {
  const { cell, margin } = board.L;
  const letters = (c) => String.fromCharCode(97 + c);
  for (let d = 0; d < board.n; d++) {
    const top = board.displayToCell([0, d]);
    const left = board.displayToCell([d, 0]);
    const colLabel = board.k % 2 === 0 ? letters(top[1]) : String(top[0]);
    const rowLabel = board.k % 2 === 0 ? String(left[0]) : letters(left[1]);
    const mid = margin + d * cell + cell / 2;
    layer.append(svg("text", { x: mid, y: margin - 7, "text-anchor": "middle", "font-size": 11, fill, class: "label", "data-edge": "top" }, colLabel));
    layer.append(svg("text", { x: margin - gap, y: mid + 4, "text-anchor": "end", "font-size": 11, fill, class: "label", "data-edge": "left" }, rowLabel));
  }
}
