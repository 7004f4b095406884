// The tournament pages (docs/tournaments.md): the list, with the form that creates one,
// and a tournament's page (players, rounds with a link to watch each table, standings),
// both drawn from the API and read again every few seconds while anything can change.

import { el, get, post, readData } from "./api.js";
import { formatNumber, gettext, interpolate, ngettext, pgettext } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 4000;

const STATUS = {
  upcoming: pgettext("tournament status", "upcoming"),
  running: pgettext("tournament status", "running"),
  finished: pgettext("tournament status", "finished"),
  cancelled: pgettext("tournament status", "cancelled"),
};

function describe(t, kinds) {
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
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const res = await post("/api/tournaments/", { kind: $("t-kind").value, rounds: Number($("t-rounds").value) });
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
}

// Why a player is withdrawn (the API's withdrawn_because; docs/tournaments.md).
function withdrawal(because) {
  if (because === "absent") return gettext("withdrawn: absent twice");
  if (because === "removed") return gettext("withdrawn by a moderator");
  return gettext("withdrawn");
}

async function refresh() {
  const res = await get(`/api/tournaments/${pageData.id}/`);
  if (res.ok) render(res.data);
  return res.ok ? res.data : null;
}

async function act(what) {
  const res = await post(`/api/tournaments/${pageData.id}/${what}/`);
  $("t-error").textContent = res.ok ? "" : (res.data && res.data.detail) || gettext("That did not work; try again.");
  if (res.ok) render(res.data);
}

if (pageData) {
  for (const what of ["join", "withdraw", "start"]) $(`t-${what}`).addEventListener("click", () => act(what));
  const loop = async () => {
    const t = await refresh();
    if (!t || t.status === "upcoming" || t.status === "running") setTimeout(loop, REFRESH_MS);
  };
  loop();
}
