'use strict';
/**
 * Bloqueio's rules (docs/rules.md#bloqueio) in plain JavaScript, for the boardgame.io
 * peer of bench/load.py.
 *
 * A port of games/engine/barrier (geometry.py's pawn moves, walls.py's overlap, crossing
 * and path checks, rules.py's turn, goal, move limit and stalemate), written plainly
 * (arrays and a flood fill) rather than with the engine's bitboards: the peer must check
 * every move as our server does, or it would be flattered. replay.js replays every
 * recorded game of bench/games/bloqueio.jsonl through it and checks each move is legal
 * and each game ends as recorded.
 *
 * A state is plain JSON (boardgame.io keeps it as G):
 *   {turn, pawns: [[r, c] | null x4], barriers: [{at, orientation, seat}],
 *    barriersLeft: [6, 6, 6, 6], inGame: [true x4], ply, winner, over}
 */

const GRID = 11; // rows and columns 0..10; the inner square is 1..9
const LO = 1;
const HI = 9;
const SEATS = 4;
const BARRIERS_EACH = 6;
const MAX_PLIES = 100 * SEATS;
// Seat specs: start cell, goal axis (0: a row, 1: a column) at line.
const SPECS = [
  { start: [1, 5], axis: 0, line: 10 }, // red: row 10
  { start: [5, 9], axis: 1, line: 0 }, //  blue: col 0
  { start: [9, 5], axis: 0, line: 0 }, //  green: row 0
  { start: [5, 1], axis: 1, line: 10 }, // yellow: col 10
];
const DELTAS = [[-1, 0], [1, 0], [0, -1], [0, 1]]; // up, down, left, right
const PERPENDICULAR = [[2, 3], [2, 3], [0, 1], [0, 1]];

function initial() {
  return {
    turn: 0,
    pawns: SPECS.map((s) => [s.start[0], s.start[1]]),
    barriers: [],
    barriersLeft: Array(SEATS).fill(BARRIERS_EACH),
    inGame: Array(SEATS).fill(true),
    ply: 0,
    winner: null,
    over: false,
  };
}

const inner = (r, c) => r >= LO && r <= HI && c >= LO && c <= HI;

/** The cell is in `seat`'s goal zone: its goal line, corners excluded. */
function inGoal(seat, r, c) {
  const s = SPECS[seat];
  return s.axis === 0 ? r === s.line && c >= LO && c <= HI : c === s.line && r >= LO && r <= HI;
}

const enterable = (seat, r, c) => inner(r, c) || inGoal(seat, r, c);

/**
 * Blocked edges of a barrier list: down[r * GRID + c] blocks (r,c)-(r+1,c), right[...]
 * blocks (r,c)-(r,c+1). H at [r,c] blocks the down edges of (r,c) and (r,c+1); V at
 * [r,c] the right edges of (r,c) and (r+1,c).
 */
function edges(barriers) {
  const down = new Uint8Array(GRID * GRID);
  const right = new Uint8Array(GRID * GRID);
  for (const b of barriers) addEdges(down, right, b.at[0], b.at[1], b.orientation);
  return { down, right };
}

function addEdges(down, right, r, c, orientation) {
  if (orientation === 'H') {
    down[r * GRID + c] = 1;
    down[r * GRID + c + 1] = 1;
  } else {
    right[r * GRID + c] = 1;
    right[(r + 1) * GRID + c] = 1;
  }
}

/** Is the edge between (r,c) and its neighbour in direction d blocked? */
function blocked(e, r, c, d) {
  switch (d) {
    case 0: return e.down[(r - 1) * GRID + c] === 1;
    case 1: return e.down[r * GRID + c] === 1;
    case 2: return e.right[r * GRID + c - 1] === 1;
    default: return e.right[r * GRID + c] === 1;
  }
}

const onGrid = (r, c) => r >= 0 && r < GRID && c >= 0 && c < GRID;

function occupiedBy(state) {
  const occ = new Uint8Array(GRID * GRID);
  for (const p of state.pawns) if (p) occ[p[0] * GRID + p[1]] = 1;
  return occ;
}

/** Cells `seat`'s pawn can reach this turn: steps, straight and diagonal jumps
 * (geometry.py's pawn_moves, in its order). */
function pawnMoves(state, seat, e = edges(state.barriers), occ = occupiedBy(state)) {
  const pawn = state.pawns[seat];
  const out = [];
  if (!pawn) return out;
  const [r, c] = pawn;
  for (let d = 0; d < 4; d++) {
    const qr = r + DELTAS[d][0];
    const qc = c + DELTAS[d][1];
    if (!onGrid(qr, qc) || blocked(e, r, c, d)) continue;
    if (!occ[qr * GRID + qc]) {
      if (enterable(seat, qr, qc)) out.push([qr, qc]);
      continue;
    }
    // A pawn on (qr, qc): jump straight over it if the cell beyond allows it ...
    const jr = qr + DELTAS[d][0];
    const jc = qc + DELTAS[d][1];
    if (onGrid(jr, jc) && !blocked(e, qr, qc, d) && !occ[jr * GRID + jc]
        && enterable(seat, jr, jc)) {
      out.push([jr, jc]);
      continue;
    }
    // ... else to either side of it.
    for (const d2 of PERPENDICULAR[d]) {
      const kr = qr + DELTAS[d2][0];
      const kc = qc + DELTAS[d2][1];
      if (onGrid(kr, kc) && !blocked(e, qr, qc, d2) && !occ[kr * GRID + kc]
          && enterable(seat, kr, kc) && !out.some(([a, b]) => a === kr && b === kc)) {
        out.push([kr, kc]);
      }
    }
  }
  return out;
}

