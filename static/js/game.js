// The game page: play (or watch) one game live. The page embeds the game, the board spec,
// the events so far and who you are; the socket keeps them current. Everything about the
// board (drawing, clicks, taps, keys, notation) is the family's board module
// (static/js/boards/<script>.js: the spec's `script`, from the family's registration;
// docs/web.md); this page feeds it the state and the viewer's legal actions (from the
// API), answers its questions (`check`: the engine's reason for a refusal) and sends the
// actions it makes.

import { del, el, get, post, readData } from "./api.js";
import { awayText, chip, clockBase, clockLow, clockNow, clockText, firstMoveRunning, firstMoveText, renderMoves, renderPlayers, renderResult, seatLabel } from "./panel.js";
import { createChat } from "./chat.js";
import { createHint } from "./hint.js";
import { createTable } from "./table.js";
import { formatNumber, gettext, interpolate } from "./i18n.js";
import { GameSocket } from "./socket.js";
import { legendText, rememberView, turnedView } from "./board_view.js";

const data = readData("game-data");
const { spec } = data;
const family = await import(`./boards/${spec.script}.js`);
let game = data.game;
let mySeat = data.me.seat;
let presence = game.presence || null;
const rows = data.events.map((e) => ({ ply: e.ply, seat: e.seat, text: e.text, action: e.action, colour: e.colour }));
let legal = { ply: -1, actions: [] };
let clocksAt = performance.now();
let clocks = clockBase(game.clocks);
const reasons = new Map(); // "ply|action" -> reason, so hovering never asks twice
// The action sent for a position, until the server refuses it: a second click on it (a
// double-click, a tap that bounced) is ignored quietly rather than sent again and refused.
let sent = null; // {ply, key}

const $ = (id) => document.getElementById(id);
const msg = $("status-msg");
let board;

function say(text, kind = "") {
  msg.textContent = text;
  msg.className = `status-msg notice ${kind}`;
  msg.hidden = !text;
}

function myTurn() {
  return game.status === "active" && mySeat !== null && game.state.turn === mySeat;
}

function lastAction() {
  return rows.length ? rows[rows.length - 1].action : null;
}

function buildBoard() {
  board = family.createBoard($("board"), spec, { seat: mySeat, interactive: true, label: data.label, turned: turnedView() });
  board.check = reasonFor;
  board.on("action", tryAction).on("say", say);
  showBoardView();
}

// "Board: turned to my seat / as on the rules page", for a seated viewer whose board turns
// (board_view.js); a spectator's board is never turned.
function showBoardView() {
  const turns = mySeat !== null && family.rotationFor(spec, mySeat) !== 0;
  $("board-view-box").hidden = !turns;
  $("board-view").value = turnedView() ? "turned" : "rules";
  $("board-view-legend").textContent = turns ? legendText(board.el) : "";
}

// -- rendering ----------------------------------------------------------------------------

function render() {
  const mine = myTurn();
  board.render(game.state, { legal: mine && legal.ply === game.ply ? legal.actions : [], last: lastAction(), myTurn: mine });
  renderPresence();
  renderMoves($("moves"), rows, spec, { link: (ply) => `/games/${game.id}/replay/?ply=${ply}` });
  renderResult($("result"), game, spec, { moves: rows });
  renderStatus();
  $("resign").hidden = !(game.status === "active" && mySeat !== null && game.state.in_game[mySeat]);
  $("notation-form").hidden = !(game.status === "active" && mySeat !== null && game.state.in_game[mySeat]);
  $("waiting").hidden = game.status !== "waiting";
  $("waiting-bots").hidden = !canSeatBots();
  board.el.dataset.ply = game.ply;
  board.el.dataset.status = game.status;
  chat.setView(game, mySeat);
  if (hint) hint.update(game, mySeat);
  table.update(game, mySeat);
}

// Who is here: the players list (with clocks and online marks) and the spectator count.
// Presence frames repaint only this.
function renderPresence() {
  renderPlayers($("players"), game, spec, {
    presence, clocks: clockNow(game.clocks, clocks, clocksAt, performance.now()), me: mySeat,
    notes: (state, seat) => family.seatNotes(state, seat, spec), tools: seatTools,
  });
  $("spectators").textContent = formatNumber(presence ? presence.spectators ?? 0 : 0);
}

