'use strict';
/**
 * The Bloqueio game as boardgame.io 0.50 serves it: G is rules.js's state, each move
 * checked by rules.refusal (an illegal one is boardgame.io's INVALID_MOVE, which leaves
 * the state as it was), one move a turn, the next seat from G.turn, the end from G.over.
 */
const { INVALID_MOVE } = require('boardgame.io/core');
const rules = require('./rules');

function play(G, playerID, action) {
  if (rules.refusal(G, Number(playerID), action) !== null) return INVALID_MOVE;
  return rules.apply(G, action);
}

const Bloqueio = {
  name: 'bloqueio',
  minPlayers: rules.SEATS,
  maxPlayers: rules.SEATS,
  setup: () => rules.initial(),
  moves: {
    move: ({ G, playerID }, to) => play(G, playerID, { type: 'move', to }),
    barrier: ({ G, playerID }, at, orientation) =>
      play(G, playerID, { type: 'barrier', at, orientation }),
    pass: ({ G, playerID }) => play(G, playerID, { type: 'pass' }),
  },
  turn: {
    minMoves: 1,
    maxMoves: 1,
    order: {
      first: () => 0,
      next: ({ G }) => (G.turn === null ? undefined : G.turn),
    },
  },
  endIf: ({ G }) => {
    if (!G.over) return undefined;
    return G.winner === null ? { draw: true } : { winner: String(G.winner) };
  },
};

/** The bgio move name and args of an action in the API's JSON form (bench/games). */
function moveOf(action) {
  if (action.type === 'move') return ['move', [action.to]];
  if (action.type === 'barrier') return ['barrier', [action.at, action.orientation]];
  return [action.type, []];
}

module.exports = { Bloqueio, moveOf };
