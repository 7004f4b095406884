// Sentences every board module says alike, translated (static/js/i18n.js): the board's
// name for assistive technology, and the events that are not moves (passing, leaving).

import { gettext, interpolate } from "../i18n.js";

export { gettext, interpolate, ngettext, pgettext } from "../i18n.js";

// The interactive board's label: "Quoridor board, you are Red." or "..., watching."
export function boardLabel(game, spec, seat) {
  return seat === null || seat === undefined || !spec.seats[seat]
    ? interpolate(gettext("%(game)s board, watching."), { game })
    : interpolate(gettext("%(game)s board, you are %(seat)s."), { game, seat: spec.seats[seat].name });
}

// A board seen without playing (the replay names its own): "Quoridor board".
export const plainLabel = (label, spec) => label || interpolate(gettext("%(game)s board"), { game: spec.title });

// What a seat did when it did not move: "Red passed", "Blue resigned"; null for a move.
export function eventSentence(action, seat) {
  const say = {
    pass: () => gettext("%(seat)s passed"), resign: () => gettext("%(seat)s resigned"),
    timeout: () => gettext("%(seat)s ran out of time"), removed: () => gettext("%(seat)s was removed"),
  }[action.type];
  return say ? interpolate(say(), { seat }) : null;
}
