// Cell names as every board labels its edges: column letter, then row number ("f2").
// The engine's reasons speak in [row, col]; the page turns them into these names.

export const cellName = ([r, c]) => `${String.fromCharCode(97 + c)}${r}`;

// "cell [7,7] is not reachable" -> "cell h7 is not reachable"
export function cellsInWords(text) {
  return String(text).replace(/\[(\d+),\s*(\d+)\]/g, (_, r, c) => cellName([Number(r), Number(c)]));
}