function renderStatus() {
  const line = $("status-line");
  line.classList.remove("mine");
  let text;
  if (game.status === "waiting") {
    const taken = game.seats.filter((s) => s.username).length;
    text = interpolate(gettext("Waiting for players: %(taken)s of %(seats)s seats taken."), { taken, seats: game.seats.length });
  } else if (game.status === "active") {
    const turn = game.state.turn;
    if (turn === mySeat) { text = board.turnHint; line.classList.add("mine"); }
    else text = interpolate(gettext("%(seat)s to move."), { seat: seatLabel(game, spec, turn) });
  } else if (game.status === "aborted") text = gettext("This game was aborted.");
  else text = gettext("Game over.");
  // The first-move countdown comes first: it is what ends the game if missed.
  const first = firstMoveRunning(game) ? el("span", { class: "first-move", id: "first-move" }, firstMoveLine()) : "";
  if (first && game.state.turn !== mySeat) text = ""; // the countdown names the seat to move
  line.replaceChildren(game.status === "active" ? chip(spec, game.state.turn) : "", " ", first, first && text ? " " : "", text);
  const title = `#${game.id} ${data.label} · Bloqueio Online`;
  document.title = myTurn() ? interpolate(gettext("● Your turn · %(title)s"), { title }) : title;
}

function firstMoveLine() {
  const now = clockNow(game.clocks, clocks, clocksAt, performance.now());
  return firstMoveText(game, spec, mySeat, Math.max(0, now[game.clocks.running]));
}

function tickClocks() {
  tickAway();
  if (!game.clocks || game.status !== "active") return;
  const first = $("first-move");
  if (first && firstMoveRunning(game)) first.textContent = firstMoveLine();
  const now = clockNow(game.clocks, clocks, clocksAt, performance.now());
  for (const node of document.querySelectorAll("#players .clock")) {
    const seat = Number(node.dataset.seat);
    if (now[seat] === null || now[seat] === undefined) continue;
    const ms = Math.max(0, now[seat]);
    node.textContent = clockText(game, ms);
    node.classList.toggle("low", clockLow(game, ms));
  }
}

// -- players who left: the grace countdown and a bot for their seat ----------------------
// A seat whose sockets all closed shows "bob disconnected — 0:47" (presence.away, the
// `away` frames); once it reaches zero the other players of a casual game may let a bot
// play for them (POST /api/games/{id}/seats/{seat}/bot/; docs/ranked.md, "Leavers").

function tickAway() {
  const now = Date.now();
  let ended = false;
  for (const node of document.querySelectorAll("#players .away")) {
    node.textContent = awayText(node.dataset.name, node.dataset.until, now);
    const over = !(Date.parse(node.dataset.until) > now);
    if (over && node.dataset.over !== "yes") { node.dataset.over = "yes"; ended = true; }
  }
  if (ended) renderPresence(); // the grace is over: the hand-over button appears
}

function canHandOver(seat, info) {
  const until = presence && presence.away ? presence.away[seat] : null;
  return game.status === "active" && !game.ranked && mySeat !== null && seat !== mySeat
    && game.state.in_game[mySeat] && game.state.in_game[seat] && info.username && !info.bot
    && until && !(Date.parse(until) > Date.now());
}

function handOverTool(seat, info) {
  if (!canHandOver(seat, info)) return null;
  return el("div", { class: "seat-bot" }, el("button", {
    type: "button", class: "btn small", "data-hand-over": seat,
    onclick: (e) => changeBots(e.currentTarget, gettext("Could not hand the seat to a bot: %(reason)s"),
      () => post(`/api/games/${game.id}/seats/${seat}/bot/`, {})),
  }, interpolate(gettext("Let a bot play for %(name)s"), { name: info.username })));
}

function onAway(f) {
  const away = presence && presence.away ? [...presence.away] : game.seats.map(() => null);
  away[f.seat] = f.until;
  presence = { ...(presence || { online: game.seats.map(() => false), spectators: 0 }), away };
  renderPresence();
  if (f.seat === mySeat) return;
  say(f.until ? interpolate(gettext("%(name)s disconnected."), { name: f.username })
    : interpolate(gettext("%(name)s is back."), { name: f.username }));
}

// -- the computer on empty seats ---------------------------------------------------------
// A seated player of a waiting casual game puts a bot (at a chosen level) on an empty
// seat or takes one off, through the API; the game's socket frames then repaint every
// viewer's page, as for a join. Ranked games are for people only.

const botChoice = new Map(); // seat -> level picked, kept across repaints

function canSeatBots() {
  return game.status === "waiting" && !game.ranked && mySeat !== null;
}

