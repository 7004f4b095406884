// The signed-in user's own socket (/ws/me/), one per page, shared by whoever listens:
// the notification badge in the header on every page, and the lobby (a match found, a
// game started). The hub lives on `window` so that two copies of this module (the page's
// and an import through another URL, as with hashed static files) still share one socket.

import { LiveSocket } from "./socket.js";

function hub() {
  if (!window.bloqueioMe) window.bloqueioMe = { listeners: [], socket: null };
  return window.bloqueioMe;
}

export function onMe(listener) {
  const h = hub();
  h.listeners.push(listener);
  if (!h.socket) {
    h.socket = new LiveSocket("/ws/me/", {
      onMessage(frame) {
        for (const l of h.listeners) l(frame);
      },
    });
  }
}

// The badge: the unread count, from every notification frame that carries it.
const badge = document.getElementById("notif-badge");
if (badge && !hub().badge) {
  hub().badge = true;
  onMe((f) => {
    if (f.type !== "notify" || typeof f.unread !== "number") return;
    badge.textContent = String(f.unread);
    badge.hidden = f.unread === 0;
    const link = document.getElementById("notif-link");
    if (link) link.classList.toggle("has-unread", f.unread > 0);
  });
}
