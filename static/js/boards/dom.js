// DOM helpers every board module draws with.

const NS = "http://www.w3.org/2000/svg";

// An SVG element with attributes (null/undefined ones left out) and optional text.
export function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
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