function seatTools(seat, info) {
  if (game.status === "active") return handOverTool(seat, info);
  if (!canSeatBots()) return null;
  const name = spec.seats[seat].name;
  if (info.bot) {
    return el("div", { class: "seat-bot" }, el("button", {
      type: "button", class: "btn secondary small", "data-remove-bot": seat,
      "aria-label": interpolate(gettext("Remove the computer from %(seat)s"), { seat: name }),
      onclick: (e) => changeBots(e.currentTarget, gettext("Could not remove the bot: %(reason)s"), () => del(`/api/games/${game.id}/bots/${seat}/`)),
    }, gettext("Remove")));
  }
  if (info.username) return null;
  const select = el("select", { "aria-label": interpolate(gettext("Computer level for %(seat)s"), { seat: name }), "data-bot-level": seat,
    onchange: (e) => botChoice.set(seat, e.currentTarget.value) },
  data.bot_levels.map((l) => el("option", { value: l.level }, l.label)));
  if (botChoice.has(seat)) select.value = botChoice.get(seat);
  return el("div", { class: "seat-bot" }, select, el("button", {
    type: "button", class: "btn small", "data-add-bot": seat, "aria-label": interpolate(gettext("Add the computer as %(seat)s"), { seat: name }),
    onclick: (e) => changeBots(e.currentTarget, gettext("Could not add the bot: %(reason)s"), () => post(`/api/games/${game.id}/bots/`, { level: select.value, seat })),
  }, gettext("Add bot")));
}

// failure: a sentence with %(reason)s, the API's detail (or code) in it.
async function changeBots(button, failure, request) {
  button.disabled = true;
  const res = await request();
  if (!res.ok) {
    const body = res.data || {};
    const reason = body.detail || body.code || interpolate(gettext("error %(status)s"), { status: res.status });
    say(interpolate(failure, { reason }), "error");
    msg.dataset.code = body.code || "";
    button.disabled = false;
    return;
  }
  say("");
  // The socket brings the same change to everyone; the answer just saves the wait (and
  // is dropped if the page holds a newer game already: another seat taken, the start).
  if (game.status === "waiting" && res.data.v > game.v) { takeGame(res.data); render(); refreshLegal(); }
}

// -- legal actions and reasons ------------------------------------------------------------

async function refreshLegal() {
  if (!myTurn() || legal.ply === game.ply) return;
  const ply = game.ply;
  const res = await get(`/api/games/${game.id}/legal-actions/`);
  if (!res.ok || game.ply !== ply) return;
  legal = { ply, actions: res.data.actions };
  render();
}

// The engine's answer for `action` in the current position: {ok, reason}.
async function reasonFor(action) {
  const blocked = notPlayingReason();
  if (blocked) return { ok: false, reason: blocked };
  const k = `${game.ply}|${JSON.stringify(action)}`;
  if (!reasons.has(k)) {
    const res = await get(`/games/${game.id}/check?action=${encodeURIComponent(JSON.stringify(action))}`);
    reasons.set(k, res.ok ? (res.data.ok ? null : res.data.reason) : gettext("cannot check right now"));
  }
  const reason = reasons.get(k);
  return { ok: reason === null, reason };
}

// JSON with sorted keys: the same action however its keys were ordered.
const canonical = (value) => JSON.stringify(value, (k, v) => (v && typeof v === "object" && !Array.isArray(v)
  ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));

function isKnownLegal(action) {
  if (legal.ply !== game.ply) return false;
  const wanted = canonical(action);
  return legal.actions.some((a) => canonical(a) === wanted);
}

function notPlayingReason() {
  if (game.status === "waiting") return gettext("The game has not started yet.");
  if (game.status !== "active") return gettext("The game is over.");
  if (mySeat === null) return gettext("You are watching this game.");
  if (!game.state.in_game[mySeat]) return gettext("You have left this game.");
  if (!myTurn()) return interpolate(gettext("It is not your turn: %(seat)s is to move."), { seat: seatLabel(game, spec, game.state.turn) });
  return null;
}

// -- input --------------------------------------------------------------------------------

// An action the board (or the notation box) made: sent as it is; the server decides.
function tryAction(action) {
  const k = canonical(action);
  if (sent && (sent.ply === game.ply || (sent.key === k && !myTurn()))) return;
  const blocked = notPlayingReason();
  if (blocked) { say(blocked, "warn"); return; }
  if (send({ type: "action", action, ply: game.ply, ref: `${game.ply}-${family.formatAction(action, mySeat)}` })) sent = { ply: game.ply, key: k };
}

function send(frame) {
  board.cancel();
  if (!socket.send(frame)) { say(gettext("You are offline; the move was not sent. Reconnecting…"), "error"); return false; }
  say(frame.type === "resign" ? gettext("Resigning…")
    : interpolate(gettext("Sent %(move)s…"), { move: family.formatAction(frame.action, mySeat) }));
  return true;
}

// -- socket -------------------------------------------------------------------------------

