// The replay page's analysis card (docs/web.md, "Analysis"): a chart of every seat's
// measure per ply (GET /api/games/{id}/analysis/; the engine says what it counts) that
// jumps to a ply on click or with the keys, and "Show best move", which asks
// GET /api/games/{id}/analysis/{ply}/best/ and draws the answer with the board module's
// `highlight(action)`. Nothing here knows a game kind: names, colours and the measure
// come from the spec and the API.

import { el, get } from "./api.js";
import { formatNumber, gettext, interpolate } from "./i18n.js";
import { chip, levelName } from "./panel.js";
import { svg } from "./boards/dom.js";

const W = 400, H = 150, PAD = { left: 30, right: 12, top: 10, bottom: 22 };
const DASHES = [null, "6 3", "2 3", "9 3 2 3"]; // seats differ by more than their colour
const capital = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
const value = (v) => (v === null || v === undefined ? null : formatNumber(v));

// card: the page's #analysis section; board: the board view; states: the page's states
// (one per ply); onPick(ply): show that ply. Returns { show(ply) } for the page to call
// whenever the shown ply changes.
export function createAnalysis(card, { game, spec, board, states, onPick }) {
  const $ = (sel) => card.querySelector(sel);
  const chartBox = $("#analysis-chart"), legend = $("#analysis-legend");
  const button = $("#best-move"), reasonLine = $("#best-reason"), note = $("#analysis-note");
  const best = new Map(); // ply -> the answer, or a promise of it
  let chart = null, series = null, measure = spec.measure, ply = 0, shown = false;

  const say = (line, text, kind = "") => { line.textContent = text; line.classList.toggle("error", kind === "error"); };

  function clearBest() {
    shown = false;
    if (board.highlight) board.highlight(null);
    button.textContent = gettext("Show best move");
    button.setAttribute("aria-pressed", "false");
    say(reasonLine, "");
  }

  function show(n) {
    ply = n;
    clearBest();
    const over = !states[n] || states[n].turn === null || states[n].turn === undefined;
    button.disabled = over || button.dataset.refused === "true";
    if (over) say(reasonLine, gettext("Nobody is to move in this position."));
    if (chart) chart.mark(n);
    renderLegend();
  }

  function renderLegend() {
    if (!series) return;
    const row = series[Math.min(ply, series.length - 1)] || [];
    legend.replaceChildren(...spec.seats.map((s, seat) => el("li", { "data-seat": seat },
      chip(spec, seat), el("span", { class: "name" }, s.name),
      el("span", { class: "value" }, value(row[seat]) ?? "–"))));
  }

  async function showBest() {
    if (shown) { clearBest(); return; }
    const at = ply;
    button.disabled = true;
    button.textContent = gettext("Thinking…");
    if (!best.has(at)) best.set(at, get(`/api/games/${game.id}/analysis/${at}/best/`));
    const answer = await best.get(at);
    if (!answer.ok) best.delete(at); // a refusal or a network error may pass; ask again later
    if (at !== ply) return; // the replay moved on meanwhile
    button.disabled = false;
    button.textContent = gettext("Show best move");
    if (!answer.ok) {
      say(reasonLine, (answer.data && answer.data.detail) || gettext("The best move is not available."), "error");
      return;
    }
    const found = answer.data;
    const who = spec.seats[found.seat] ? spec.seats[found.seat].name : interpolate(gettext("Seat %(number)s"), { number: found.seat + 1 });
    if (board.highlight) board.highlight(found.action);
    shown = true;
    button.textContent = gettext("Hide best move");
    button.setAttribute("aria-pressed", "true");
    const words = { seat: who, level: levelName(found.level), move: found.notation, reason: found.reason };
    say(reasonLine, found.reason
      ? interpolate(gettext("Best move for %(seat)s (%(level)s computer): %(move)s (%(reason)s)."), words)
      : interpolate(gettext("Best move for %(seat)s (%(level)s computer): %(move)s."), words));
  }

  button.addEventListener("click", showBest);

  (async () => {
    const answer = await get(`/api/games/${game.id}/analysis/`);
    if (!answer.ok) {
      const refused = answer.data && answer.data.code === "no_analysis_in_ranked";
      chartBox.replaceChildren();
      say(note, refused ? gettext("Analysis opens when this ranked game is over.") : gettext("The analysis is not available right now."));
      if (refused) { button.dataset.refused = "true"; button.disabled = true; }
      return;
    }
    measure = answer.data.measure || measure;
    series = answer.data.series.slice(0, states.length); // the page's positions, no later
    chart = drawChart(chartBox, { spec, series, measure, onPick });
    chart.mark(ply);
    renderLegend();
    say(note, interpolate(measure.higher_is_better
      ? gettext("%(measure)s per ply, more is better (drawn higher). Click the chart to go to a ply.")
      : gettext("%(measure)s per ply, fewer is better (drawn higher). Click the chart to go to a ply."), { measure: capital(measure.name) }));
  })();

  return { show };
}

