// The game page: play (or watch) one game live. The page embeds the game, the board spec,
// the events so far and who you are; the socket keeps them current; the board turns
// clicks, taps and keys into actions. Legal moves come from the API's legal actions;
// reasons for refusals come from the page's /check endpoint (rules.is_legal).

import { el, get, readData } from "./api.js";
import { Board, barrierKey, rotationFor } from "./board.js";
import { chip, clockBase, clockNow, formatClock, renderMoves, renderPlayers, renderResult, seatLabel } from "./panel.js";
import { describe, formatAction, parseNotation } from "./notation.js";
import { GameSocket } from "./socket.js";

const data = readData("game-data");
const { spec } = data;
let game = data.game;
let mySeat = data.me.seat;
let presence = game.presence || null;
const rows = data.events.map((e) => ({ ply: e.ply, seat: e.seat, text: e.text, action: e.action }));
let legal = { ply: -1, moves: [], barriers: new Set() };
let pending = null; // a barrier waiting for the touch/keyboard confirm step
let clocksAt = performance.now();
let clocks = clockBase(game.clocks);
const reasons = new Map(); // "ply|action" -> reason, so hovering never asks twice

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
  const who = mySeat === null ? "watching" : `you are ${spec.seats[mySeat].name}`;
  board = new Board($("board"), spec, {
    rotation: rotationFor(spec, mySeat), interactive: true,
    label: `${data.label} board, ${who}. Arrow keys move the cursor, Enter moves there, H or V previews a barrier.`,
  });
  board.on("cell", onCell).on("barrier", onBarrier).on("hover", onHover)
    .on("activate", onCell).on("barrierKey", (b) => askConfirm(b)).on("escape", cancelPending)
    .on("cursorStart", () => (mySeat !== null && game.state.pawns[mySeat]) || null)
    .on("cursor", (c) => say(`Cursor on ${formatAction({ type: "move", to: c })}`));
}

// -- rendering ----------------------------------------------------------------------------

function render() {
  board.render(game.state, { legal: myTurn() ? legal.moves : [], last: lastAction() });
  renderPresence();
  renderMoves($("moves"), rows, spec, { link: (ply) => `/games/${game.id}/replay/?ply=${ply}` });
  renderResult($("result"), game, spec);
  renderStatus();
  $("resign").hidden = !(game.status === "active" && mySeat !== null && game.state.in_game[mySeat]);
  $("notation-form").hidden = !(game.status === "active" && mySeat !== null);
  $("waiting").hidden = game.status !== "waiting";
  board.el.dataset.ply = game.ply;
  board.el.dataset.status = game.status;
}

// Who is here: the players list (with clocks and online marks) and the spectator count.
// Presence frames repaint only this.
function renderPresence() {
  renderPlayers($("players"), game, spec, {
    presence, clocks: clockNow(game.clocks, clocks, clocksAt, performance.now()), me: mySeat,
  });
  $("spectators").textContent = presence ? String(presence.spectators ?? 0) : "0";
}

function renderStatus() {
  const line = $("status-line");
  line.classList.remove("mine");
  let text;
  if (game.status === "waiting") {
    const taken = game.seats.filter((s) => s.username).length;
    text = `Waiting for players: ${taken} of ${game.seats.length} seats taken.`;
  } else if (game.status === "active") {
    const turn = game.state.turn;
    if (turn === mySeat) { text = "Your turn: click a highlighted cell, or a groove for a barrier."; line.classList.add("mine"); }
    else text = `${seatLabel(game, spec, turn)} to move.`;
  } else if (game.status === "aborted") text = "This game was aborted.";
  else text = "Game over.";
  line.replaceChildren(game.status === "active" ? chip(spec, game.state.turn) : "", " ", text);
  document.title = `${myTurn() ? "● Your turn · " : ""}#${game.id} ${data.label} · Bloqueio Online`;
}

function tickClocks() {
  if (!game.clocks || game.status !== "active") return;
  const now = clockNow(game.clocks, clocks, clocksAt, performance.now());
  for (const node of document.querySelectorAll("#players .clock")) {
    const seat = Number(node.dataset.seat);
    if (now[seat] === null || now[seat] === undefined) continue;
    const ms = Math.max(0, now[seat]);
    node.textContent = formatClock(ms);
    node.classList.toggle("low", ms < 20000);
  }
}

// -- legal actions and reasons ------------------------------------------------------------

async function refreshLegal() {
  if (!myTurn() || legal.ply === game.ply) return;
  const ply = game.ply;
  const res = await get(`/api/games/${game.id}/legal-actions/`);
  if (!res.ok || game.ply !== ply) return;
  const moves = [], barriers = new Set();
  for (const a of res.data.actions) {
    if (a.type === "move") moves.push(a.to);
    else if (a.type === "barrier") barriers.add(barrierKey(a));
  }
  legal = { ply, moves, barriers };
  render();
}

function isLegal(action) {
  if (legal.ply !== game.ply) return null; // not known yet
  if (action.type === "move") return legal.moves.some(([r, c]) => r === action.to[0] && c === action.to[1]);
  return legal.barriers.has(barrierKey(action));
}

async function reasonFor(action) {
  const k = `${game.ply}|${JSON.stringify(action)}`;
  if (!reasons.has(k)) {
    const res = await get(`/games/${game.id}/check?action=${encodeURIComponent(JSON.stringify(action))}`);
    reasons.set(k, res.ok ? (res.data.ok ? null : res.data.reason) : "cannot check right now");
  }
  return reasons.get(k);
}

function notPlayingReason() {
  if (game.status === "waiting") return "The game has not started yet.";
  if (game.status !== "active") return "The game is over.";
  if (mySeat === null) return "You are watching this game.";
  if (!game.state.in_game[mySeat]) return "You have left this game.";
  if (!myTurn()) return `It is not your turn: ${seatLabel(game, spec, game.state.turn)} is to move.`;
  return null;
}

