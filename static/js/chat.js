// The game page's chat panel (docs/web.md, "Chat"). It owns #chat: renders the messages
// the socket brings (`chat`, `chat_history`, `chat_deleted`, docs/realtime.md), sends
// what you type through the game's socket, and shows refusals under the input.
// Messages are TEXT: every string goes in through textContent (api.js `el`), never
// innerHTML, and links are not made clickable.

import { el, post } from "./api.js";
import { formatDateTime, formatTime, gettext, interpolate, relativeTime } from "./i18n.js";

const ROOM_LABEL = { players: () => gettext("Players' chat"), spectators: () => gettext("Spectators' chat") };
const ERRORS = {
  muted: (f) => (f.until
    ? interpolate(gettext("You are muted until %(when)s (%(relative)s)."), { when: formatDateTime(f.until), relative: relativeTime(f.until) })
    : gettext("You are muted.")),
  rate_limited: () => gettext("Too fast: wait a few seconds before the next message."),
  too_long: () => gettext("That message is too long (280 characters at most)."),
  invalid: () => gettext("Type a message first."),
  not_authenticated: () => gettext("Log in to chat."),
};

// The same rules as chat/rooms.py: players still in a running game write (and read only)
// the players' room; everyone else writes the spectators' room and reads both.
function playing(game, seat) {
  if (seat === null || seat === undefined) return false;
  if (game.status !== "active") return true;
  return Boolean(game.state.in_game && game.state.in_game[seat]);
}

export function createChat(root, { me, send }) {
  const $ = (sel) => root.querySelector(sel);
  const log = $("#chat-log");
  const form = $("#chat-form");
  const input = $("#chat-input");
  const error = $("#chat-error");
  const toggle = $("#chat-toggle");
  const unread = $("#chat-unread");
  input.placeholder = gettext("Say something…");
  const byId = new Map(); // id -> {message, node}
  let lastId = 0;
  let sent = 0;
  let unseen = 0;
  let openReport = null;

  import("./report.js")
    .then((mod) => { openReport = mod.openReportDialog || null; refreshReportLinks(); })
    .catch(() => { openReport = null; });

  function refreshReportLinks() {
    for (const node of log.querySelectorAll(".chat-report")) node.hidden = !openReport;
  }

  // Collapsed only where the toggle shows (phones): wide screens always show the log.
  function collapsed() {
    return root.classList.contains("collapsed") && getComputedStyle(toggle).display !== "none";
  }

  function setOpen(open) {
    root.classList.toggle("collapsed", !open);
    toggle.setAttribute("aria-expanded", String(open));
    toggle.firstChild.textContent = `${open ? gettext("Hide chat") : gettext("Show chat")} `;
    if (open) { unseen = 0; unread.hidden = true; log.scrollTop = log.scrollHeight; }
  }
  toggle.addEventListener("click", () => setOpen(collapsed()));

  function showError(text) {
    error.textContent = text;
    error.hidden = !text;
  }

  function render(message) {
    const mine = me.username && message.username === me.username;
    const text = message.deleted && !message.text ? gettext("message deleted") : message.text;
    const when = new Date(message.at);
    const node = el("li", {
      class: `chat-msg ${message.room}${message.deleted ? " deleted" : ""}${mine ? " mine" : ""}`,
      "data-id": message.id, "data-room": message.room,
    },
    el("span", { class: "chat-who" }, message.username),
    message.room === "spectators" ? el("span", { class: "chat-tag", title: gettext("Spectators' room") }, gettext("spectator")) : null,
    " ",
    el("span", { class: "chat-text" }, text),
    message.deleted && message.text ? el("span", { class: "chat-tag" }, gettext("deleted")) : null,
    el("span", { class: "chat-meta" },
      el("time", { datetime: message.at, title: formatDateTime(when) }, formatTime(when)),
      !mine && me.username && !message.deleted
        ? el("button", {
          type: "button", class: "link chat-report", hidden: !openReport,
          onclick: () => openReport?.({ targetType: "chat_message", targetId: message.id, label: `${message.username}: ${message.text}` }),
        }, gettext("Report")) : null,
      me.moderator && !message.deleted
        ? el("button", { type: "button", class: "link chat-delete", onclick: () => remove(message) }, gettext("Delete")) : null));
    return node;
  }

  // Insert or replace in id order: two messages committed at once may arrive swapped.
  function put(message) {
    const had = byId.get(message.id);
    const node = render(message);
    if (had) had.node.replaceWith(node);
    else {
      let after = null;
      for (const other of log.children) {
        if (Number(other.dataset.id) > message.id) { after = other; break; }
      }
      log.insertBefore(node, after);
    }
    byId.set(message.id, { message, node });
    lastId = Math.max(lastId, message.id);
    return !had;
  }

  function take(messages) {
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    let fresh = 0;
    for (const m of messages) if (put(m)) fresh += 1;
    if (atBottom) log.scrollTop = log.scrollHeight;
    if (fresh && collapsed()) {
      unseen += fresh;
      unread.textContent = String(unseen);
      unread.hidden = false;
    }
    $("#chat-empty").hidden = byId.size > 0;
  }

  function deleted(id) {
    const had = byId.get(id);
    if (!had) return;
    // Moderators keep the text, marked deleted; everyone else sees only that it was.
    put({ ...had.message, deleted: true, text: me.moderator ? had.message.text : "" });
  }

  async function remove(message) {
    const reason = window.prompt(interpolate(gettext("Delete %(user)s's message? Reason (for the moderation log):"), { user: message.username }), "");
    if (reason === null) return;
    const res = await post(`/api/chat/${message.id}/delete/`, { reason });
    if (!res.ok) showError(res.data?.detail || gettext("The message could not be deleted."));
    else deleted(message.id);
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value;
    if (!text.trim()) { showError(ERRORS.invalid()); return; }
    sent += 1;
    if (!send({ type: "chat", text, ref: `chat-${sent}` })) {
      showError(gettext("You are offline; the message was not sent."));
      return;
    }
    input.disabled = true; // until the ack (cleared) or the error (kept, to fix and resend)
  });

  function setView(game, seat) {
    const room = playing(game, seat) ? "players" : "spectators";
    const signedIn = Boolean(me.username);
    $("#chat-room").textContent = signedIn ? ROOM_LABEL[room]() : gettext("Chat");
    form.hidden = !signedIn;
    const note = $("#chat-note");
    note.textContent = room === "players" && game.status === "active"
      ? gettext("Only the players read this room. Spectators' messages show once the game is over.")
      : (room === "spectators" && game.status === "active"
        ? gettext("Players don't see this room, and the players' chat opens when the game is over.")
        : "");
    note.hidden = !note.textContent;
  }

  setOpen(false); // collapsed on phones; the stylesheet always shows it on wide screens
  return {
    setView,
    chat: (message) => take([message]),
    history: (messages) => take(messages),
    deleted,
    ack() { input.disabled = false; input.value = ""; showError(""); input.focus(); },
    error(f) { input.disabled = false; showError((ERRORS[f.code] || (() => f.detail))(f)); input.focus(); },
    // The game ended: the rooms merge, so the next sync asks for the whole history (the
    // other room's messages have ids below the last one held); put() drops repeats.
    readAll() { lastId = 0; },
    get lastId() { return lastId; },
  };
}
