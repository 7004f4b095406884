// The game page's table business: the invitation link (copy it), an invitation by name
// (and taking one back), and after a finished game the rematch offer (docs/api.md, "Invitations and rematches").
// game.js calls update(game, mySeat) whenever the game changes; the rematch's answers
// arrive live on the player's own socket (/ws/me/, `notify` frames rematch_*).

import { get, post } from "./api.js";
import { gettext, interpolate } from "./i18n.js";
import { LiveSocket } from "./socket.js";

const $ = (id) => document.getElementById(id);

// The pending invitations by name, each with "Take back" (POST /api/invitations/{id}/revoke/).
function invitationList(pending) {
  const list = $("invitations");
  const shown = new Map();
  function item(invitation) {
    const li = document.createElement("li");
    li.dataset.invitation = String(invitation.id);
    li.append(interpolate(gettext("%(name)s is invited."), { name: invitation.invited }), " ");
    const back = document.createElement("button");
    back.type = "button";
    back.className = "btn secondary small take-back";
    back.textContent = gettext("Take back");
    back.addEventListener("click", async () => {
      back.disabled = true;
      const res = await post(`/api/invitations/${invitation.id}/revoke/`);
      const status = $("invite-status");
      if (res.ok || (res.data && res.data.code === "invitation_closed")) {
        li.remove();
        shown.delete(invitation.id);
      } else {
        back.disabled = false;
      }
      status.className = res.ok ? "small" : "small error";
      status.textContent = res.ok
        ? interpolate(gettext("The invitation of %(name)s is taken back."), { name: invitation.invited })
        : (res.data && res.data.detail) || gettext("The invitation could not be taken back.");
    });
    li.append(back);
    return li;
  }
  function add(invitation) {
    if (!list || invitation.status !== "pending" || shown.has(invitation.id)) return;
    const li = item(invitation);
    shown.set(invitation.id, li);
    list.append(li);
  }
  (pending || []).forEach(add);
  return { add };
}

function setupInvite(gameId, pending) {
  const invited = invitationList(pending);
  const copy = $("copy-invite");
  if (copy) {
    copy.addEventListener("click", async () => {
      const link = $("share-link");
      let done = false;
      try { await navigator.clipboard.writeText(link.value); done = true; } catch { done = false; }
      if (!done) { link.select(); done = document.execCommand && document.execCommand("copy"); }
      $("copy-done").textContent = done ? gettext("Copied.") : gettext("Select the link and copy it.");
    });
  }
  const form = $("invite-form");
  if (!form) return;
  form.addEventListener("submit", async (evt) => {
    evt.preventDefault();
    const input = $("invite-name");
    const name = input.value.trim();
    if (!name) return;
    const res = await post(`/api/games/${gameId}/invitations/`, { username: name });
    const status = $("invite-status");
    if (res.ok) {
      input.value = "";
      status.className = "small";
      status.textContent = interpolate(gettext("%(name)s is invited."), { name: res.data.invited });
      invited.add(res.data);
    } else {
      status.className = "small error";
      status.textContent = (res.data && res.data.detail) || gettext("The invitation failed.");
    }
  });
}

function rematchText(state) {
  if (!state) return gettext("Play again with the same table? Everyone is asked; the seats move one place on.");
  if (state.status === "started") return gettext("Everyone accepted: the rematch has started.");
  if (state.status === "declined") {
    return interpolate(gettext("%(names)s declined the rematch."), { names: state.declined.join(", ") });
  }
  return interpolate(gettext("Rematch offered by %(name)s. Accepted: %(accepted)s. Waiting for: %(waiting)s."), {
    name: state.offered_by || "?",
    accepted: state.accepted.join(", ") || "–",
    waiting: state.waiting.join(", ") || "–",
  });
}

export function createTable(data) {
  const gameId = data.game.id;
  const me = data.me.username;
  let state = data.rematch || null;
  let socket = null;
  let shown = false;
  let leaving = false;
  setupInvite(gameId, data.invitations);

  function render() {
    const box = $("rematch");
    if (!box || !shown) return;
    box.hidden = false;
    $("rematch-status").textContent = rematchText(state);
    const answered = state && (state.accepted.includes(me) || state.declined.includes(me));
    const open = !state || state.status === "pending";
    const yes = $("rematch-yes");
    yes.hidden = !open || answered;
    yes.textContent = state ? gettext("Accept the rematch") : gettext("Rematch");
    $("rematch-no").hidden = !(open && state && !answered);
    const go = $("rematch-go");
    go.hidden = !(state && state.status === "started" && state.game_id);
    if (!go.hidden) go.href = `/games/${state.game_id}/`;
  }

  // The answer and the socket's notice may both say "started", in either order: both go
  // through apply, which leaves for the new game once (a second assignment to
  // location.href would abort the first navigation).
  async function answer(url) {
    const res = await post(url);
    if (res.ok) apply(res.data);
    else $("rematch-status").textContent = (res.data && res.data.detail) || gettext("The rematch failed.");
  }

  const yes = $("rematch-yes");
  if (yes) yes.addEventListener("click", () => answer(`/api/games/${gameId}/rematch/`));
  const no = $("rematch-no");
  if (no) no.addEventListener("click", () => answer(`/api/games/${gameId}/rematch/decline/`));

  // Off to the new game when the rematch starts while this page looks on (not when the
  // page was opened on a game whose rematch had started already: its link says so).
  function apply(next) {
    const was = state && state.status;
    state = next;
    render();
    if (!leaving && was !== "started" && state && state.status === "started" && state.game_id) {
      leaving = true;
      location.href = `/games/${state.game_id}/`;
    }
  }

  // A notice sent before this socket listened (it opens when the game ends, and the
  // others may answer at once) or while it was away is not sent again: once it is open,
  // the game's own `rematch` field is read back.
  async function catchUp() {
    const res = await get(`/api/games/${gameId}/`);
    if (res.ok && res.data.rematch) apply(res.data.rematch);
  }

  function listen() {
    if (socket) return;
    socket = new LiveSocket("/ws/me/", {
      onOpen: catchUp,
      onMessage(f) {
        if (f.type !== "notify" || f.game_id !== gameId || !String(f.event).startsWith("rematch")) return;
        apply(f.rematch);
      },
    });
  }

  return {
    update(game, mySeat) {
      const finished = game.status === "finished" && mySeat !== null && mySeat !== undefined;
      if (finished && !shown) {
        shown = true;
        listen();
      }
      render();
    },
  };
}