function takeGame(g) {
  const before = game.status;
  game = g;
  if (g.presence) presence = g.presence;
  clocksAt = performance.now();
  clocks = clockBase(g.clocks);
  if (before !== "active" && g.status === "active" && mySeat !== null) say(gettext("The game has started. Good luck!"), "ok");
  // Over: both chat rooms are everyone's now (chat/rooms.py); fetch the one not read yet.
  if (before === "active" && g.status !== "active") { chat.readAll(); queueMicrotask(() => socket.sync()); }
}

// Chat frames (and the acks and errors of chat frames, by their "chat-" refs) go to the
// chat panel; it sends through this page's socket.
const chat = createChat($("chat"), { me: data.me, send: (frame) => socket.send(frame) });
const hint = $("hint-box") && createHint($("hint-box"), { board: () => board });
const table = createTable(data);
const isChat = (f) => typeof f.ref === "string" && f.ref.startsWith("chat-");

// The seat this page's account holds in `g` (null: watching), from every frame with a
// game: a change that seated it may be overtaken by the next move, which the server then
// seats the socket by (docs/realtime.md, "A `game` frame never takes anything back").
function followSeats(g) {
  const found = g.seats.findIndex((s) => s.username && s.username === data.me.username);
  const seat = found === -1 ? null : found;
  if (seat !== mySeat) { mySeat = seat; buildBoard(); }
}

const socket = new GameSocket(game.id, game.ply, {
  hello(you, g) {
    sent = null; // a new connection: a frame in flight was either applied or lost
    if (you.seat !== mySeat) { mySeat = you.seat; buildBoard(); }
    takeGame(g);
    render();
    refreshLegal();
  },
  events(fresh, g) {
    followSeats(g);
    const colour = game.state.colour; // the colour to move before them (docs/api.md), if any
    for (const [i, e] of fresh.entries()) {
      rows.push({ ply: e.ply, seat: e.seat, action: e.action, text: family.formatAction(e.action, e.seat),
        colour: i === 0 && e.seat === game.state.turn ? colour : undefined });
    }
    takeGame(g);
    board.cancel();
    const last = fresh[fresh.length - 1];
    if (last) say(`${family.describe(last.action, seatLabel(game, spec, last.seat))}.`);
    if (game.result) say("", "");
    render();
    refreshLegal();
  },
  change(f) {
    followSeats(f.game);
    takeGame(f.game);
    render();
    refreshLegal();
  },
  presence(p) { presence = p; renderPresence(); },
  away: onAway,
  ack(f) { if (isChat(f)) chat.ack(f); else say(""); },
  chat: (message) => chat.chat(message),
  chatHistory: (messages) => chat.history(messages),
  chatDeleted: (id) => chat.deleted(id),
  chatAfter: () => chat.lastId,
  error(f) {
    if (isChat(f)) { chat.error(f); return; }
    sent = null; // refused: the player may try again
    const text = f.code === "stale_ply" ? gettext("The position changed before your move arrived; look again.") : f.detail;
    say(interpolate(gettext("Move refused: %(reason)s"), { reason: text }), "error");
    if (f.code === "stale_ply") socket.sync();
  },
  status(online) {
    $("offline").hidden = online;
    $("board-wrap").dataset.online = online ? "yes" : "no";
  },
}, game.v);
window.bloqueioSocket = socket; // tests drop it to check reconnection

// -- page wiring --------------------------------------------------------------------------

// The kind's own words (games/boards/<family>.py `words`), else the family module's.
const notationHelp = (spec.words && spec.words.notation_help) || family.notationHelp;
$("notation").placeholder = (spec.words && spec.words.notation_placeholder) || family.notationPlaceholder;
$("notation-help").textContent = notationHelp;
$("notation-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = $("notation");
  const action = family.parseNotation(input.value, spec);
  if (!action) { say(interpolate(gettext("\"%(text)s\" is not a move (%(help)s)"), { text: input.value, help: notationHelp }), "error"); return; }
  const answer = isKnownLegal(action) ? { ok: true } : await reasonFor(action);
  if (!answer.ok) {
    say(interpolate(gettext("You can't play %(move)s: %(reason)s."), { move: family.formatAction(action, mySeat), reason: answer.reason }), "error");
    return;
  }
  input.value = "";
  tryAction(action);
});
const dialog = $("resign-dialog");
$("resign").addEventListener("click", () => dialog.showModal());
$("resign-cancel").addEventListener("click", () => dialog.close());
$("resign-confirm").addEventListener("click", () => { dialog.close(); send({ type: "resign", ref: "resign" }); });
const share = $("share-link");
if (share && !share.dataset.invite) share.value = location.href;
if (share) share.addEventListener("focus", () => share.select()); // no inline handlers: CSP

$("board-view").addEventListener("change", (e) => {
  rememberView(e.currentTarget.value === "turned");
  buildBoard();
  render();
});
buildBoard();
render();
setInterval(tickClocks, 200);
say("");
