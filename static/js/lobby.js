// The lobby: open and live games from /ws/lobby/ (a snapshot, then every change),
// ranked matchmaking (hidden when the server has no /api/matchmaking/ yet), the
// "Play against the computer" form (one level select per other seat of the chosen
// game), and personal notifications from /ws/me/ (a ranked match found, a game started).

import { csrfToken, del, el, get, post, readData } from "./api.js";
import { formatNumber, gettext, interpolate, pgettext, relativeTime } from "./i18n.js";
import { onMe } from "./me.js";
import { botName, daysPerMove, turnBased } from "./panel.js";
import { LiveSocket } from "./socket.js";

const data = readData("lobby-data");
const labels = Object.fromEntries(data.kinds.map((k) => [k.kind, k]));
const games = new Map();
const $ = (id) => document.getElementById(id);

function seatChips(game) {
  const styles = labels[game.kind] ? labels[game.kind].seats : [];
  return el("span", { class: "seats-inline" }, game.seats.map((s, i) => el("span", {},
    el("span", { class: "chip", style: `background:${styles[i] ? styles[i].colour : "var(--pill-bg)"};color:${styles[i] ? styles[i].ink : "var(--fg)"};width:1.2rem;height:1.2rem;font-size:.7rem;margin-right:.2rem;vertical-align:-.2rem`, "aria-hidden": "true" }, styles[i] ? styles[i].initial : i),
    s.bot ? [`${botName(s.bot)} `, el("span", { class: "pill bot" }, gettext("bot"))]
      : s.username ? el("span", { class: "uname", title: s.username }, s.username) : pgettext("seat", "open"))));
}

function tc(game) {
  const t = game.time_control;
  if (turnBased(game)) return daysPerMove(t.days);
  return t ? interpolate(gettext("%(minutes)s min + %(seconds)s s"), {
    minutes: formatNumber(Math.round(t.initial / 60)), seconds: formatNumber(t.increment) }) : gettext("no clock");
}

// When a game was opened, "3 minutes ago" (kept current by a timer below).
function age(game) {
  if (!game.created_at) return null;
  return el("time", { class: "age", datetime: game.created_at }, relativeTime(game.created_at));
}

function item(game) {
  const label = labels[game.kind] ? labels[game.kind].label : game.kind;
  const seated = data.user && game.seats.some((s) => s.username === data.user);
  let action;
  if (game.status === "waiting" && data.user && !seated) {
    action = el("form", { method: "post", action: `/games/${game.id}/join/` },
      el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: csrfToken() }),
      el("button", { type: "submit", class: "btn small", "aria-label": interpolate(gettext("Join game %(id)s"), { id: game.id }) }, gettext("Join")));
  } else {
    action = el("a", { class: `btn small ${game.status === "active" && !seated ? "secondary" : ""}`, href: `/games/${game.id}/` },
      seated ? gettext("Open") : game.status === "active" ? gettext("Watch") : gettext("View"));
  }
  const taken = game.seats.filter((s) => s.username).length;
  return el("li", { "data-game": game.id },
    el("div", { class: "meta" },
      el("span", { class: "title" }, `#${game.id} ${label} `, game.ranked ? el("span", { class: "pill ranked" }, gettext("ranked")) : "",
        turnBased(game) ? [" ", el("span", { class: "pill turn-based" }, pgettext("time controls", "turn-based"))] : ""),
      el("span", { class: "small muted" }, game.status === "waiting"
        ? interpolate(gettext("%(taken)s/%(seats)s seated · %(clock)s"), { taken, seats: game.seats.length, clock: tc(game) })
        : interpolate(gettext("ply %(ply)s · %(clock)s"), { ply: game.ply, clock: tc(game) }),
      game.status === "waiting" && game.created_at ? [" · ", age(game)] : null),
      seatChips(game)),
    action);
}

function render() {
  const all = [...games.values()].sort((a, b) => b.id - a.id);
  const open = all.filter((g) => g.status === "waiting");
  const live = all.filter((g) => g.status === "active");
  $("open-games").replaceChildren(...(open.length ? open.map(item)
    : [el("li", { class: "empty" }, gettext("No open games right now. Create one!"))]));
  $("live-games").replaceChildren(...(live.length ? live.map(item)
    : [el("li", { class: "empty" }, gettext("Nobody is playing right now."))]));
  $("open-count").textContent = formatNumber(open.length);
  $("live-count").textContent = formatNumber(live.length);
}

// "2 minutes ago" goes stale: say it again every half minute.
setInterval(() => {
  for (const node of document.querySelectorAll("#open-games time.age")) node.textContent = relativeTime(node.getAttribute("datetime"));
}, 30000);

