"""What a move's commit costs PostgreSQL, alone or shared: the sizing of a group commit.

A live move is one guarded statement in a transaction of its own (games/round_store.py:
update the game's row if it is still the one the move was computed from, and append the
event if it was). This runs a statement of the same shape against scratch tables of its
own in DATABASE_URL's database (named for this process, dropped at the end; nothing of
the site's is touched), over `--games` rows, `--statements` times in each of four ways:

    alone       a transaction and a round trip each (today's move)
    grouped     `--group` statements in one transaction, a round trip each
    pipelined   `--group` statements in one psycopg pipeline: one round trip, and
                PostgreSQL runs them in one implicit transaction
    merged      `--group` moves of as many games in ONE statement: the update joined to
                their rows (`FROM (VALUES ...)`, each row guarded), the events inserted
                for the rows it matched

and prints, for each, the PostgreSQL backend's CPU a statement (from /proc: run it on the
database's machine), the wall time a statement and this client's CPU a statement. The
scratch rows are narrower than the site's and have no foreign key: the figures are a
floor of what a move's statement costs, for comparing the four ways with each other.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bloqueio_bench \\
        .venv/bin/python bench/commit_cost.py

With `--notify` it measures instead what announcing each move by NOTIFY costs (the
version's doorbell, docs/architecture.md): the `alone` statement in three ways,
interleaved (`--rounds` times, in a rotating order), over `--clients` connections at
once (NOTIFY takes one lock per database at commit, held through the commit's flush:
what it costs shows with several committers):

    plain       the statement as above
    trigger     the same statement on a table with an AFTER UPDATE trigger that calls
                pg_notify(channel, 'id version') when the version moved
    explicit    the statement with `count(pg_notify(...))` over the updated rows in
                place of `count(*)`: the notification made by the statement itself

    .venv/bin/python bench/commit_cost.py --notify --clients 4 --rounds 6 [--rate 500]
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

import psycopg
from processes import cpu_seconds

# About a 4-seat Bloqueio position's JSON (~600 characters), compared and written as
# the move's statement does.
STATE = json.dumps({"pawns": [[0, 5], [5, 10], [10, 5], [5, 0]], "turn": 1,
                    "walls_left": [4, 5, 5, 4], "in_game": [True] * 4,
                    "walls": [[r, c, "h" if (r + c) % 2 else "v"] for r in range(3)
                              for c in range(8)]})
STATEMENT = (
    "WITH moved AS (UPDATE {game} SET ply = ply + 1, state = %s::jsonb "
    "WHERE id = %s AND ply = %s AND state = %s::jsonb RETURNING id) "
    "INSERT INTO {event} (game_id, ply, action) SELECT moved.id, %s, %s FROM moved")

# The merged form: one statement for a group of moves, each game's row guarded alone.
MERGED = (
    "WITH v(id, ply, state) AS (VALUES {rows}), "
    "moved AS (UPDATE {game} g SET ply = g.ply + 1, state = v.state FROM v "
    "WHERE g.id = v.id AND g.ply = v.ply AND g.state = v.state RETURNING g.id, g.ply) "
    "INSERT INTO {event} (game_id, ply, action) SELECT moved.id, moved.ply, %s::jsonb "
    "FROM moved")
MERGED_ROW = "(%s::int, %s::int, %s::jsonb)"
MODES = ("alone", "grouped", "pipelined", "merged")


def backend_pid(conn: psycopg.Connection[Any]) -> int:
    """The connection's PostgreSQL backend, checked to be one on this machine: its CPU
    is read from /proc (a database in a container or elsewhere has other pids)."""
    pid = conn.info.backend_pid
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        command = b""
    if not command.startswith(b"postgres"):
        raise SystemExit(f"backend {pid} is not a PostgreSQL process here: run this on the "
                         "database's machine")
    return pid


def run(conn: psycopg.Connection[Any], tables: tuple[str, str], mode: str, games: int,
        statements: int, group: int) -> dict[str, float]:
    """`statements` moves over `games` rows written in `mode`; the costs a statement."""
    game_table, event_table = tables
    statement = STATEMENT.format(game=game_table, event=event_table)
    conn.execute(f"TRUNCATE {event_table}")
    conn.execute(f"UPDATE {game_table} SET ply = 0")
    plies = [0] * games

    def one(i: int) -> None:
        game = i % games
        conn.execute(statement, [STATE, game, plies[game], STATE, plies[game] + 1,
                                 '{"type": "move", "to": [1, 2]}'])
        plies[game] += 1

    def merged(first: int, count: int) -> None:
        moved = [(first + k) % games for k in range(count)]
        sql = MERGED.format(rows=", ".join([MERGED_ROW] * count), game=game_table,
                            event=event_table)
        conn.execute(sql, [v for game in moved for v in (game, plies[game], STATE)]
                     + ['{"type": "move", "to": [1, 2]}'])
        for game in moved:
            plies[game] += 1

    pid = backend_pid(conn)
    began, cpu, own = time.perf_counter(), cpu_seconds(pid), time.process_time()
    if mode == "alone":
        for i in range(statements):
            one(i)
    elif mode == "merged":
        for start in range(0, statements, group):
            merged(start, min(group, statements - start))
    else:
        for start in range(0, statements, group):
            block = conn.transaction() if mode == "grouped" else conn.pipeline()
            with block:
                for i in range(start, min(start + group, statements)):
                    one(i)
    wall, took, spent = (time.perf_counter() - began, cpu_seconds(pid) - cpu,
                         time.process_time() - own)
    [written] = conn.execute(f"SELECT count(*) FROM {event_table}").fetchone() or [0]
    if written != statements:  # every guard must have matched, as a live move's does
        raise SystemExit(f"{mode}: {written} of {statements} statements wrote their event")
    return {"postgres_ms": 1000 * took / statements, "wall_ms": 1000 * wall / statements,
            "client_ms": 1000 * spent / statements}


NOTIFY_CHANNEL = "bench_commit_notify"
TRIGGER = """
CREATE FUNCTION {game}_ring() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('{channel}', NEW.id || ' ' || NEW.ply);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER {game}_ring AFTER UPDATE ON {game} FOR EACH ROW
    WHEN (OLD.ply IS DISTINCT FROM NEW.ply) EXECUTE FUNCTION {game}_ring();
