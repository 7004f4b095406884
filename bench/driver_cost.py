"""What a move's statement costs the server's process in each PostgreSQL driver: psycopg as
the site runs it (bloqueio_site/loop_db.py: an AsyncConnection, prepared statements, text
parameters), psycopg with binary parameters and results, and asyncpg (binary protocol,
prepared, its own Cython codecs). Issue #46: "Binary-protocol PostgreSQL drivers spend
less CPU a statement than psycopg; try and measure, keep only what pays."

The statement has the shape of the site's (games/round_store.py, `guarded_statement`):
update a game's row (ply, state, status, result, clock, four times, version) if it is
still at the version the move was computed from, append the move's event, and answer the
count of rows updated. It runs on scratch tables of the site's columns in DATABASE_URL's
database (named for this process, dropped at the end; nothing of the site's is touched),
over `--games` rows, `--statements` times a round, on `--clients` connections at once
from one event loop (uvloop, as the server runs), each driver once a round, `--rounds`
rounds in a rotating order. It prints, for each driver and round, this process's CPU a
statement (the client's: the server's share of a move), the PostgreSQL backends' CPU a
statement (from /proc: run it on the database's machine) and the statements a second;
then each driver's median.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bloqueio_bench \\
        .venv/bin/python bench/driver_cost.py [--clients 4] [--rounds 6] [--json]

asyncpg is not a dependency of the site: `.venv/bin/pip install asyncpg` first.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import psycopg
from processes import cpu_seconds

STATE = json.dumps({"pawns": [[0, 5], [5, 10], [10, 5], [5, 0]], "turn": 1,
                    "walls_left": [4, 5, 5, 4], "in_game": [True] * 4,
                    "walls": [[r, c, "h" if (r + c) % 2 else "v"] for r in range(3)
                              for c in range(8)]})
CLOCK = json.dumps({"remaining": [300000, 298000, 301000, 299500], "running": 1})
ACTION = json.dumps({"type": "move", "to": [4, 6]})
DRIVERS = ("psycopg", "psycopg_binary", "asyncpg")

TABLES = """
CREATE TABLE {game} (id bigint PRIMARY KEY, ply integer NOT NULL, state jsonb NOT NULL,
    status varchar(16) NOT NULL, result jsonb, clock jsonb, turn_started_at timestamptz,
    deadline timestamptz, started_at timestamptz, finished_at timestamptz,
    version bigint NOT NULL);
CREATE TABLE {event} (id bigserial PRIMARY KEY, game_id bigint NOT NULL REFERENCES {game},
    ply integer NOT NULL, seat smallint NOT NULL, action jsonb NOT NULL,
    at timestamptz NOT NULL, UNIQUE (game_id, ply));
"""


def statement(game: str, event: str, placeholder: Callable[[int], str]) -> str:
    """The site's statement's shape with the driver's placeholders ($n or %s)."""
    p = placeholder
    return (f"WITH moved AS (UPDATE {game} SET ply = {p(1)}, state = {p(2)}::jsonb, "
            f"status = {p(3)}, result = {p(4)}::jsonb, clock = {p(5)}::jsonb, "
            f"turn_started_at = {p(6)}, deadline = {p(7)}, started_at = {p(8)}, "
            f"finished_at = {p(9)}, version = {p(10)} "
            f"WHERE id = {p(11)} AND version = {p(12)} RETURNING id), "
            f"added AS (INSERT INTO {event} (game_id, ply, seat, action, at) "
            "SELECT moved.id, e.ply, e.seat, e.action::jsonb, e.at FROM moved, "
            f"(VALUES ({p(13)}::integer, {p(14)}::smallint, {p(15)}::text, "
            f"{p(16)}::timestamptz)) AS e(ply, seat, action, at)) "
            "SELECT count(*) FROM moved")


def params(game: int, ply: int, version: int, now: datetime) -> list[Any]:
    return [ply + 1, STATE, "active", None, CLOCK, now, None, now, None, version + 1,
            game, version, ply + 1, ply % 4, ACTION, now]


class Driver:
    """One driver's connections and its way to run the statement."""

    name: str

    async def open(self, url: str, clients: int) -> list[int]:
        """Connect `clients` times; the backends' pids."""
        raise NotImplementedError

    async def run(self, k: int, values: list[Any]) -> int:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError


class Psycopg(Driver):
    def __init__(self, tables: tuple[str, str], binary: bool) -> None:
        self.name = "psycopg_binary" if binary else "psycopg"
        self.sql = statement(*tables, lambda n: "%s")
        self.binary = binary
        self.conns: list[psycopg.AsyncConnection[Any]] = []

    async def open(self, url: str, clients: int) -> list[int]:
        for _ in range(clients):
            # As loop_db: autocommit, prepared at once (the site sets prepare_threshold).
            conn = await psycopg.AsyncConnection.connect(url, autocommit=True,
                                                         prepare_threshold=0)
            self.conns.append(conn)
        return [c.info.backend_pid for c in self.conns]

    async def run(self, k: int, values: list[Any]) -> int:
        cursor = await self.conns[k].execute(self.sql, values, binary=self.binary)
        row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def close(self) -> None:
        for conn in self.conns:
            await conn.close()