/** Can `seat`'s pawn reach its goal zone (pawns ignored, inner cells only, barriers
 * crossed never)? A flood fill over the square to the inner line next to the goal. */
function hasPath(state, seat, e) {
  const pawn = state.pawns[seat];
  if (!pawn) return true;
  const spec = SPECS[seat];
  const near = spec.line === 0 ? 1 : HI; // the inner line next to the goal zone
  const seen = new Uint8Array(GRID * GRID);
  const stack = [pawn[0] * GRID + pawn[1]];
  seen[stack[0]] = 1;
  while (stack.length) {
    const i = stack.pop();
    const r = (i / GRID) | 0;
    const c = i % GRID;
    if ((spec.axis === 0 ? r : c) === near) return true;
    for (let d = 0; d < 4; d++) {
      const nr = r + DELTAS[d][0];
      const nc = c + DELTAS[d][1];
      if (!inner(nr, nc) || blocked(e, r, c, d)) continue;
      const j = nr * GRID + nc;
      if (!seen[j]) {
        seen[j] = 1;
        stack.push(j);
      }
    }
  }
  return false;
}

/** Why a barrier may not be placed now, or null when it may (walls.py's _clash and
 * _cuts, rules.py's _check). */
function barrierRefusal(state, seat, at, orientation) {
  if (orientation !== 'H' && orientation !== 'V') return 'orientation must be H or V';
  if (!Array.isArray(at) || at.length !== 2 || !Number.isInteger(at[0])
      || !Number.isInteger(at[1]) || at[0] < LO || at[0] > HI - 1 || at[1] < LO
      || at[1] > HI - 1) {
    return 'barrier anchor is out of range';
  }
  if (state.barriersLeft[seat] <= 0) return 'no barriers left';
  const [r, c] = at;
  for (const b of state.barriers) {
    const [br, bc] = b.at;
    if (b.orientation === orientation) {
      if (orientation === 'H' ? br === r && Math.abs(bc - c) <= 1
        : bc === c && Math.abs(br - r) <= 1) {
        return `barrier overlaps ${orientation} at [${br},${bc}]`;
      }
    } else if (br === r && bc === c) {
      return `barrier crosses ${b.orientation} at [${br},${bc}]`;
    }
  }
  const e = edges(state.barriers);
  addEdges(e.down, e.right, r, c, orientation);
  for (let s = 0; s < SEATS; s++) {
    if (state.inGame[s] && !hasPath(state, s, e)) return `no path for seat ${s}`;
  }
  return null;
}

function anyBarrier(state, seat) {
  if (state.barriersLeft[seat] <= 0) return false;
  for (let r = LO; r < HI; r++) {
    for (let c = LO; c < HI; c++) {
      for (const o of ['H', 'V']) if (barrierRefusal(state, seat, [r, c], o) === null) return true;
    }
  }
  return false;
}

const hasAction = (state, seat) => pawnMoves(state, seat).length > 0 || anyBarrier(state, seat);

/** Why `action` (the API's JSON form) is illegal for `seat` now, or null. */
function refusal(state, seat, action) {
  if (state.over) return 'game is over';
  if (seat !== state.turn) return 'not your turn';
  if (!action || typeof action !== 'object') return 'an action is an object';
  if (action.type === 'move') {
    const to = action.to;
    if (!Array.isArray(to) || to.length !== 2) return "'to' must be a cell";
    if (pawnMoves(state, seat).some(([r, c]) => r === to[0] && c === to[1])) return null;
    return `cell [${to[0]},${to[1]}] is not reachable`;
  }
  if (action.type === 'barrier') return barrierRefusal(state, seat, action.at, action.orientation);
  if (action.type === 'pass') {
    return hasAction(state, seat) ? 'pass is legal only when nothing else is' : null;
  }
  return `unknown action type ${JSON.stringify(action.type)}`;
}

/** The state after a legal `action` of the seat to move (a new object; `state` is
 * left as it was). */
function apply(state, action) {
  const mover = state.turn;
  const next = {
    turn: mover,
    pawns: state.pawns,
    barriers: state.barriers,
    barriersLeft: state.barriersLeft,
    inGame: state.inGame,
    ply: state.ply + 1,
    winner: null,
    over: false,
  };
  let won = false;
  if (action.type === 'move') {
    next.pawns = state.pawns.map((p, s) => (s === mover ? [action.to[0], action.to[1]] : p));
    won = inGoal(mover, action.to[0], action.to[1]);
  } else if (action.type === 'barrier') {
    next.barriers = [...state.barriers,
      { at: [action.at[0], action.at[1]], orientation: action.orientation, seat: mover }];
    next.barriersLeft = state.barriersLeft.map((n, s) => (s === mover ? n - 1 : n));
  }
  const playing = next.inGame.filter(Boolean).length;
  if (won || next.ply >= MAX_PLIES || playing <= 1) {
    next.turn = null;
    next.over = true;
    next.winner = won ? mover : (playing === 1 ? next.inGame.indexOf(true) : null);
    return next;
  }
  let turn = mover;
  do turn = (turn + 1) % SEATS; while (!next.inGame[turn]);
  next.turn = turn;
  if (!hasAction(next, turn)) { // a stalemate when nobody in the game can act
    const others = [0, 1, 2, 3].filter((s) => next.inGame[s] && s !== turn);
    if (!others.some((s) => hasAction(next, s))) {
      next.turn = null;
      next.over = true;
    }
  }
  return next;
}

module.exports = { SEATS, MAX_PLIES, initial, pawnMoves, refusal, apply, hasAction };
