// The tournament pages (docs/tournaments.md): the list, with the form that creates one,
// drawn from the API and read again every few seconds, and a tournament's page (players,
// rounds with a link to watch each table, standings), live over its socket
// (/ws/tournaments/{id}/, docs/realtime.md): every frame is the whole tournament with its
// version `v`; one at or below the version shown is dropped. While the socket is down
// (it reconnects with back-off) the page reads the API every few seconds instead.

import { el, get, post, readData } from "./api.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "./i18n.js";
import { LiveSocket } from "./socket.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 4000;

const STATUS = {
  upcoming: pgettext("tournament status", "upcoming"),
  running: pgettext("tournament status", "running"),
  finished: pgettext("tournament status", "finished"),
  cancelled: pgettext("tournament status", "cancelled"),
};

function describe(t, kinds) {
  if (t.system === "arena") {
    return interpolate(gettext("%(game)s, Arena of %(minutes)s minutes, %(status)s"),
      { game: kinds[t.kind] || t.kind, minutes: formatNumber(t.minutes), status: STATUS[t.status] || t.status });
  }
  return interpolate(gettext("%(game)s, %(rounds)s rounds, %(status)s"),
    { game: kinds[t.kind] || t.kind, rounds: formatNumber(t.round_count), status: STATUS[t.status] || t.status });
}

// -- the list ------------------------------------------------------------------------------

async function showList(data) {
  const res = await get("/api/tournaments/");
  if (!res.ok) return;
  for (const group of ["upcoming", "running", "finished"]) {
    const items = res.data[group].map((t) => el("li", {},
      el("a", { href: `/tournaments/${t.id}/` }, `#${t.id}`), " ", describe(t, data.kinds)));
    $(`t-${group}`).replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, gettext("None."))]));
  }
}

const listData = readData("tournaments-data");
if (listData) {
  showList(listData);
  setInterval(() => showList(listData), REFRESH_MS * 3);
  const form = $("tournament-create");
  if (form) {
    // An Arena is offered for the two-seat kinds; it takes minutes where a Swiss takes rounds.
    const system = $("t-system");
    const fitSystem = () => {
      const duel = listData.duels.includes($("t-kind").value);
      system.querySelector('option[value="arena"]').disabled = !duel;
      if (!duel) system.value = "swiss";
      $("t-minutes-field").hidden = system.value !== "arena";
      $("t-rounds-field").hidden = system.value === "arena";
    };
    $("t-kind").addEventListener("change", fitSystem);
    system.addEventListener("change", fitSystem);
    fitSystem();
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const res = await post("/api/tournaments/", system.value === "arena"
        ? { kind: $("t-kind").value, system: "arena", minutes: Number($("t-minutes").value) }
        : { kind: $("t-kind").value, rounds: Number($("t-rounds").value) });
      if (res.ok) location.href = `/tournaments/${res.data.id}/`;
      else $("t-create-status").textContent = (res.data && res.data.detail) || gettext("The tournament could not be created.");
    });
  }
}

// -- one tournament ------------------------------------------------------------------------

const pageData = readData("tournament-data");

function player(name) {
  return name === null ? el("em", {}, gettext("a bot")) : el("a", { href: `/users/${encodeURIComponent(name)}/` }, name);
}

function render(t) {
  const me = pageData.me;
  $("t-summary").textContent = describe(t, pageData.kinds);
  const mine = t.players.find((p) => p.username === me);
  const playing = t.rounds.some((r) => !r.finished);
  const open = (t.status === "upcoming" || t.status === "running") && !playing;
  $("t-join").hidden = !me || !open || (mine && !mine.withdrawn);
  $("t-withdraw").hidden = !me || !open || !mine || mine.withdrawn;
  $("t-start").hidden = !me || me !== pageData.creator || t.status !== "upcoming";
  $("t-standings").replaceChildren(...t.standings.map((s) => el("tr", {},
    el("td", { class: "rank" }, formatNumber(s.rank)), el("td", {}, player(s.username)),
    el("td", {}, formatNumber(s.points)), el("td", {}, formatNumber(s.tiebreak, { maximumFractionDigits: 2 })),
    el("td", {}, formatNumber(s.games)))));
  $("t-rounds").replaceChildren(...t.rounds.slice().reverse().map((r) => el("section", { class: "t-round" },
    el("h3", {}, interpolate(r.finished ? gettext("Round %(number)s") : gettext("Round %(number)s (playing)"),
      { number: formatNumber(r.number) })),
    el("ol", { class: "game-list" }, ...r.tables.map((table) => el("li", { "data-game": table.game_id },
      el("a", { href: `/games/${table.game_id}/`, class: table.seats.includes(me) ? "t-mine" : null },
        table.seats.includes(me) ? gettext("Your table") : gettext("Watch")),
      " · ", ...table.seats.flatMap((name, i) => (i ? [", ", player(name)] : [player(name)]))))),
    r.byes.length ? el("p", { class: "small muted" }, interpolate(gettext("Byes: %(names)s"), { names: r.byes.join(", ") })) : "")));
  $("t-players").replaceChildren(...t.players.map((p) => el("li", {}, player(p.username),
    p.withdrawn ? ` (${withdrawal(p.withdrawn_because)})` : "",
    p.absences && !p.withdrawn ? ` (${interpolate(ngettext("absent %(count)s time", "absent %(count)s times",
      p.absences), { count: formatNumber(p.absences) })})` : "")));
  if (t.system === "arena") renderArena(t, me);
}