"""
NOTIFY_WAYS = ("plain", "trigger", "explicit")


def notify_statement(way: str, tables: dict[str, str]) -> str:
    """The move's statement for `way`, shaped as the site's (update, insert, count) (its
    game table has the trigger for "trigger")."""
    count = (f"count(pg_notify('{NOTIFY_CHANNEL}', moved.id || ' ' || moved.ply))"
             if way == "explicit" else "count(*)")
    return (f"WITH moved AS (UPDATE {tables[way]} SET ply = ply + 1, state = %s::jsonb "
            "WHERE id = %s AND ply = %s AND state = %s::jsonb RETURNING id, ply), "
            f"added AS (INSERT INTO {tables['event']} (game_id, ply, action) "
            f"SELECT moved.id, %s, %s FROM moved) SELECT {count} FROM moved")


def run_clients(url: str, tables: dict[str, str], way: str, games: int, statements: int,
                clients: int, rate: float = 0.0, listener: int = 0) -> dict[str, float]:
    """`statements` moves in `way` spread over `clients` connections at once, each on
    games of its own (at most `rate` a second in all, if given: an offered load below
    saturation); the costs a statement (PostgreSQL: the writing backends' CPU, and the
    `listener` backend's apart: each notification wakes it to send it on)."""
    import threading

    statement = notify_statement(way, tables)
    setup = psycopg.connect(url, autocommit=True)
    setup.execute(f"TRUNCATE {tables['event']}")
    setup.execute(f"UPDATE {tables[way]} SET ply = 0")
    conns = [psycopg.connect(url, autocommit=True) for _ in range(clients)]
    pids = [backend_pid(c) for c in conns]
    per = statements // clients
    lat: list[float] = []
    start_line = threading.Barrier(clients + 1)

    def work(k: int) -> None:
        conn, plies = conns[k], {}
        mine = [g for g in range(games) if g % clients == k]
        start_line.wait()
        spent, began, every = 0.0, time.perf_counter(), clients / rate if rate else 0.0
        for i in range(per):
            if every and (ahead := began + i * every - time.perf_counter()) > 0:
                time.sleep(ahead)
            game = mine[i % len(mine)]
            ply = plies.get(game, 0)
            t0 = time.perf_counter()
            conn.execute(statement, [STATE, game, ply, STATE, ply + 1,
                                     '{"type": "move", "to": [1, 2]}'])
            spent += time.perf_counter() - t0
            plies[game] = ply + 1
        lat.append(spent / per)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    cpu, heard_cpu = sum(cpu_seconds(p) for p in pids), cpu_seconds(listener)
    start_line.wait()
    began = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - began
    took = sum(cpu_seconds(p) for p in pids) - cpu
    listening = cpu_seconds(listener) - heard_cpu
    [written] = setup.execute(f"SELECT count(*) FROM {tables['event']}").fetchone() or [0]
    for c in [*conns, setup]:
        c.close()
    done = per * clients
    if written != done:
        raise SystemExit(f"{way}: {written} of {done} statements wrote their event")
    return {"postgres_ms": 1000 * took / done, "statement_ms": 1000 * sum(lat) / len(lat),
            "per_second": done / wall, "listener_ms": 1000 * listening / done}


def compare_notify(url: str, args: argparse.Namespace) -> None:
    """The three ways interleaved, `args.rounds` times; then each way's median."""
    import statistics

    suffix = os.getpid()
    tables = {way: f"bench_notify_{way}_{suffix}" for way in NOTIFY_WAYS}
    tables["event"] = f"bench_notify_event_{suffix}"
    listener = psycopg.connect(url, autocommit=True)
    listener.execute(f"LISTEN {NOTIFY_CHANNEL}")  # as the site's one listener per process
    listener_pid = backend_pid(listener)
    results: dict[str, list[dict[str, float]]] = {way: [] for way in NOTIFY_WAYS}
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            for way in NOTIFY_WAYS:
                conn.execute(f"CREATE TABLE {tables[way]} (id int PRIMARY KEY, "
                             "ply int NOT NULL, state jsonb NOT NULL)")
                conn.execute(f"INSERT INTO {tables[way]} SELECT g, 0, %s::jsonb "
                             "FROM generate_series(0, %s) g", [STATE, args.games - 1])
            conn.execute(f"CREATE TABLE {tables['event']} (game_id int NOT NULL, ply int "
                         "NOT NULL, action jsonb NOT NULL, UNIQUE (game_id, ply))")
            conn.execute(TRIGGER.format(game=tables["trigger"], channel=NOTIFY_CHANNEL))
        for r in range(args.rounds):
            order = NOTIFY_WAYS[r % 3:] + NOTIFY_WAYS[:r % 3]
            for way in order:
                got = run_clients(url, tables, way, args.games, args.statements,
                                  args.clients, args.rate, listener_pid)
                heard = sum(1 for _ in listener.notifies(timeout=0.5, stop_after=10**9))
                results[way].append(got)
                print(f"round {r + 1} {way:9s} PostgreSQL {got['postgres_ms']:.3f} ms a "
                      f"statement + listener {got['listener_ms']:.3f} ms, "
                      f"statement {got['statement_ms']:.3f} ms, "
                      f"{got['per_second']:.0f}/s, {heard} notifications heard", flush=True)
        for way in NOTIFY_WAYS:
            cpu = [g["postgres_ms"] for g in results[way]]
            lat = [g["statement_ms"] for g in results[way]]
            rate = [g["per_second"] for g in results[way]]
            heard = [g["listener_ms"] for g in results[way]]
            print(f"median {way:9s} PostgreSQL {statistics.median(cpu):.3f} ms "
                  f"({min(cpu):.3f}-{max(cpu):.3f}) + listener {statistics.median(heard):.3f} "
                  f"ms ({min(heard):.3f}-{max(heard):.3f}), statement {statistics.median(lat):.3f} "
                  f"ms ({min(lat):.3f}-{max(lat):.3f}), {statistics.median(rate):.0f}/s "
                  f"({min(rate):.0f}-{max(rate):.0f})", flush=True)
    finally:
        listener.close()
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS " + ", ".join(tables.values()))
            conn.execute(f"DROP FUNCTION IF EXISTS {tables['trigger']}_ring()")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--statements", type=int, default=5000)
    parser.add_argument("--group", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2, help="each mode this many times")
    parser.add_argument("--notify", action="store_true",
                        help="compare a move's statement with and without NOTIFY")
    parser.add_argument("--clients", type=int, default=1, help="--notify: connections at once")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="--notify: statements a second in all (0: as fast as they go)")
    args = parser.parse_args()
    for name in ("games", "statements", "group", "rounds", "clients"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.group > args.games:
        parser.error("--group must be at most --games (a merged group's games are distinct)")
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bloqueio_bench")
    if args.notify:
        compare_notify(url, args)
        return
    tables = (f"bench_commit_game_{os.getpid()}", f"bench_commit_event_{os.getpid()}")
    with psycopg.connect(url, autocommit=True) as conn:
        try:
            conn.execute(f"CREATE TABLE {tables[0]} (id int PRIMARY KEY, ply int NOT NULL, "
                         "state jsonb NOT NULL)")
            conn.execute(f"CREATE TABLE {tables[1]} (game_id int NOT NULL, ply int NOT NULL, "
                         "action jsonb NOT NULL, UNIQUE (game_id, ply))")
            conn.execute(f"INSERT INTO {tables[0]} SELECT g, 0, %s::jsonb "
                         "FROM generate_series(0, %s) g", [STATE, args.games - 1])
            for _ in range(args.rounds):
                for mode in MODES:
                    got = run(conn, tables, mode, args.games, args.statements, args.group)
                    print(f"{mode:10s} PostgreSQL {got['postgres_ms']:.3f} ms a statement, "
                          f"wall {got['wall_ms']:.3f} ms, client {got['client_ms']:.3f} ms"
                          + ("" if mode == "alone" else f" ({args.group} together)"),
                          flush=True)
        finally:
            _drop(url, tables)


def _drop(url: str, tables: tuple[str, str]) -> None:
    """Drop the scratch tables on a connection of its own: the run's may be mid-pipeline
    or broken (an interrupt) and would hide why the run ended."""
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP TABLE IF EXISTS {tables[0]}, {tables[1]}")
    except psycopg.Error as exc:
        print(f"scratch tables {tables} not dropped: {exc}", flush=True)

if __name__ == "__main__":
    main()
