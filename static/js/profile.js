// The profile page: a rating-history chart (SVG) per kind the player has a rating in,
// from GET /api/users/{username}/rating-history/{kind}/ ([{game, at, rating}]).
// Says "not available" when the server has no rating history yet (404). A bot's
// ratings (data.bot, its level) come from its casual games against people.

import { el, get, readData } from "./api.js";
import { formatDate, formatNumber, gettext, interpolate, ngettext } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const data = readData("profile-data");
const box = document.getElementById("charts");
const LABELS = readData("kind-labels"); // kind -> the game's name (engine KindInfo.title)

function s(tag, attrs, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

export function chart(points, label) {
  const W = 560, H = 180, P = { l: 44, r: 12, t: 12, b: 24 };
  const ys = points.map((p) => p.rating);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 20) { lo -= 10; hi += 10; }
  const x = (i) => P.l + (points.length === 1 ? (W - P.l - P.r) / 2 : (i * (W - P.l - P.r)) / (points.length - 1));
  const y = (v) => P.t + ((hi - v) * (H - P.t - P.b)) / (hi - lo);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, class: "rating-chart" });
  for (const v of [lo, (lo + hi) / 2, hi]) {
    svg.append(s("line", { x1: P.l, x2: W - P.r, y1: y(v), y2: y(v), stroke: "#e2e8f0" }));
    svg.append(s("text", { x: P.l - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#475569" }, formatNumber(Math.round(v))));
  }
  svg.append(s("polyline", {
    points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "),
    fill: "none", stroke: "#4338ca", "stroke-width": 2.5, "stroke-linejoin": "round",
  }));
  points.forEach((p, i) => {
    const dot = s("circle", { cx: x(i), cy: y(p.rating), r: 3.5, fill: "#4338ca" });
    dot.append(s("title", {}, interpolate(p.at ? gettext("Game #%(game)s, %(date)s: %(rating)s") : gettext("Game #%(game)s: %(rating)s"),
      { game: p.game, date: p.at ? formatDate(p.at) : "", rating: formatNumber(Math.round(p.rating)) })));
    svg.append(dot);
  });
  svg.append(s("text", { x: P.l, y: H - 6, "font-size": 11, fill: "#475569" },
    interpolate(ngettext("%(count)s rated game", "%(count)s rated games", points.length), { count: formatNumber(points.length) })));
  return svg;
}

function kindsOf(ratings) {
  if (Array.isArray(ratings)) return ratings.map((r) => r.kind).filter(Boolean);
  if (ratings && typeof ratings === "object") return Object.keys(ratings);
  return [];
}

async function load() {
  const kinds = kindsOf(data.ratings);
  if (!kinds.length) {
    box.replaceChildren(el("p", { class: "empty" }, data.bot ? gettext("No games against people yet.") : gettext("No rated games yet.")));
    return;
  }
  const parts = [];
  for (const kind of kinds) {
    const res = await get(`/api/users/${encodeURIComponent(data.username)}/rating-history/${encodeURIComponent(kind)}/`);
    if (res.status === 404) { parts.push(el("p", { class: "empty" }, gettext("Rating history is not available on this server yet."))); break; }
    const points = res.ok && Array.isArray(res.data) ? res.data : [];
    parts.push(el("h3", { class: "small" }, LABELS[kind] || kind));
    parts.push(points.length ? el("div", { class: "chart" }, chart(points, interpolate(gettext("Rating history, %(game)s"), { game: LABELS[kind] || kind })))
      : el("p", { class: "empty" }, gettext("No rated games of this kind yet.")));
  }
  box.replaceChildren(...parts);
}
load();
