'use strict';
/**
 * boardgame.io 0.50 serving Bloqueio (game.js): the peer that bench/load.py --peer bgio
 * measures. Its own lobby API (POST /games/bloqueio/create, .../join) and its socket.io
 * transport, as any boardgame.io deployment runs them; state in memory, or with
 * --postgres URL in PostgreSQL through bgio-postgres (it creates its tables itself).
 *
 *   NODE_ENV=production node bench/bgio/server.js --port 8100 [--postgres postgres://...]
 *
 * Prints "listening PORT" once both the lobby and the sockets accept connections.
 */
const { Server, Origins } = require('boardgame.io/server');
const { Bloqueio } = require('./game');

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
}

async function main() {
  const port = Number(option('--port', '8100'));
  const url = option('--postgres', '');
  let db;
  if (url) {
    const { PostgresStore } = require('bgio-postgres');
    db = new PostgresStore(url, { logging: false });
  }
  const origins = [Origins.LOCALHOST, /127\.0\.0\.1:\d+/];
  const server = Server({ games: [Bloqueio], origins, ...(db ? { db } : {}) });
  await server.run({ port, callback: () => console.log(`listening ${port}`) });
  const stop = () => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