const lobby = new LiveSocket("/ws/lobby/", {
  onMessage(f) {
    if (f.type === "hello") {
      games.clear();
      for (const g of f.games) games.set(g.id, g);
    } else if (f.type === "lobby") {
      if (f.game.status === "waiting" || f.game.status === "active") games.set(f.game.id, f.game);
      else games.delete(f.game.id);
    } else return;
    render();
  },
  onStatus(online) { $("offline").hidden = online; },
});
window.bloqueioLobby = lobby;

// -- play against the computer -----------------------------------------------------------
// The form posts as it is (it works without JavaScript: a select per seat of the game
// with the most seats, "None" past the smaller games' seats). Here it shows just the
// chosen game's other seats, named by their colour, and leaves the others out.

const computerKind = $("computer-kind");
if (computerKind) {
  const fit = () => {
    const kind = labels[computerKind.value];
    let previous = null;
    for (const field of document.querySelectorAll("#computer-seats [data-seat]")) {
      const seat = Number(field.dataset.seat);
      const used = Boolean(kind) && seat < kind.players;
      const select = field.querySelector("select");
      field.hidden = !used;
      select.disabled = !used;
      const none = select.querySelector('option[value=""]');
      if (none) none.hidden = used;
      // Only the levels this kind offers (`perfect` where the kind is solved).
      for (const option of select.options) {
        if (option.value) option.hidden = option.disabled = Boolean(kind) && !kind.levels.includes(option.value);
      }
      if (used && select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = "";
      if (used) {
        if (!select.value) select.value = previous && !previous.selectedOptions[0].disabled ? previous.value : select.options[none ? 1 : 0].value;
        const style = kind.seats[seat];
        field.querySelector("label").replaceChildren(
          style ? el("span", { class: "chip", style: `background:${style.colour};color:${style.ink || "#0f172a"};width:1.2rem;height:1.2rem;font-size:.7rem`, "aria-hidden": "true" }, style.initial) : "",
          " ", style ? style.name : interpolate(gettext("Seat %(number)s"), { number: seat + 1 }));
        previous = select;
      }
    }
  };
  computerKind.addEventListener("change", fit);
  fit();
}

// -- ranked play --------------------------------------------------------------------------

// A match is told more than once (the queue's answer or poll, and the socket's `matched`),
// in any order: the page leaves once, since a second navigation aborts the first.
let leaving = false;
function goToGame(id) {
  if (leaving) return;
  leaving = true;
  location.href = `/games/${id}/`;
}

const playBtn = $("ranked-play");
if (playBtn) {
  const status = $("ranked-status");
  const cancelBtn = $("ranked-cancel");
  let poller = null;
  // GET /api/matchmaking/ answers {state: idle|queued|playing, kind?, game_id?}; polling
  // keeps the queue entry alive and lets the server match us.
  const take = (body) => {
    if (!body) return;
    if (body.state === "playing" && body.game_id) { clearInterval(poller); goToGame(body.game_id); return; }
    const on = body.state === "queued";
    playBtn.hidden = on;
    cancelBtn.hidden = !on;
    const game = labels[body.kind] ? labels[body.kind].label : body.kind;
    status.textContent = !on ? "" : body.time_control && body.time_control.days
      ? interpolate(gettext("Looking for a %(game)s opponent, %(speed)s…"), { game, speed: daysPerMove(body.time_control.days) })
      : interpolate(gettext("Looking for a %(game)s opponent…"), { game });
    clearInterval(poller);
    if (on) poller = setInterval(async () => { const r = await get("/api/matchmaking/"); if (r.ok) take(r.data); }, 4000);
  };
  const unavailable = () => {
    playBtn.disabled = true;
    status.textContent = gettext("Ranked matchmaking is not available on this server yet.");
  };
  get("/api/matchmaking/").then((res) => {
    if (res.status === 404 || res.status === 405 || res.status === 0) unavailable();
    else if (res.ok) take(res.data);
  });
  playBtn.addEventListener("click", async () => {
    const kind = $("ranked-kind").value;
    const speed = $("ranked-speed") ? $("ranked-speed").value : "";
    const time_control = speed ? { days: Number(speed) } : null;
    const res = await post("/api/matchmaking/", { kind, time_control });
    if (res.status === 404) unavailable();
    else if (!res.ok) status.textContent = (res.data && res.data.detail) || gettext("Could not join the queue.");
    else take(res.data && res.data.state ? res.data : { state: "queued", kind, time_control });
  });
  cancelBtn.addEventListener("click", async () => {
    await del("/api/matchmaking/");
    take({ state: "idle" });
  });
}

if (data.user) {
  onMe((f) => {
    if (f.type !== "notify") return;
    if (f.event === "matched") goToGame(f.game_id);
    else if (f.event === "game_started") {
      const box = $("ranked-status") || $("open-count");
      if (box) {
        // The sentence with a link in it: split where the game's number goes.
        const [before, after] = gettext("Your game #%(id)s has started.").split("%(id)s");
        box.replaceChildren(before, el("a", { href: `/games/${f.game_id}/` }, String(f.game_id)), after ?? "");
      }
    }
  });
}
