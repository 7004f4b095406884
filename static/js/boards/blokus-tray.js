// The Blokus board's tray and controls: the 21 pieces of one colour drawn to scale (the
// colour to move when it is the viewer's turn, else the viewer's next colour, greyed),
// each a button that picks it; placed pieces stay as faint outlines so every piece keeps
// its place. The controls rotate, flip, toggle hints, move the ghost (touch) and confirm.

import { NAMES, normalise, turnCW } from "./blokus-pieces.js";
import { keep, svg } from "./dom.js";
import { gettext, interpolate, ngettext } from "./words.js";

const UNIT = 10;

export function html(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "style") node.style.cssText = v; // the CSSOM: a style="" attribute breaks the CSP
    else node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined));
  return node;
}

const capital = (s) => s[0].toUpperCase() + s.slice(1);

function button(cls, text, label, onclick, extra = {}) {
  return html("button", { type: "button", class: `btn small secondary ${cls}`, "aria-label": label, title: label, onclick, ...extra }, text);
}

export class Tray {
  constructor(board) {
    this.b = board;
    const b = board;
    this.hintBtn = button("bk-hints", gettext("Hints"), gettext("Hints: light the squares the picked piece can cover (H)"), () => b.setHints(!b.hints), { "aria-pressed": "false" });
    this.rotateBtn = button("bk-rotate", `⟳ ${gettext("Rotate")}`, gettext("Rotate the piece clockwise (R)"), () => b.turnPiece("rotate"));
    this.flipBtn = button("bk-flip", `⇋ ${gettext("Flip")}`, gettext("Flip the piece (F)"), () => b.turnPiece("flip"));
    const arrow = (text, dir, label, dr, dc) => button("bk-move", text, label, () => b.moveGhost(dr, dc), { "data-dir": dir });
    this.arrows = html("span", { class: "bk-arrows", role: "group", "aria-label": gettext("Move the piece") },
      arrow("←", "left", gettext("Move the piece left"), 0, -1), arrow("↑", "up", gettext("Move the piece up"), -1, 0),
      arrow("↓", "down", gettext("Move the piece down"), 1, 0), arrow("→", "right", gettext("Move the piece right"), 0, 1));
    this.confirmBtn = html("button", { type: "button", class: "btn small bk-confirm", onclick: () => b.place() }, `✓ ${gettext("Confirm")}`);
    this.cancelBtn = button("bk-cancel", "✕", gettext("Drop the piece (Escape)"), () => { b.cancel(); b.say(""); });
    this.controls = html("div", { class: "bk-controls", role: "toolbar", "aria-label": gettext("Piece controls") },
      this.rotateBtn, this.flipBtn, this.arrows, this.confirmBtn, this.cancelBtn, this.hintBtn, b.magnifier.button);
    this.heading = html("p", { class: "bk-tray-head" });
    this.list = html("div", { class: "bk-pieces", role: "group", "aria-label": gettext("Pieces") });
    this.el = html("div", { class: "bk-side" }, this.controls, this.heading, this.list);
    this.colour = null;
  }

  // Whose pieces the tray shows.
  trayColour() {
    const { state, mine } = this.b;
    if (this.b.myTurn) return state.colour;
    const n = this.b.spec.colours.length;
    const from = state.colour ?? 0;
    for (let k = 0; k < n; k++) {
      const c = (from + k) % n;
      if (mine.includes(c) && state.hands[c].length) return c;
    }
    if (mine.length) return mine[0];
    return state.colour ?? null;
  }