// The chart: one line per seat (its darker colour, its own dash), a mark on the shown ply.
// A click or tap goes to the nearest ply; focused, the arrow keys, Page Up/Down, Home and
// End move along it (a slider to assistive technology, its value read out per seat).
function drawChart(box, { spec, series, measure, onPick }) {
  const max = Math.max(1, series.length - 1);
  const values = series.flat().filter((v) => v !== null && v !== undefined);
  let lo = values.length ? Math.min(...values) : 0, hi = values.length ? Math.max(...values) : 1;
  if (lo === hi) { lo -= 1; hi += 1; }
  const plotW = W - PAD.left - PAD.right, plotH = H - PAD.top - PAD.bottom;
  const x = (p) => PAD.left + (p / max) * plotW;
  // up is better: fewer steps to goal climb, as a higher score does
  const y = (v) => PAD.top + (measure.higher_is_better ? (hi - v) : (v - lo)) / (hi - lo) * plotH;
  const name = capital(measure.name);
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "analysis-chart", role: "slider", tabindex: "0",
    "aria-label": interpolate(gettext("%(measure)s per ply for every seat. Arrow keys, Page Up, Page Down, Home and End go to a ply."), { measure: name }),
    "aria-valuemin": 0, "aria-valuemax": series.length - 1, "data-plies": series.length,
  });
  root.append(svg("title", {}, interpolate(gettext("%(measure)s per ply"), { measure: name })));
  root.append(svg("rect", { class: "plot", x: PAD.left, y: PAD.top, width: plotW, height: plotH, fill: "#f8fafc", stroke: "#e2e8f0" }));
  const axis = { "font-size": 10, fill: "#475569" };
  const top = measure.higher_is_better ? hi : lo, bottom = measure.higher_is_better ? lo : hi;
  root.append(
    svg("text", { ...axis, x: PAD.left - 4, y: PAD.top + 8, "text-anchor": "end" }, formatNumber(top)),
    svg("text", { ...axis, x: PAD.left - 4, y: PAD.top + plotH, "text-anchor": "end" }, formatNumber(bottom)),
    svg("text", { ...axis, x: PAD.left, y: H - 6 }, "0"),
    svg("text", { ...axis, x: PAD.left + plotW, y: H - 6, "text-anchor": "end" }, interpolate(gettext("ply %(ply)s"), { ply: series.length - 1 })));
  const dots = series.length <= 160;
  spec.seats.forEach((s, seat) => {
    const pts = [];
    series.forEach((row, p) => { if (row[seat] !== null && row[seat] !== undefined) pts.push([p, row[seat]]); });
    const g = svg("g", { class: "series", "data-seat": seat });
    g.append(svg("title", {}, `${s.name}: ${measure.name}`)); // names from the server
    g.append(svg("polyline", {
      points: pts.map(([p, v]) => `${x(p).toFixed(1)},${y(v).toFixed(1)}`).join(" "), fill: "none",
      stroke: s.text || s.colour, "stroke-width": 2, "stroke-dasharray": DASHES[seat % DASHES.length],
      "stroke-linejoin": "round",
    }));
    if (dots) for (const [p, v] of pts) g.append(svg("circle", { class: "point", "data-ply": p, "data-seat": seat, cx: x(p), cy: y(v), r: 2.2, fill: s.text || s.colour }));
    if (pts.length) {
      const [p, v] = pts[pts.length - 1];
      g.append(svg("text", { x: Math.min(x(p) + 3, W - 9), y: y(v) + 3, "font-size": 9, "font-weight": 700, fill: s.text || s.colour, "aria-hidden": "true" }, s.initial));
    }
    root.append(g);
  });
  const cursor = svg("line", { class: "current", y1: PAD.top, y2: PAD.top + plotH, stroke: "#0f172a", "stroke-width": 1.5, "stroke-dasharray": "3 2" });
  root.append(cursor);
  box.replaceChildren(root);

  let current = 0;
  const go = (p) => onPick(Math.max(0, Math.min(series.length - 1, p)));
  root.addEventListener("click", (e) => {
    const ctm = root.getScreenCTM();
    if (!ctm) return;
    const pt = root.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    const px = pt.matrixTransform(ctm.inverse()).x;
    go(Math.round(((px - PAD.left) / plotW) * max));
  });
  root.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowLeft: current - 1, ArrowDown: current - 1, ArrowRight: current + 1, ArrowUp: current + 1,
      PageDown: current - 10, PageUp: current + 10, Home: 0, End: series.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    e.stopPropagation(); // the page's own arrow keys would step a second time
    go(to);
  });

  return {
    el: root,
    mark(p) {
      current = Math.max(0, Math.min(series.length - 1, p));
      cursor.setAttribute("x1", x(current));
      cursor.setAttribute("x2", x(current));
      cursor.dataset.ply = String(current);
      const row = series[current] || [];
      root.setAttribute("aria-valuenow", current);
      root.setAttribute("aria-valuetext", interpolate(gettext("Ply %(ply)s: %(values)s"), { ply: current,
        values: spec.seats.map((s, seat) => `${s.name} ${value(row[seat]) ?? gettext("none")}`).join(", ") }));
    },
  };
}