class Asyncpg(Driver):
    name = "asyncpg"

    def __init__(self, tables: tuple[str, str]) -> None:
        self.sql = statement(*tables, lambda n: f"${n}")
        self.conns: list[Any] = []
        self.prepared: list[Any] = []

    async def open(self, url: str, clients: int) -> list[int]:
        import asyncpg

        for _ in range(clients):
            conn = await asyncpg.connect(url)
            self.conns.append(conn)
            self.prepared.append(await conn.prepare(self.sql))
        return [c.get_server_pid() for c in self.conns]

    async def run(self, k: int, values: list[Any]) -> int:
        return int(await self.prepared[k].fetchval(*values))

    async def close(self) -> None:
        for conn in self.conns:
            await conn.close()


async def one_round(driver: Driver, url: str, tables: tuple[str, str], games: int,
                    statements: int, clients: int) -> dict[str, float]:
    """`statements` statements over `clients` connections at once; the costs."""
    game_table, event_table = tables
    with psycopg.connect(url, autocommit=True) as setup:
        setup.execute(f"TRUNCATE {event_table}")
        setup.execute(f"UPDATE {game_table} SET ply = 0, version = 0")
    pids = await driver.open(url, clients)
    per = statements // clients
    versions = [0] * games
    now = datetime.now(UTC)

    async def work(k: int) -> None:
        mine = [g for g in range(games) if g % clients == k]
        for i in range(per):
            game = mine[i % len(mine)]
            version = versions[game]
            written = await driver.run(k, params(game, version, version, now))
            if written != 1:
                raise SystemExit(f"{driver.name}: the guard of game {game} did not match")
            versions[game] = version + 1

    try:
        # One warm statement a connection (prepared, codecs loaded) outside the measure.
        await asyncio.gather(*(work_warm(driver, k, games, clients, versions, now)
                               for k in range(clients)))
        cpu, own, began = sum(cpu_seconds(p) for p in pids), time.process_time(), \
            time.perf_counter()
        await asyncio.gather(*(work(k) for k in range(clients)))
        wall, spent = time.perf_counter() - began, time.process_time() - own
        took = sum(cpu_seconds(p) for p in pids) - cpu
    finally:
        await driver.close()
    done = per * clients
    return {"client_us": 1e6 * spent / done, "postgres_us": 1e6 * took / done,
            "per_second": done / wall}


async def work_warm(driver: Driver, k: int, games: int, clients: int, versions: list[int],
                    now: datetime) -> None:
    game = next(g for g in range(games) if g % clients == k)
    if await driver.run(k, params(game, versions[game], versions[game], now)) != 1:
        raise SystemExit(f"{driver.name}: the warm-up's guard did not match")
    versions[game] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--statements", type=int, default=4000)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.games < args.clients:
        raise SystemExit("--games must be at least --clients (each connection has its own)")
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        raise SystemExit("DATABASE_URL must name a PostgreSQL database")
    suffix = os.getpid()
    tables = (f"bench_driver_game_{suffix}", f"bench_driver_event_{suffix}")
    with psycopg.connect(url, autocommit=True) as setup:
        setup.execute(TABLES.format(game=tables[0], event=tables[1]))
        setup.execute(f"INSERT INTO {tables[0]} (id, ply, state, status, version) "
                      f"SELECT g, 0, %s::jsonb, 'active', 0 FROM generate_series(0, %s) g",
                      [STATE, args.games - 1])
    makers: dict[str, Callable[[], Driver]] = {
        "psycopg": lambda: Psycopg(tables, binary=False),
        "psycopg_binary": lambda: Psycopg(tables, binary=True),
        "asyncpg": lambda: Asyncpg(tables),
    }
    results: dict[str, list[dict[str, float]]] = {name: [] for name in DRIVERS}

    def run_round(name: str) -> Awaitable[dict[str, float]]:
        return one_round(makers[name](), url, tables, args.games, args.statements,
                         args.clients)

    try:
        import uvloop

        runner = asyncio.Runner(loop_factory=uvloop.new_event_loop)
    except ImportError:
        runner = asyncio.Runner()
    try:
        with runner:
            for r in range(args.rounds):
                order = DRIVERS[r % 3:] + DRIVERS[:r % 3]
                for name in order:
                    got = runner.run(run_round(name))  # type: ignore[arg-type]
                    results[name].append(got)
                    if not args.json:
                        print(f"round {r + 1} {name:15} client {got['client_us']:6.1f} us  "
                              f"postgres {got['postgres_us']:6.1f} us  "
                              f"{got['per_second']:7.0f}/s", flush=True)
    finally:
        with psycopg.connect(url, autocommit=True) as setup:
            setup.execute(f"DROP TABLE IF EXISTS {tables[1]}, {tables[0]}")
    medians = {name: {key: statistics.median(r[key] for r in rounds)
                      for key in ("client_us", "postgres_us", "per_second")}
               for name, rounds in results.items()}
    if args.json:
        print(json.dumps({"args": vars(args), "rounds": results, "medians": medians}))
        return
    print("\nmedians over", args.rounds, "rounds")
    for name, m in medians.items():
        print(f"{name:15} client {m['client_us']:6.1f} us  postgres {m['postgres_us']:6.1f} "
              f"us  {m['per_second']:7.0f}/s")


if __name__ == "__main__":
    main()
