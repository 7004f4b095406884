// The compact notation of docs/engine.md (the same as rules.format_action):
// letter = column (a = 0), number = row (0 at the top); barriers add "h"/"v".

export const cellName = ([r, c]) => `${String.fromCharCode(97 + c)}${r}`;

export function formatAction(action, seat) {
  switch (action.type) {
    case "move": return cellName(action.to);
    case "barrier": return cellName(action.at) + action.orientation.toLowerCase();
    case "pass": return "pass";
    case "resign": case "timeout": case "removed": return `${action.type}:${seat}`;
    default: return action.type;
  }
}

// "f2" -> move, "e3h" -> barrier; null when the text is not an action.
export function parseNotation(text) {
  const m = /^([a-z])(0|[1-9][0-9]?)([hv]?)$/.exec(text.trim().toLowerCase());
  if (!m) return null;
  const cell = [Number(m[2]), m[1].charCodeAt(0) - 97];
  if (m[3]) return { type: "barrier", at: cell, orientation: m[3].toUpperCase() };
  return { type: "move", to: cell };
}

export function describe(action, seatName) {
  switch (action.type) {
    case "move": return `${seatName} moved to ${cellName(action.to)}`;
    case "barrier":
      return `${seatName} placed a ${action.orientation === "H" ? "horizontal" : "vertical"} barrier at ${cellName(action.at)}`;
    case "pass": return `${seatName} passed`;
    case "resign": return `${seatName} resigned`;
    case "timeout": return `${seatName} ran out of time`;
    case "removed": return `${seatName} was removed`;
    default: return `${seatName}: ${action.type}`;
  }
}
