// The side panel of the game and replay pages: players (rating, online dot, the board
// module's notes, clock), the move list, and the end-of-game summary. Pure rendering.

import { csrfToken, el } from "./api.js";
import { formatDateTime, formatList, formatNumber, gettext, interpolate, ngettext, pgettext } from "./i18n.js";
import { eventSentence } from "./boards/words.js";

// Why a game ended (result JSON's `reason`), as said after "<winner> won:".
const REASONS = {
  goal: () => gettext("reached the goal"), last_standing: () => gettext("was the last player left"),
  blocked: () => gettext("the opponent was blocked"), move_limit: () => gettext("the move limit was reached"),
  stalemate: () => gettext("nobody could move"), score: () => gettext("on score"),
  aborted: () => gettext("the game was aborted"),
};

// The computer's levels (seat JSON's `bot`: a code) in words.
const LEVELS = {
  easy: () => pgettext("computer level", "easy"), medium: () => pgettext("computer level", "medium"),
  hard: () => pgettext("computer level", "hard"), perfect: () => pgettext("computer level", "perfect"),
};
export const levelName = (level) => (LEVELS[level] ? LEVELS[level]() : level);

// The computer is named by its level wherever a player is named ("Computer (hard)"),
// never by its account's username; seat JSON says `bot: level | null`.
export const botName = (level) => interpolate(gettext("Computer (%(level)s)"), { level: levelName(level) });

export function seatLabel(game, spec, seat) {
  const s = spec.seats[seat];
  const info = game.seats[seat];
  if (info && info.bot) {
    return interpolate(gettext("%(seat)s (Computer, %(level)s)"), { seat: s.name, level: levelName(info.bot) });
  }
  const user = info && info.username;
  return user ? `${s.name} (${user})` : s.name;
}

// A player's name as a link to their profile; the computer's with a "bot" badge.
export function playerLink(info) {
  const href = `/users/${encodeURIComponent(info.username)}/`;
  if (!info.bot) return el("a", { href, class: "uname", title: info.username }, info.username);
  return el("span", { class: "bot-name" }, el("a", { href }, botName(info.bot)), el("span", { class: "pill bot" }, gettext("bot")));
}

export function chip(spec, seat) {
  const s = spec.seats[seat];
  return el("span", { class: "chip", style: `background:${s.colour};color:${s.ink || "#0f172a"}`, "aria-hidden": "true" }, s.initial);
}

