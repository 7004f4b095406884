'use strict';
/**
 * Every recorded game of bench/games/bloqueio.jsonl through rules.js (each action legal
 * for the seat to move, the game over after its last ply with the recorded winner and
 * length), then through boardgame.io's own reducer with game.js (a local Client: the
 * same moves accepted, the same end in ctx.gameover). Exit status 1 on any difference.
 *
 *   node bench/bgio/replay.js [path/to/games.jsonl]
 */
const fs = require('fs');
const path = require('path');
const { Client } = require('boardgame.io/client');
const rules = require('./rules');
const { Bloqueio, moveOf } = require('./game');

const file = process.argv[2] || path.join(__dirname, '..', 'games', 'bloqueio.jsonl');
const games = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map(JSON.parse);
let failures = 0;
let moves = 0;
const fail = (game, why) => {
  failures += 1;
  console.error(`${game.id}: ${why}`);
};

for (const game of games) {
  // 1. The pure rules.
  let state = rules.initial();
  let ok = true;
  for (const [ply, action] of game.actions.entries()) {
    const why = rules.refusal(state, state.turn, action);
    if (why !== null) {
      fail(game, `ply ${ply + 1} ${JSON.stringify(action)} refused: ${why}`);
      ok = false;
      break;
    }
    state = rules.apply(state, action);
    moves += 1;
    if (state.over && ply + 1 < game.actions.length) {
      fail(game, `over after ply ${ply + 1} of ${game.actions.length}`);
      ok = false;
      break;
    }
  }
  if (!ok) continue;
  if (!state.over || state.ply !== game.plies || state.winner !== game.winner) {
    fail(game, `ended over=${state.over} ply=${state.ply} winner=${state.winner}; `
      + `recorded ${game.plies} plies, winner ${game.winner}`);
    continue;
  }
  // 2. boardgame.io's reducer with game.js, each move by the seat whose turn it is.
  const client = Client({ game: Bloqueio, numPlayers: rules.SEATS });
  client.start();
  for (const [ply, action] of game.actions.entries()) {
    const before = client.getState();
    const [name, args] = moveOf(action);
    client.updatePlayerID(before.ctx.currentPlayer);
    client.moves[name](...args);
    if (client.getState().G.ply !== ply + 1) {
      fail(game, `boardgame.io did not take ply ${ply + 1} ${JSON.stringify(action)}`);
      ok = false;
      break;
    }
  }
  const end = client.getState().ctx.gameover;
  const want = game.winner === null ? { draw: true } : { winner: String(game.winner) };
  if (ok && JSON.stringify(end) !== JSON.stringify(want)) {
    fail(game, `boardgame.io's gameover ${JSON.stringify(end)}, want ${JSON.stringify(want)}`);
  }
  client.stop();
}

// 3. A few refusals the rules must make (a peer that skips validation is flattered).
const refused = [
  [rules.initial(), { type: 'move', to: [3, 5] }, 'a two-cell step'],
  [rules.initial(), { type: 'move', to: [0, 5] }, "a step into another seat's goal zone"],
  [rules.initial(), { type: 'barrier', at: [9, 1], orientation: 'H' }, 'an anchor off the square'],
];
let walled = rules.initial();
for (const a of [{ type: 'barrier', at: [1, 4], orientation: 'H' },
  { type: 'barrier', at: [1, 6], orientation: 'H' }]) {
  walled = rules.apply(walled, a);
}
refused.push([walled, { type: 'barrier', at: [1, 5], orientation: 'H' }, 'an overlapping barrier']);
refused.push([walled, { type: 'barrier', at: [1, 6], orientation: 'V' }, 'a crossing barrier']);
// Red on [1,5] boxed in: H under [1,3..8] ... a barrier that would seal its path.
let sealed = rules.initial();
for (const a of [{ type: 'barrier', at: [1, 3], orientation: 'V' },
  { type: 'barrier', at: [1, 7], orientation: 'V' }, { type: 'barrier', at: [2, 3], orientation: 'H' },
  { type: 'barrier', at: [2, 5], orientation: 'H' }]) {
  sealed = rules.apply(sealed, a);
}
refused.push([sealed, { type: 'barrier', at: [2, 7], orientation: 'H' }, 'a barrier sealing a path']);
for (const [state, action, what] of refused) {
  const why = rules.refusal(state, state.turn, action);
  if (why === null) {
    failures += 1;
    console.error(`accepted ${what}: ${JSON.stringify(action)}`);
  }
}

console.log(`${games.length} recorded games, ${moves} moves replayed; ${refused.length} `
  + `illegal actions refused; ${failures} failure(s)`);
process.exit(failures ? 1 : 0);
