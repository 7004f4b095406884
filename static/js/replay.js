// The replay viewer: every position of a game, from the state after each ply that the
// page embeds, drawn by the family's board module (docs/web.md). Buttons, slider, arrow
// keys and the move list all step; the URL's ?ply= follows, to share. The analysis card
// (static/js/analysis.js) charts every seat's measure and shows the best move on request.

import { createAnalysis } from "./analysis.js";
import { readData } from "./api.js";
import { gettext, interpolate } from "./i18n.js";
import { moveText, renderMoves, renderPlayers, renderResult, seatLabel } from "./panel.js";

const data = readData("replay-data");
const { spec, states, game } = data;
const family = await import(`./boards/${spec.script}.js`);
const max = states.length - 1;
const $ = (id) => document.getElementById(id);
const board = family.createBoard($("board"), spec, { label: interpolate(gettext("%(game)s replay board"), { game: data.label }) });
const slider = $("slider");
slider.max = String(max);
let ply = Math.max(0, Math.min(max, data.ply));
let thumbTimer = null;
const analysis = createAnalysis($("analysis"), { game, spec, board, states, onPick: (p) => show(p) });

// Who sat where at `n`: a seat a bot took over (data.handovers, at the game's ply then)
// is its player's before that ply, the bot's ("playing for ...") from it on.
function seatsAt(n) {
  return game.seats.map((s, seat) => {
    const h = (data.handovers || []).find((x) => x.seat === seat);
    return h && n < h.ply ? { ...s, username: h.replaced, rating: null, bot: null, replaced: null } : s;
  });
}

function show(n, { push = true } = {}) {
  ply = Math.max(0, Math.min(max, n));
  const state = states[ply];
  const last = ply > 0 ? data.events[ply - 1].action : null;
  board.render(state, { last });
  board.el.dataset.ply = ply;
  slider.value = String(ply);
  $("ply").textContent = interpolate(gettext("Ply %(ply)s of %(last)s"), { ply, last: max });
  const ev = ply > 0 ? data.events[ply - 1] : null;
  const played = ev && `${ply}. ${seatLabel(game, spec, ev.seat)}: ${moveText(ev)}`;
  $("replay-status").textContent = ply === 0 ? gettext("Starting position.")
    : state.turn !== null && ply < max
      ? interpolate(gettext("%(played)s · %(seat)s to move"), { played, seat: spec.seats[state.turn].name }) : played;
  renderPlayers($("players"), { ...game, seats: seatsAt(ply), status: ply === max ? game.status : "active" }, spec, {
    state, notes: (st, seat) => family.seatNotes(st, seat, spec),
  });
  renderMoves($("moves"), data.events, spec, { current: ply, onPick: (p) => show(p) });
  analysis.show(ply);
  for (const id of ["first", "prev"]) $(id).disabled = ply === 0;
  for (const id of ["next", "last"]) $(id).disabled = ply === max;
  if (push) {
    const url = new URL(location.href);
    url.searchParams.set("ply", String(ply));
    history.replaceState(null, "", url);
  }
  const svgUrl = `/games/${game.id}/board.svg?ply=${ply}`;
  $("svg-link").href = svgUrl;
  clearTimeout(thumbTimer);
  thumbTimer = setTimeout(() => { $("thumb").src = svgUrl; }, 250);
}

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(ply - 1));
$("next").addEventListener("click", () => show(ply + 1));
$("last").addEventListener("click", () => show(max));
slider.addEventListener("input", () => show(Number(slider.value)));
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
  const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: max }[e.key];
  if (to === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
  e.preventDefault();
  show(to);
});
$("copy-link").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText(location.href); $("copy-link").textContent = gettext("Copied"); }
  catch { $("copy-link").textContent = gettext("Copy failed"); }
  setTimeout(() => { $("copy-link").textContent = gettext("Copy link"); }, 1500);
});
renderResult($("result"), game, spec, { moves: data.events });
show(ply, { push: false });
