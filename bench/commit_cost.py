"""What a move's commit costs PostgreSQL, alone or shared: the sizing of a group commit.

A live move is one guarded statement in a transaction of its own (games/round_store.py:
update the game's row if it is still the one the move was computed from, and append the
event if it was). This runs a statement of the same shape against scratch tables in
DATABASE_URL's database (created and dropped here; nothing of the site's is touched),
over `--games` rows, `--statements` times in each of three ways:

    alone       a transaction and a round trip each (today's move)
    grouped     `--group` statements in one transaction, a round trip each
    pipelined   `--group` statements in one psycopg pipeline: one round trip, and
                PostgreSQL runs them in one implicit transaction

and prints, for each, the PostgreSQL backend's CPU a statement (from /proc: run it on the
database's machine), the wall time a statement and this client's CPU a statement.

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

# About a 4-seat Bloqueio position's JSON (~600 characters), compared and written as
# the move's statement does.
STATE = json.dumps({"pawns": [[0, 5], [5, 10], [10, 5], [5, 0]], "turn": 1,
                    "walls_left": [4, 5, 5, 4], "in_game": [True] * 4,
                    "walls": [[r, c, "h" if (r + c) % 2 else "v"] for r in range(3)
                              for c in range(8)]})
STATEMENT = (
    "WITH moved AS (UPDATE bench_commit_game SET ply = ply + 1, state = %s::jsonb "
    "WHERE id = %s AND ply = %s AND state = %s::jsonb RETURNING id) "
    "INSERT INTO bench_commit_event (game_id, ply, action) "
    "SELECT moved.id, %s, %s FROM moved")


def backend_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(conn: psycopg.Connection[Any], mode: str, games: int, statements: int,
        group: int) -> dict[str, float]:
    conn.execute("UPDATE bench_commit_game SET ply = 0")
    plies = [0] * games

    def one(i: int) -> None:
        game = i % games
        conn.execute(STATEMENT, [STATE, game, plies[game], STATE, plies[game] + 1,
                                 '{"type": "move", "to": [1, 2]}'])
        plies[game] += 1

    pid = conn.info.backend_pid
    began, cpu, own = time.perf_counter(), backend_cpu(pid), time.process_time()
    if mode == "alone":
        for i in range(statements):
            one(i)
    else:
        for start in range(0, statements, group):
            block = conn.transaction() if mode == "grouped" else conn.pipeline()
            with block:
                for i in range(start, min(start + group, statements)):
                    one(i)
    took = backend_cpu(pid) - cpu
    [written] = conn.execute("SELECT count(*) FROM bench_commit_event").fetchone() or [0]
    if written != statements:  # every guard must have matched, as a live move's does
        raise SystemExit(f"{mode}: {written} of {statements} statements wrote their event")
    return {"postgres_ms": 1000 * took / statements,
            "wall_ms": 1000 * (time.perf_counter() - began) / statements,
            "client_ms": 1000 * (time.process_time() - own) / statements}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--statements", type=int, default=5000)
    parser.add_argument("--group", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2, help="each mode this many times")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bloqueio_bench")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS bench_commit_game "
                     "(id int PRIMARY KEY, ply int NOT NULL, state jsonb NOT NULL)")
        conn.execute("CREATE TABLE IF NOT EXISTS bench_commit_event (game_id int NOT NULL, "
                     "ply int NOT NULL, action jsonb NOT NULL, UNIQUE (game_id, ply))")
        try:
            conn.execute("TRUNCATE bench_commit_game, bench_commit_event")
            conn.execute("INSERT INTO bench_commit_game SELECT g, 0, %s::jsonb "
                         "FROM generate_series(0, %s) g", [STATE, args.games - 1])
            for _ in range(args.rounds):
                for mode in ("alone", "grouped", "pipelined"):
                    conn.execute("TRUNCATE bench_commit_event")
                    got = run(conn, mode, args.games, args.statements, args.group)
                    print(f"{mode:10s} PostgreSQL {got['postgres_ms']:.3f} ms a statement, "
                          f"wall {got['wall_ms']:.3f} ms, client {got['client_ms']:.3f} ms"
                          + ("" if mode == "alone" else f" ({args.group} together)"),
                          flush=True)
        finally:
            conn.execute("DROP TABLE IF EXISTS bench_commit_game, bench_commit_event")


if __name__ == "__main__":
    main()