export function formatClock(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return formatNumber(Math.floor(t / 100) / 10, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const s = Math.ceil(t / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? `${h}:` : ""}${mm}:${String(sec).padStart(2, "0")}`;
}

// A turn-based game (time_control {days}): a deadline per move, shown as time left.
export const turnBased = (game) => Boolean(game && game.time_control && game.time_control.days);

// A turn-based time control in words: "3 days per move".
export const daysPerMove = (days) => interpolate(
  ngettext("%(days)s day per move", "%(days)s days per move", days), { days: formatNumber(days) });

// Time left before a turn-based deadline, to the minute: "2 days 3 h left", "5 h 10 min left".
export function formatTimeLeft(ms) {
  const minutes = Math.floor(Math.max(0, ms) / 60000);
  if (minutes < 1) return gettext("under a minute left");
  const days = Math.floor(minutes / 1440), hours = Math.floor((minutes % 1440) / 60), mins = minutes % 60;
  const parts = [];
  if (days) parts.push(interpolate(ngettext("%(count)s day", "%(count)s days", days), { count: formatNumber(days) }));
  if (hours) parts.push(interpolate(gettext("%(count)s h"), { count: formatNumber(hours) }));
  if (!days && mins) parts.push(interpolate(gettext("%(count)s min"), { count: formatNumber(mins) }));
  return interpolate(gettext("%(time)s left"), { time: parts.join(" ") });
}

// A seat's clock as shown: a chess clock, or in a turn-based game the time left; "low"
// under 20 s live, under an hour turn-based.
export const clockText = (game, ms) => (turnBased(game) ? formatTimeLeft(ms) : formatClock(ms));
export const clockLow = (game, ms) => ms < (turnBased(game) ? 3600000 : 20000);

// The clocks at the moment a game frame arrives: remaining_ms is "as of turn_started_at",
// so the running seat has already used (now - turn_started_at), clamped against skew.
// A seat's first move is free but has a window of its own (clocks.first_move; it ends at
// the deadline, docs/ranked.md "First moves"): its clock counts that window down.
export function clockBase(clocks) {
  if (!clocks || !Array.isArray(clocks.remaining_ms)) return null;
  const started = clocks.turn_started_at ? Date.parse(clocks.turn_started_at) : NaN;
  return clocks.remaining_ms.map((ms, seat) => {
    if (clocks.running !== seat || ms === null || Number.isNaN(started)) return ms;
    const left = clocks.first_move && clocks.deadline ? Date.parse(clocks.deadline) - started : ms;
    return left - Math.max(0, Math.min(left, Date.now() - started));
  });
}

// A live game whose seat to move has not made its first move: its countdown is shown.
export const firstMoveRunning = (game) => Boolean(game.status === "active" && game.clocks
  && game.clocks.first_move && game.clocks.running !== null && !turnBased(game));

// What the first-move countdown says ("First move within 0:24, or the game is aborted."):
// for the viewer's own seat or another's, and what a miss does (clocks.first_move_aborts).
export function firstMoveText(game, spec, me, ms) {
  const seat = game.clocks.running, time = formatClock(ms);
  const aborts = game.clocks.first_move_aborts;
  if (seat === me) {
    return interpolate(aborts ? gettext("First move within %(time)s, or the game is aborted.")
      : gettext("First move within %(time)s, or you run out of time."), { time });
  }
  return interpolate(aborts ? gettext("%(seat)s must make a first move within %(time)s, or the game is aborted.")
    : gettext("%(seat)s must make a first move within %(time)s, or runs out of time."), { seat: seatLabel(game, spec, seat), time });
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
    if (info.rating !== null && info.rating !== undefined) {
      sub.push(interpolate(gettext("rating %(rating)s"), { rating: formatNumber(Math.round(info.rating)) }));
    }
    sub.push(...notes(st, seat));
    if (!inGame) sub.push(gettext("left the game"));
    if (info.bot && info.replaced) sub.push(interpolate(gettext("playing for %(name)s"), { name: info.replaced }));
    if (turn) sub.push(gettext("to move"));
    // A player whose sockets all closed: "bob disconnected — 0:47" until the grace ends.
    const awayUntil = presence && presence.away && game.status === "active" && inGame && !info.bot && info.username
      ? presence.away[seat] : null;
    const running = Boolean(game.clocks && game.clocks.running === seat);
    // Turn-based, only the seat to move has a deadline (each turn gets its days afresh).
    const shown = clocks && clocks[seat] !== null && clocks[seat] !== undefined && (running || !turnBased(game));
    const timeText = shown ? clockText(game, clocks[seat]) : null;
    const first = running && firstMoveRunning(game);
    const deadline = running && turnBased(game) && game.clocks.deadline
      ? interpolate(gettext("deadline %(when)s"), { when: formatDateTime(game.clocks.deadline) }) : null;
    return el("li", {
      class: `player${turn ? " turn" : ""}${inGame ? "" : " left"}`, "data-seat": seat,
      "aria-current": turn ? "true" : null,
    },
      chip(spec, seat),
      el("span", { class: "name" },
        info.username ? playerLink(info) : el("span", { class: "muted" }, gettext("open seat")),
        seat === me ? ` ${gettext("(you)")}` : "",
        online === null || !info.username || info.bot ? null : el("span", {
          class: `dot${online ? " on" : ""}`, title: online ? gettext("online") : gettext("offline"),
          role: "img", "aria-label": online ? gettext("online") : gettext("offline"),
        }),
        el("span", { class: "sub" }, `${s.name}${sub.length ? " · " + sub.join(" · ") : ""}`),
        awayUntil ? el("span", { class: "away", "data-seat": seat, "data-until": awayUntil, "data-name": info.username, role: "status" },
          awayText(info.username, awayUntil, Date.now())) : null),
      timeText ? el("span", {
        class: `clock${running ? " running" : ""}${turnBased(game) ? " days" : ""}${first ? " first-move" : ""}${clockLow(game, clocks[seat]) ? " low" : ""}`,
        "data-seat": seat, title: first ? gettext("time left for the first move") : deadline,
        "aria-label": interpolate(first ? gettext("%(seat)s first move %(time)s") : gettext("%(seat)s clock %(time)s"), { seat: s.name, time: timeText }),
      }, timeText) : el("span"),
      tools(seat, info));
  }));
}

// "bob disconnected — 0:47" while the grace runs; "bob disconnected" once it is over.
export function awayText(name, until, now) {
  const left = Date.parse(until) - now;
  if (!(left > 0)) return interpolate(gettext("%(name)s disconnected"), { name });
  const sec = Math.ceil(left / 1000);
  const time = `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, "0")}`;
  return interpolate(gettext("%(name)s disconnected — %(time)s"), { name, time });
}

// Events that are not moves, in words rather than notation ("resign:1"): as a move list
// entry, and as what the seat did ("Green ran out of time").
const EVENT_WORDS = {
  resign: () => pgettext("move list", "resigned"), timeout: () => pgettext("move list", "out of time"),
  removed: () => pgettext("move list", "removed"), pass: () => pgettext("move list", "passed"),
};
const LEAVES = new Set(["resign", "timeout", "removed"]);

// A move list row as people read it: the notation, or an event in words.
export const moveText = (row) => (row.action && EVENT_WORDS[row.action.type] ? EVENT_WORDS[row.action.type]() : row.text);

// rows: [{ply, seat, text, action}]; link(ply) gives an href (game page) or onPick(ply) a button.
export function renderMoves(list, rows, spec, { current = null, link = null, onPick = null } = {}) {
  const items = rows.map((row) => {
    const text = moveText(row);
    // The colour that moved where a seat plays several (row.colour), else the seat's.
    const who = (Number.isInteger(row.colour) && spec.colours && spec.colours[row.colour]) || spec.seats[row.seat];
    const inner = [el("span", { class: "n" }, `${row.ply}.`),
      el("span", { style: `color:${who ? who.text : "inherit"}`, "aria-hidden": "true", class: "who" }, who ? who.initial : ""),
      el("span", {}, text)];
    const label = interpolate(gettext("ply %(ply)s, %(seat)s %(move)s"), { ply: row.ply, seat: who ? who.name : "", move: text });
    let body;
    if (onPick) body = el("button", { type: "button", "aria-label": label, onclick: () => onPick(row.ply) }, ...inner);
    else if (link) body = el("a", { href: link(row.ply), "aria-label": label, class: "move-link" }, ...inner);
    else body = el("span", {}, ...inner);
    return el("li", { class: row.ply === current ? "current" : null, "data-ply": row.ply }, body);
  });
  list.replaceChildren(...items);
  if (!items.length) list.replaceChildren(el("li", { class: "empty" }, gettext("No moves yet.")));
  const cur = list.querySelector("li.current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
  else list.scrollTop = list.scrollHeight;
}

// How the others left, from the move list's leave events: "Green ran out of time".
function leftWords(game, spec, rows) {
  const seen = new Map();
  for (const row of rows || []) {
    if (row.action && LEAVES.has(row.action.type) && row.seat !== game.result.winner) {
      seen.set(row.seat, eventSentence(row.action, seatLabel(game, spec, row.seat)));
    }
  }
  return [...seen.values()];
}

// rows: the move list, so that "the last player left" says how the others left.
export function resultText(game, spec, rows = null) {
  const r = game.result;
  if (!r) return null;
  let why = REASONS[r.reason] ? REASONS[r.reason]() : r.reason;
  if (r.reason === "last_standing") {
    const left = leftWords(game, spec, rows);
    why = left.length ? formatList(left) : gettext("every other player left the game");
  }
  if (r.winner === null || r.winner === undefined) return interpolate(gettext("Game over: no winner (%(reason)s)."), { reason: why });
  return interpolate(gettext("%(winner)s won: %(reason)s."), { winner: seatLabel(game, spec, r.winner), reason: why });
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
      const score = r.scores ? ` · ${interpolate(gettext("score %(score)s"), { score: formatNumber(r.scores[seat]) })}` : "";
      return el("li", {}, `${rank ?? "?"}. ${seatLabel(game, spec, seat)}${score}`,
        info.rating !== null && info.rating !== undefined
          ? ` · ${interpolate(gettext("rating %(rating)s"), { rating: formatNumber(Math.round(info.rating)) })}` : "",
        delta !== null && delta !== undefined ? ` (${formatNumber(Math.round(delta), { signDisplay: "always" })})` : "");
    })),
    el("p", { style: "margin:.5rem 0 0" }, el("a", { href: `/games/${game.id}/replay/` }, gettext("Replay this game"))),
    playAgain(game));
  box.hidden = false;
}

// A new game of the same kind and clock, open in the lobby for anyone; signed-out viewers
// go to the lobby instead. Nobody is invited (a rematch is a later feature), so the
// button says so rather than "Play again"; against the computer the same bots join at once.
function playAgain(game) {
  const token = csrfToken();
  if (!token || !document.querySelector(".site-header .who")) {
    return el("p", { style: "margin:.5rem 0 0" }, el("a", { class: "btn small", href: "/#create" }, gettext("New game")));
  }
  const t = game.time_control;
  const tc = !t ? "" : turnBased(game) ? `${t.days}d` : `${t.initial}+${t.increment}`;
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
      computer.length ? gettext("Play the computer again") : gettext("New game, same settings")),
    el("a", { class: "btn secondary small", href: "/" }, gettext("Back to the lobby")),
    computer.length ? null : el("p", { class: "small", id: "play-again-note", style: "margin:0;flex-basis:100%" },
      gettext("Opens a new game in the lobby; the other players are not invited: send them its link.")));
}