// Why a player is withdrawn (the API's withdrawn_because; docs/tournaments.md).
function withdrawal(because) {
  if (because === "absent") return gettext("withdrawn: absent twice");
  if (because === "removed") return gettext("withdrawn by a moderator");
  return gettext("withdrawn");
}

// -- an Arena: standings with streaks (on fire: the next game counts double), its games ----

const OUTCOME = { win: gettext("win"), draw: gettext("draw"), loss: gettext("loss") };

function arenaGameState(g) {
  if (g.status === "active") return gettext("playing");
  if (g.status !== "finished") return gettext("aborted");
  const [a, b] = g.ranking;
  const score = a === b ? "½–½" : a < b ? "1–0" : "0–1";
  return g.counted ? score : interpolate(gettext("%(score)s, after the end: not counted"), { score });
}

function renderArena(t, me) {
  $("t-standings").replaceChildren(...t.standings.map((s) => el("tr", {},
    el("td", { class: "rank" }, formatNumber(s.rank)), el("td", {}, player(s.username)),
    el("td", {}, formatNumber(s.points)), el("td", {}, formatNumber(s.wins)), el("td", {}, formatNumber(s.games)),
    el("td", { class: s.on_fire ? "t-fire" : null, title: s.on_fire ? gettext("On fire: the next game counts double") : null },
      s.on_fire ? `🔥 ${formatNumber(s.streak)}` : formatNumber(s.streak)),
    el("td", { class: "small" }, ...s.sheet.flatMap((g, i) => [i ? " " : "",
      el("a", { href: `/games/${g.game_id}/`, title: OUTCOME[g.outcome] }, formatNumber(g.points))])))));
  $("t-rounds").replaceChildren(t.games.length
    ? el("ol", { class: "game-list" }, ...t.games.map((g) => el("li", { "data-game": g.game_id },
      el("a", { href: `/games/${g.game_id}/`, class: g.seats.includes(me) ? "t-mine" : null },
        g.seats.includes(me) ? gettext("Your game") : gettext("Watch")),
      " · ", player(g.seats[0]), " – ", player(g.seats[1]), " · ", arenaGameState(g))))
    : el("p", { class: "muted" }, gettext("No games yet.")));
}

// The tournament as shown: its version, and whether it can still change.
const shown = { v: -1, over: false };
let socket = null;
let polling = null;

// Show `t` unless the page already shows it or a newer version (a frame and an answer
// to the page's own join or start can arrive in either order).
function show(t) {
  if (typeof t.v !== "number" || t.v <= shown.v) return;
  shown.v = t.v;
  render(t);
  if (t.status === "finished" || t.status === "cancelled") {
    shown.over = true; // nothing changes any more: no socket, no reads
    stopPolling();
    if (socket) socket.close();
  }
}

async function refresh() {
  const res = await get(`/api/tournaments/${pageData.id}/`);
  if (res.ok) show(res.data);
}

function startPolling() {
  if (polling !== null || shown.over) return;
  refresh();
  polling = setInterval(refresh, REFRESH_MS);
}

function stopPolling() {
  if (polling !== null) clearInterval(polling);
  polling = null;
}

async function act(what) {
  const res = await post(`/api/tournaments/${pageData.id}/${what}/`);
  $("t-error").textContent = res.ok ? "" : (res.data && res.data.detail) || gettext("That did not work; try again.");
  if (res.ok) show(res.data);
}

if (pageData) {
  for (const what of ["join", "withdraw", "start"]) $(`t-${what}`).addEventListener("click", () => act(what));
  socket = new LiveSocket(`/ws/tournaments/${pageData.id}/`, {
    onMessage: (f) => {
      // The hello (re-)syncs: from then on the socket is the page's only source. (Open
      // alone is not enough: a socket refused at once, 4429 or 4503, opens first.)
      if (f.type === "hello") stopPolling();
      if (f.type === "hello" || f.type === "tournament") show(f.tournament);
    },
    // Down (or never up): read the API until the socket is back.
    onStatus: (online) => { if (!online) startPolling(); },
  });
}