  render() {
    const b = this.b;
    const colour = this.trayColour();
    this.colour = colour;
    this.el.hidden = colour === null;
    if (colour === null) return;
    const col = b.spec.colours[colour];
    const hand = new Set(b.state.hands[colour]);
    const left = hand.size;
    const words = { colour: capital(col.name), count: left };
    this.heading.replaceChildren(
      html("span", { class: "chip", style: `background:${col.colour};color:${(b.spec.initial_ink || [])[colour] || "#0f172a"}`, "aria-hidden": "true" }, col.initial),
      html("span", {}, interpolate(b.mine.includes(colour) ? gettext("Your %(colour)s pieces · %(count)s left")
        : gettext("%(colour)s's pieces · %(count)s left"), words)),
      ...(b.myTurn ? [] : [html("span", { class: "bk-waiting" }, this.idleText())]));
    this.list.classList.toggle("waiting", !b.myTurn);
    this.list.setAttribute("aria-label", interpolate(gettext("%(colour)s pieces"), words));
    const pick = b.pick;
    keep(this.list, NAMES.map((name) => {
      const orient = pick && pick.piece === name && b.myTurn ? pick.orient : 0;
      const used = !hand.has(name);
      return [`${colour}|${name}|${used}|${orient}|${b.k}`, () => this.pieceButton(name, orient, col, used)];
    }));
    for (const node of this.list.children) {
      const picked = Boolean(pick && b.myTurn && node.dataset.piece === pick.piece);
      node.classList.toggle("picked", picked);
      node.setAttribute("aria-pressed", picked ? "true" : "false");
      node.disabled = node.classList.contains("used");
    }
    this.markFits();
  }

  idleText() {
    const { state, mine } = this.b;
    if (state.colour === null || state.colour === undefined) return `· ${gettext("game over")}`;
    if (!mine.length) return `· ${gettext("watching")}`;
    return `· ${mine.includes(state.colour) ? gettext("loading…") : gettext("waiting for your turn")}`;
  }

  pieceButton(name, orient, col, used) {
    const b = this.b;
    const piece = b.spec.pieces[b.pieceIndex[name]];
    let cells = piece.orientations[orient];
    for (let i = 0; i < b.k; i++) cells = turnCW(cells);
    cells = normalise(cells);
    const h = Math.max(...cells.map((p) => p[0])) + 1, w = Math.max(...cells.map((p) => p[1])) + 1;
    const pic = svg("svg", { viewBox: `-1 -1 ${w * UNIT + 2} ${h * UNIT + 2}`, "aria-hidden": "true", focusable: "false", style: `--w:${w};--h:${h}` });
    for (const [r, c] of cells) {
      pic.append(svg("rect", { x: c * UNIT, y: r * UNIT, width: UNIT, height: UNIT, rx: 1.5,
        fill: used ? "none" : col.colour, stroke: used ? "var(--muted)" : col.text, "stroke-width": 1, "stroke-dasharray": used ? "2 2" : null }));
    }
    const label = used ? interpolate(gettext("%(piece)s, placed"), { piece: name })
      : interpolate(ngettext("%(piece)s, %(count)s square", "%(piece)s, %(count)s squares", piece.size), { piece: name, count: piece.size });
    return html("button", { type: "button", class: `bk-piece${used ? " used" : ""}`, "data-piece": name, "aria-label": label, title: label,
      onclick: () => { b.pickPiece(name); if (b.pick && !b.touch) b.el.focus({ preventScroll: true }); } },
      pic, html("span", { class: "bk-piece-name", "aria-hidden": "true" }, name), html("span", { class: "bk-fit", "aria-hidden": "true" }, "●"));
  }

  // In hint mode, a mark on every piece that still fits somewhere.
  markFits() {
    const b = this.b;
    const show = b.hints && b.myTurn;
    for (const node of this.list.children) {
      const fits = show && !node.classList.contains("used") && b.byPiece.has(node.dataset.piece);
      node.classList.toggle("fits", Boolean(fits));
      node.classList.toggle("nofit", Boolean(show && !fits && !node.classList.contains("used")));
      const base = node.dataset.label || node.getAttribute("aria-label");
      node.dataset.label = base;
      node.setAttribute("aria-label", show && !node.classList.contains("used")
        ? interpolate(fits ? gettext("%(piece)s, fits") : gettext("%(piece)s, does not fit"), { piece: base }) : base);
    }
  }

  syncControls(ok) {
    const b = this.b;
    this.controls.hidden = !b.myTurn;
    const none = !b.pick;
    for (const btn of [this.rotateBtn, this.flipBtn, this.cancelBtn, ...this.arrows.children]) btn.disabled = none;
    this.confirmBtn.disabled = none;
    this.confirmBtn.classList.toggle("bad", ok === false);
    this.confirmBtn.setAttribute("aria-label", ok === false ? gettext("Confirm: this placement is not allowed (shows why)") : gettext("Confirm: place the piece here (Enter)"));
    this.hintBtn.setAttribute("aria-pressed", b.hints ? "true" : "false");
    this.hintBtn.classList.toggle("on", b.hints);
  }
}

