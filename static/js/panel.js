// The side panel of the game and replay pages: players (rating, online dot, the board
// module's notes, clock), the move list, and the end-of-game summary. Pure rendering.

import { csrfToken, el } from "./api.js";

const REASONS = {
  goal: "reached the goal", last_standing: "was the last player left",
  blocked: "the opponent was blocked", move_limit: "the move limit was reached",
  stalemate: "nobody could move", score: "on score", aborted: "the game was aborted",
};

// The computer is named by its level wherever a player is named ("Computer (hard)"),
// never by its account's username; seat JSON says `bot: level | null`.
export const botName = (level) => `Computer (${level})`;

export function seatLabel(game, spec, seat) {
  const s = spec.seats[seat];
  const info = game.seats[seat];
  if (info && info.bot) return `${s.name} (Computer, ${info.bot})`;
  const user = info && info.username;
  return user ? `${s.name} (${user})` : s.name;
}

// A player's name as a link to their profile; the computer's with a "bot" badge.
export function playerLink(info) {
  const href = `/users/${encodeURIComponent(info.username)}/`;
  if (!info.bot) return el("a", { href, class: "uname", title: info.username }, info.username);
  return el("span", { class: "bot-name" }, el("a", { href }, botName(info.bot)), el("span", { class: "pill bot" }, "bot"));
}

export function chip(spec, seat) {
  const s = spec.seats[seat];
  return el("span", { class: "chip", style: `background:${s.colour};color:${s.ink || "#0f172a"}`, "aria-hidden": "true" }, s.initial);
}

