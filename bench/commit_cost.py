"""What a move's commit costs PostgreSQL, alone or shared: the sizing of a group commit.

A live move is one guarded statement in a transaction of its own (games/round_store.py:
update the game's row if it is still the one the move was computed from, and append the
event if it was). This runs a statement of the same shape against scratch tables of its
own in DATABASE_URL's database (named for this process, dropped at the end; nothing of
the site's is touched), over `--games` rows, `--statements` times in each of three ways:

    alone       a transaction and a round trip each (today's move)
    grouped     `--group` statements in one transaction, a round trip each
    pipelined   `--group` statements in one psycopg pipeline: one round trip, and
                PostgreSQL runs them in one implicit transaction

and prints, for each, the PostgreSQL backend's CPU a statement (from /proc: run it on the
database's machine), the wall time a statement and this client's CPU a statement. The
scratch rows are narrower than the site's and have no foreign key: the figures are a
floor of what a move's statement costs, for comparing the three ways with each other.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bloqueio_bench \\
        .venv/bin/python bench/commit_cost.py
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

    pid = backend_pid(conn)
    began, cpu, own = time.perf_counter(), cpu_seconds(pid), time.process_time()
    if mode == "alone":
        for i in range(statements):
            one(i)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--statements", type=int, default=5000)
    parser.add_argument("--group", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2, help="each mode this many times")
    args = parser.parse_args()
    for name in ("games", "statements", "group", "rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bloqueio_bench")
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
                for mode in ("alone", "grouped", "pipelined"):
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
