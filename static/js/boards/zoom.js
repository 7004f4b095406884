// A magnified view for boards whose squares are smaller than a fingertip (a 20x20 Blokus
// board or an 11x11 Bloqueio board on a phone). The whole board fits the screen; on a
// touch screen, when its squares measure under MIN_PX, a tap magnifies the part around
// it (the SVG's viewBox narrows, so the board keeps its place and size on the page) until
// squares measure TARGET_PX, and the next tap there is the move (a board may play a tap on
// a highlighted square at once: Bloqueio's pawn moves). "Whole board" (or a
// played move) shows all of it again; the board module puts that button among its tools. Pointer mapping goes through getScreenCTM, so every
// board's hit test reads the magnified view unchanged.

import { gettext } from "../i18n.js";

export const MIN_PX = 40;
const TARGET_PX = 48;

export class Magnifier {
  // el: the board's <svg>; size: its viewBox side; cell: one square in viewBox units.
  constructor(el, size, cell) {
    this.el = el;
    this.size = size;
    this.cell = cell;
    this.zoomed = false;
    this.button = document.createElement("button");
    Object.assign(this.button, { type: "button", className: "btn small zoom-out", textContent: gettext("Whole board"), hidden: true });
    this.button.addEventListener("click", () => this.reset());
    // the board's page puts the button among its tools (beside the board, never over it)
  }

  // A square's side on screen, in CSS pixels, in the view shown now.
  squarePx() {
    const shown = this.zoomed ? this.el.viewBox.baseVal.width : this.size;
    return (this.el.getBoundingClientRect().width * this.cell) / shown;
  }

  // Whether a tap should magnify first rather than play: squares too small for a finger.
  wanted() { return !this.zoomed && this.squarePx() < MIN_PX; }

  zoomAt(clientX, clientY) {
    const rect = this.el.getBoundingClientRect();
    const scale = rect.width / this.size; // CSS px per viewBox unit, whole board
    const side = Math.min(this.size, (rect.width * this.cell) / TARGET_PX);
    const ux = (clientX - rect.left) / scale, uy = (clientY - rect.top) / scale;
    const clamp = (v) => Math.max(0, Math.min(this.size - side, v - side / 2));
    this.el.setAttribute("viewBox", `${clamp(ux)} ${clamp(uy)} ${side} ${side}`);
    this.zoomed = true;
    this.el.classList.add("zoomed");
    this.button.hidden = false;
  }

  reset() {
    if (!this.zoomed) return;
    this.el.setAttribute("viewBox", `0 0 ${this.size} ${this.size}`);
    this.zoomed = false;
    this.el.classList.remove("zoomed");
    this.button.hidden = true;
  }
}