export function formatClock(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return (t / 1000).toFixed(1);
  const s = Math.ceil(t / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? `${h}:` : ""}${mm}:${String(sec).padStart(2, "0")}`;
}

// The clocks at the moment a game frame arrives: remaining_ms is "as of turn_started_at",
// so the running seat has already used (now - turn_started_at), clamped against skew.
export function clockBase(clocks) {
  if (!clocks || !Array.isArray(clocks.remaining_ms)) return null;
  const started = clocks.turn_started_at ? Date.parse(clocks.turn_started_at) : NaN;
  return clocks.remaining_ms.map((ms, seat) => {
    if (clocks.running !== seat || ms === null || Number.isNaN(started)) return ms;
    return ms - Math.max(0, Math.min(ms, Date.now() - started));
  });
}

// The clocks as shown now: the running seat's base minus the time since the frame arrived.
export function clockNow(clocks, base, receivedAt, now) {
  if (!base) return null;
  return base.map((ms, seat) => (clocks.running === seat && ms !== null ? ms - (now - receivedAt) : ms));
}

// notes(state, seat): the board module's per-seat facts ("5 barriers", "score -12");
// tools(seat, info): controls under a seat (the game page's "Add bot" / "Remove"), or null.
export function renderPlayers(list, game, spec, { presence = null, clocks = null, state = null, me = null, notes = () => [], tools = () => null } = {}) {
  const st = state || game.state;
  list.replaceChildren(...spec.seats.map((s, seat) => {
    const info = game.seats[seat] || {};
    const inGame = st.in_game ? st.in_game[seat] : true;
    const turn = game.status === "active" && st.turn === seat;
    const online = presence && presence.online ? presence.online[seat] : null;
    const sub = [];
    if (info.rating !== null && info.rating !== undefined) sub.push(`rating ${Math.round(info.rating)}`);
    sub.push(...notes(st, seat));
    if (!inGame) sub.push("left the game");
    if (turn) sub.push("to move");
    const clockText = clocks && clocks[seat] !== null && clocks[seat] !== undefined ? formatClock(clocks[seat]) : null;
    const running = clockText && game.clocks && game.clocks.running === seat;
    return el("li", {
      class: `player${turn ? " turn" : ""}${inGame ? "" : " left"}`, "data-seat": seat,
      "aria-current": turn ? "true" : null,
    },
      chip(spec, seat),
      el("span", { class: "name" },
        info.username ? playerLink(info) : el("span", { class: "muted" }, "open seat"),
        seat === me ? " (you)" : "",
        online === null || !info.username || info.bot ? null : el("span", {
          class: `dot${online ? " on" : ""}`, title: online ? "online" : "offline",
          role: "img", "aria-label": online ? "online" : "offline",
        }),
        el("span", { class: "sub" }, `${s.name}${sub.length ? " · " + sub.join(" · ") : ""}`)),
      clockText ? el("span", {
        class: `clock${running ? " running" : ""}${clocks[seat] < 20000 ? " low" : ""}`,
        "data-seat": seat, "aria-label": `${s.name} clock ${clockText}`,
      }, clockText) : el("span"),
      tools(seat, info));
  }));
}

// Events that are not moves, in words rather than notation ("resign:1"): as a move list
// entry, and as what the seat did ("Green ran out of time").
const EVENT_WORDS = { resign: "resigned", timeout: "out of time", removed: "removed", pass: "passed" };
const LEFT_WORDS = { resign: "resigned", timeout: "ran out of time", removed: "was removed" };

// A move list row as people read it: the notation, or an event in words.
export const moveText = (row) => (row.action && EVENT_WORDS[row.action.type]) || row.text;

// rows: [{ply, seat, text, action}]; link(ply) gives an href (game page) or onPick(ply) a button.
export function renderMoves(list, rows, spec, { current = null, link = null, onPick = null } = {}) {
  const items = rows.map((row) => {
    const text = moveText(row);
    // The colour that moved where a seat plays several (row.colour), else the seat's.
    const who = (Number.isInteger(row.colour) && spec.colours && spec.colours[row.colour]) || spec.seats[row.seat];
    const inner = [el("span", { class: "n" }, `${row.ply}.`),
      el("span", { style: `color:${who ? who.text : "inherit"}`, "aria-hidden": "true", class: "who" }, who ? who.initial : ""),
      el("span", {}, text)];
    const label = `ply ${row.ply}, ${who ? who.name : ""} ${text}`;
    let body;
    if (onPick) body = el("button", { type: "button", "aria-label": label, onclick: () => onPick(row.ply) }, ...inner);
    else if (link) body = el("a", { href: link(row.ply), "aria-label": label, class: "move-link" }, ...inner);
    else body = el("span", {}, ...inner);
    return el("li", { class: row.ply === current ? "current" : null, "data-ply": row.ply }, body);
  });
  list.replaceChildren(...items);
  if (!items.length) list.replaceChildren(el("li", { class: "empty" }, "No moves yet."));
  const cur = list.querySelector("li.current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  else list.scrollTop = list.scrollHeight;
}

// How the others left, from the move list's leave events: "Green ran out of time".
function leftWords(game, spec, rows) {
  const seen = new Map();
  for (const row of rows || []) {
    const words = row.action && LEFT_WORDS[row.action.type];
    if (words && row.seat !== game.result.winner) seen.set(row.seat, `${seatLabel(game, spec, row.seat)} ${words}`);
  }
  return [...seen.values()];
}

// rows: the move list, so that "the last player left" says how the others left.
export function resultText(game, spec, rows = null) {
  const r = game.result;
  if (!r) return null;
  let why = REASONS[r.reason] || r.reason;
  if (r.reason === "last_standing") {
    const left = leftWords(game, spec, rows);
    why = left.length ? left.join(", ") : "every other player left the game";
  }
  if (r.winner === null || r.winner === undefined) return `Game over: no winner (${why}).`;
  return `${seatLabel(game, spec, r.winner)} won: ${why}.`;
}

export function renderResult(box, game, spec, { moves = null } = {}) {
  if (!game.result) { box.hidden = true; return; }
  const r = game.result;
  const rows = spec.seats.map((s, seat) => ({ seat, rank: r.ranking ? r.ranking[seat] : null }))
    .sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99));
  const changes = r.rating_changes || null;
  box.replaceChildren(
    el("h2", {}, resultText(game, spec, moves)),
    el("ul", { class: "small", style: "margin:.25rem 0 0;padding:0;list-style:none" }, rows.map(({ seat, rank }) => {
      const info = game.seats[seat] || {};
      const delta = changes ? changes[seat] : info.rating_change;
      const score = r.scores ? ` · score ${r.scores[seat]}` : "";
      return el("li", {}, `${rank ?? "?"}. ${seatLabel(game, spec, seat)}${score}`,
        info.rating !== null && info.rating !== undefined ? ` · rating ${Math.round(info.rating)}` : "",
        delta !== null && delta !== undefined ? ` (${delta >= 0 ? "+" : ""}${Math.round(delta)})` : "");
    })),
    el("p", { style: "margin:.5rem 0 0" }, el("a", { href: `/games/${game.id}/replay/` }, "Replay this game")),
    playAgain(game));
  box.hidden = false;
}

// A new game of the same kind and clock, open in the lobby for anyone; signed-out viewers
// go to the lobby instead. Nobody is invited (a rematch is a later feature), so the
// button says so rather than "Play again"; against the computer the same bots join at once.
function playAgain(game) {
  const token = csrfToken();
  if (!token || !document.querySelector(".site-header .who")) {
    return el("p", { style: "margin:.5rem 0 0" }, el("a", { class: "btn small", href: "/#create" }, "New game"));
  }
  const tc = game.time_control ? `${game.time_control.initial}+${game.time_control.increment}` : "";
  // Against the computer (a bot on every other seat): the same bots again, at once.
  const bots = game.seats.filter((s) => s.bot).map((s) => s.bot);
  const computer = bots.length === game.seats.length - 1 ? [
    el("input", { type: "hidden", name: "opponents", value: "computer" }),
    ...bots.map((level) => el("input", { type: "hidden", name: "bots", value: level }))] : [];
  return el("form", { method: "post", action: "/games/new/", class: "toolbar", style: "margin:.5rem 0 0" },
    el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: token }),
    ...computer,
    el("input", { type: "hidden", name: "kind", value: game.kind }),
    el("input", { type: "hidden", name: "time_control", value: tc }),
    el("input", { type: "hidden", name: "ranked", value: "0" }),
    el("button", { type: "submit", class: "btn small", id: "play-again" },
      computer.length ? "Play the computer again" : "New game, same settings"),
    el("a", { class: "btn secondary small", href: "/" }, "Back to the lobby"),
    computer.length ? null : el("p", { class: "small", id: "play-again-note", style: "margin:0;flex-basis:100%" },
      "Opens a new game in the lobby; the other players are not invited: send them its link."));
}
