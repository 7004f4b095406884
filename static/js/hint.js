// The game page's Hint button (docs/web.md): in a casual game, on your own turn, it asks
// GET /api/games/{id}/hint/ for the computer's suggestion and shows it on the board (the
// board module's `highlight(action)`, as the replay's best move) with its reason in
// words. Ranked games and spectators get no button; the server refuses them too.

import { el, get } from "./api.js";
import { gettext, interpolate } from "./i18n.js";

// box: where the button and its answer go; board(): the current board view (the page
// rebuilds it when the viewer's seat changes). Returns { update(game, seat) }.
export function createHint(box, { board }) {
  const button = el("button", { type: "button", class: "btn secondary small", id: "hint", "aria-describedby": "hint-text" }, gettext("Hint"));
  const text = el("p", { class: "small hint-text", id: "hint-text", "aria-live": "polite" });
  box.replaceChildren(button, text);
  const answers = new Map(); // ply -> the answer's promise: asking twice gives the same
  let game = null, shownAt = null;

  function clear() {
    if (shownAt !== null && board().highlight) board().highlight(null);
    shownAt = null;
    text.textContent = "";
    text.classList.remove("error");
  }

  async function ask() {
    const ply = game.ply;
    button.disabled = true;
    button.textContent = gettext("Thinking…");
    if (!answers.has(ply)) answers.set(ply, get(`/api/games/${game.id}/hint/`));
    const answer = await answers.get(ply);
    button.disabled = false;
    button.textContent = gettext("Hint");
    if (!answer.ok) answers.delete(ply);
    if (game.ply !== ply) return; // the game moved on meanwhile
    if (!answer.ok) {
      text.textContent = (answer.data && answer.data.detail) || gettext("No hint right now.");
      text.classList.add("error");
      return;
    }
    const { action, notation, reason } = answer.data;
    if (board().highlight) board().highlight(action);
    shownAt = ply;
    text.classList.remove("error");
    text.textContent = reason ? interpolate(gettext("Hint: %(move)s (%(reason)s)."), { move: notation, reason })
      : interpolate(gettext("Hint: %(move)s."), { move: notation });
  }

  button.addEventListener("click", ask);

  return {
    // The page calls this after every repaint: the button only on the viewer's own turn
    // of a casual game; the suggestion goes once the position changes.
    update(current, seat) {
      game = current;
      const mine = game.status === "active" && !game.ranked && seat !== null
        && game.state.in_game[seat] && game.state.turn === seat;
      box.hidden = !mine;
      if (shownAt !== null && (!mine || shownAt !== game.ply)) clear();
      else if (shownAt !== null && board().highlight) {
        const ply = shownAt;
        answers.get(ply).then((a) => { if (a.ok && shownAt === ply) board().highlight(a.data.action); });
      }
    },
  };
}
