// The game page's "Board:" choice (issue 45, item 11): turned to the viewer's seat (the
// default: your pawn or colour starts at the bottom) or as the rules page draws it (a0 in
// the top left), remembered per browser. Cell names never change, only the picture; the
// legend beside the choice says which way the edge labels run on the board shown, so a
// turned board's "k … a" along the top reads as meant (docs/web.md, "Rotation").

import { gettext, interpolate } from "./i18n.js";

const KEY = "board-view"; // "turned" (or nothing) | "rules"

export function turnedView() {
  try { return localStorage.getItem(KEY) !== "rules"; } catch (e) { return true; /* no storage */ }
}

export function rememberView(turned) {
  try { localStorage.setItem(KEY, turned ? "turned" : "rules"); } catch (e) { /* this page only */ }
}

// "a → k": the first and last label along one edge of the drawn board.
function run(svgEl, edge) {
  const labels = [...svgEl.querySelectorAll(`text.label[data-edge="${edge}"]`)].map((t) => t.textContent);
  return labels.length ? `${labels[0]} → ${labels[labels.length - 1]}` : "";
}

// The legend for the board shown: where a0 is and how the labels run along each edge.
export function legendText(svgEl) {
  const words = { top: run(svgEl, "top"), left: run(svgEl, "left") };
  return Number(svgEl.dataset.rotation) === 0
    ? interpolate(gettext("As on the rules page: a0 in the top left; along the top %(top)s, down the left %(left)s."), words)
    : interpolate(gettext("Turned to your seat: along the top %(top)s, down the left %(left)s. Cell names stay those of the rules page."), words);
}