// -- input --------------------------------------------------------------------------------

async function tryAction(action) {
  const blocked = notPlayingReason();
  if (blocked) { say(blocked, "warn"); return; }
  let ok = isLegal(action);
  let reason = null;
  if (ok !== true) {
    reason = await reasonFor(action);
    ok = reason === null;
  }
  const text = formatAction(action);
  if (!ok) {
    say(`${action.type === "move" ? "You can't move to" : "You can't place a barrier at"} ${text}: ${reason}.`, "error");
    return;
  }
  send({ type: "action", action, ply: game.ply, ref: `${game.ply}-${text}` });
}

function send(frame) {
  cancelPending();
  if (!socket.send(frame)) say("You are offline; the move was not sent. Reconnecting…", "error");
  else say(frame.type === "resign" ? "Resigning…" : `Sent ${formatAction(frame.action)}…`);
}

function onCell(cell) {
  cancelPending();
  tryAction({ type: "move", to: cell });
}

function onBarrier(barrier, pointerType) {
  if (pointerType === "touch") { askConfirm(barrier); return; }
  tryAction({ type: "barrier", ...barrier });
}

let hoverTimer = null;
function onHover(barrier) {
  if (pending) return;
  clearTimeout(hoverTimer);
  if (!barrier || notPlayingReason()) { board.setPreview(null); return; }
  const action = { type: "barrier", ...barrier };
  const ok = isLegal(action);
  board.setPreview(barrier, ok !== false);
  const text = formatAction(action);
  if (ok) { say(`Click to place a barrier at ${text}.`); return; }
  hoverTimer = setTimeout(async () => {
    const reason = await reasonFor(action);
    if (board.el.querySelector(".preview line")?.dataset.at !== `${barrier.at[0]},${barrier.at[1]}`) return;
    board.setPreview(barrier, reason === null);
    say(reason === null ? `Click to place a barrier at ${text}.` : `Barrier ${text} is not allowed: ${reason}.`, reason === null ? "" : "error");
  }, 120);
}

async function askConfirm(barrier) {
  const blocked = notPlayingReason();
  if (blocked) { say(blocked, "warn"); return; }
  const action = { type: "barrier", ...barrier };
  let ok = isLegal(action);
  const reason = ok ? null : await reasonFor(action);
  ok = reason === null;
  board.setPreview(barrier, ok);
  if (!ok) { say(`Barrier ${formatAction(action)} is not allowed: ${reason}.`, "error"); return; }
  pending = action;
  $("confirm-text").textContent = `Place a ${barrier.orientation === "H" ? "horizontal" : "vertical"} barrier at ${formatAction({ type: "move", to: barrier.at })} (${formatAction(action)})?`;
  $("confirm-bar").hidden = false;
  $("confirm-place").focus();
}

function cancelPending() {
  pending = null;
  $("confirm-bar").hidden = true;
  board.setPreview(null);
}

// -- socket -------------------------------------------------------------------------------

function takeGame(g) {
  const before = game.status;
  game = g;
  if (g.presence) presence = g.presence;
  clocksAt = performance.now();
  clocks = clockBase(g.clocks);
  if (before !== "active" && g.status === "active" && mySeat !== null) say("The game has started. Good luck!", "ok");
}

const socket = new GameSocket(game.id, game.ply, {
  hello(you, g) {
    if (you.seat !== mySeat) { mySeat = you.seat; buildBoard(); }
    takeGame(g);
    render();
    refreshLegal();
  },
  events(fresh, g) {
    for (const e of fresh) {
      rows.push({ ply: e.ply, seat: e.seat, action: e.action, text: formatAction(e.action, e.seat) });
    }
    takeGame(g);
    cancelPending();
    const last = fresh[fresh.length - 1];
    if (last) say(`${describe(last.action, seatLabel(game, spec, last.seat))}.`);
    if (game.result) say("", "");
    render();
    refreshLegal();
  },
  change(f) {
    const seat = f.game.seats.findIndex((s) => s.username && s.username === data.me.username);
    if ((seat === -1 ? null : seat) !== mySeat) { mySeat = seat === -1 ? null : seat; buildBoard(); }
    takeGame(f.game);
    render();
    refreshLegal();
  },
  presence(p) { presence = p; renderPresence(); },
  ack() { say(""); },
  error(f) {
    const text = f.code === "stale_ply" ? "The position changed before your move arrived; look again." : f.detail;
    say(`Move refused: ${text}`, "error");
    if (f.code === "stale_ply") socket.sync();
  },
  status(online) {
    $("offline").hidden = online;
    $("board-wrap").dataset.online = online ? "yes" : "no";
  },
});
window.bloqueioSocket = socket; // tests drop it to check reconnection

// -- page wiring --------------------------------------------------------------------------

$("confirm-place").addEventListener("click", () => { if (pending) tryAction(pending); });
$("confirm-cancel").addEventListener("click", () => { cancelPending(); say(""); });
$("notation-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("notation");
  const action = parseNotation(input.value);
  if (!action) { say(`"${input.value}" is not a move: type a cell like f2, or a barrier like e3h.`, "error"); return; }
  input.value = "";
  tryAction(action);
});
const dialog = $("resign-dialog");
$("resign").addEventListener("click", () => dialog.showModal());
$("resign-cancel").addEventListener("click", () => dialog.close());
$("resign-confirm").addEventListener("click", () => { dialog.close(); send({ type: "resign", ref: "resign" }); });
const share = $("share-link");
if (share) share.value = location.href;

buildBoard();
render();
setInterval(tickClocks, 200);
say("");
