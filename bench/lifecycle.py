"""The edges of a game's life, one by one: what each costs the server, beside a move.

Against servers spawned as docs/operations.md deploys them (bench/load.py's `spawn`:
uvicorn, production settings, PostgreSQL and Redis from DATABASE_URL and REDIS_URL),
one operation at a time, `--games` times each, in the order a game lives them:

    create         POST /api/games/ (a 4-seat `bloqueio` game, signed-up creator)
    read           GET /api/games/{id}/ (what a page or client reads; the floor of a
                   REST call that reads a game)
    join           POST /api/games/{id}/join/, the game still waiting (2 a game)
    join, starts   the join that fills the last seat and starts the game
    open, player   a player's socket, from the connect to its `hello` (token auth)
    open, watcher  a spectator's socket (no credentials), to its `hello`
    move           a move over the mover's socket, until all 6 sockets have its event
    move, ends     the last move of a recorded game, which ends it (half the games are
                   played on to it first, untimed)
    resign         POST /api/games/{id}/resign/, the game goes on (2 a game, the other
                   half of the games), until every socket has the event
    resign, ends   the resign that leaves one player: the game finishes
    close          a socket closed by its client (6 a game)

For each: the latency (p50, p90, max; a REST call to its response unless said) and the
server's CPU per operation, read from /proc over the whole phase (so everything the
operation sets off is counted: fan-out, presence, the socket's clean-up). Nothing else
runs meanwhile, so the figures are the edges' own cost, not queueing. Under the table,
the server CPU of a whole start as bench/continuous.py starts a game (a create, three
joins, four player and two spectator sockets), and how many moves that is worth.

`--vs REV` also spawns a server from a clean `git archive` of REV and runs every phase on
both, alternating operation by operation, so both see the same machine at the same
moment (A/B on a shared machine). Both use the same database and Redis.

    python bench/lifecycle.py --spawn --games 100
    python bench/lifecycle.py --spawn --games 100 --vs 8c71381 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import secrets
import signal
import statistics
import subprocess
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import websockets
from load import RECORDED, api, register
from processes import ROOT, cpu_seconds, server_tree, spawn, start_profilers, stop_all

SPECTATORS = 2
SOCKETS = 4 + SPECTATORS


@dataclass
class Game:
    """One game on one server: its id, its sockets (players in seat order, then the
    spectators) and the plies each socket has seen."""

    gid: int
    sockets: list[Any] = field(default_factory=list)
    readers: list[asyncio.Task[None]] = field(default_factory=list)
    seen: list[int] = field(default_factory=list)
    record: list[dict[str, Any]] = field(default_factory=list)  # the recorded game it plays
    turn: int = 0
    ply: int = 0
    status: str = "waiting"
    changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Target:
    """A server under test and what this run keeps of it."""

    label: str
    base: str
    pid: int
    games: list[Game] = field(default_factory=list)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, tuple[float, int]] = field(default_factory=dict)  # phase: (s, ops)

    @property
    def ws(self) -> str:
        return self.base.replace("http://", "ws://")


async def _read(game: Game, index: int, ws: Any) -> None:
    """Keep a socket's last ply (and the turn), wake whoever waits on the game."""
    try:
        async for text in ws:
            frame = json.loads(text)
            if frame.get("type") == "event":
                game.seen[index] = frame["event"]["ply"]
                game.turn = frame["game"]["state"]["turn"]
                game.ply = frame["game"]["ply"]
                game.status = frame["game"]["status"]
                game.changed.set()
            elif frame.get("type") == "ping":
                await ws.send('{"type": "pong"}')
    except websockets.ConnectionClosed:
        pass


async def _everyone_has(game: Game, ply: int) -> None:
    while min(game.seen) < ply:
        game.changed.clear()
        await asyncio.wait_for(game.changed.wait(), 30)


async def _open(target: Target, game: Game, token: str | None) -> None:
    headers = {"Origin": target.base}
    if token:
        headers["Authorization"] = f"Token {token}"
    ws = await websockets.connect(f"{target.ws}/ws/games/{game.gid}/",
                                  additional_headers=headers, open_timeout=30, max_queue=None)
    hello = json.loads(await asyncio.wait_for(ws.recv(), 30))
    if hello.get("type") != "hello":
        raise RuntimeError(f"game {game.gid}: {hello}")
    game.sockets.append(ws)
    game.seen.append(hello["game"]["ply"])
    game.turn = hello["game"]["state"]["turn"]
    game.ply = hello["game"]["ply"]
    game.readers.append(asyncio.create_task(_read(game, len(game.seen) - 1, ws)))


async def _move(game: Game) -> None:
    """The game's next recorded move, by the seat to move, until every socket has it."""
    ply = game.ply
    await game.sockets[game.turn].send(json.dumps(
        {"type": "action", "action": game.record[ply], "ply": ply, "ref": ply}))
    await _everyone_has(game, ply + 1)


async def _play_on(game: Game) -> None:
    while game.ply < len(game.record) - 1:
        await _move(game)


async def _off(call: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, call, *args)


async def phase(name: str, targets: list[Target],
                ops: Callable[[Target], list[Callable[[], Awaitable[None]]]],
                profile: str = "") -> None:
    """Run every target's operations of `name`, alternating targets operation by
    operation (the first target first on even steps, last on odd ones), timing each and
    reading each target's CPU over the phase (and py-spy's samples, with `profile`)."""
    queues = {t.label: ops(t) for t in targets}
    profilers = []
    if profile:
        slug = name.replace(", ", "-").replace(" ", "-")
        profilers = [start_profilers([t.pid], f"{profile}-{slug}-{n}", gil=True)[0]
                     for n, t in enumerate(targets)]
        await asyncio.sleep(1)  # py-spy attaches
    cpu0 = {t.label: cpu_seconds(t.pid) for t in targets}
    for step in range(max(len(q) for q in queues.values())):
        order = targets if step % 2 == 0 else targets[::-1]
        for target in order:
            queue = queues[target.label]
            if step < len(queue):
                began = time.perf_counter()
                await queue[step]()
                target.latencies.setdefault(name, []).append(time.perf_counter() - began)
    await asyncio.sleep(0.3)  # what the last operation set off (fan-out, presence) ends
    for target in targets:
        target.cpu[name] = (cpu_seconds(target.pid) - cpu0[target.label],
                            len(queues[target.label]))
    for profiler in profilers:
        profiler.send_signal(signal.SIGINT)
        profiler.wait(30)


async def run(targets: list[Target], games: int, profile: str = "") -> None:
    tag = secrets.token_hex(3)
    creators = math.ceil(games / 3)  # at most 3 waiting games each (OPEN_GAMES_PER_USER)
    base = targets[0].base
    print(f"signing up {creators + 3} players ...", flush=True)
    tokens = await asyncio.gather(*[_off(register, base, f"l{tag}u{n}")
                                    for n in range(creators + 3)])
    owners, joiners = tokens[:creators], tokens[creators:]
    recorded = [json.loads(line)["actions"] for line in RECORDED.read_text().splitlines()
                if line.strip()]
    seats: dict[int, list[str]] = {}  # game id: the seats' tokens

    def create(t: Target) -> list[Callable[[], Awaitable[None]]]:
        async def one(n: int) -> None:
            game = await _off(api, t.base, "POST", "/api/games/", {"kind": "bloqueio"},
                              owners[n % creators])
            t.games.append(Game(int(game["id"]), record=recorded[n % len(recorded)]))
            seats[int(game["id"])] = [owners[n % creators], *joiners]
        return [lambda n=n: one(n) for n in range(games)]

    def reads(t: Target) -> list[Callable[[], Awaitable[None]]]:
        return [lambda g=g: _off(api, t.base, "GET", f"/api/games/{g.gid}/") for g in t.games]

    def joins(which: list[int]) -> Callable[[Target], list[Callable[[], Awaitable[None]]]]:
        def ops(t: Target) -> list[Callable[[], Awaitable[None]]]:
            return [lambda g=g, j=j: _off(api, t.base, "POST", f"/api/games/{g.gid}/join/",
                                          {}, joiners[j])
                    for j in which for g in t.games]
        return ops

    def opens(players: bool) -> Callable[[Target], list[Callable[[], Awaitable[None]]]]:
        def ops(t: Target) -> list[Callable[[], Awaitable[None]]]:
            return [lambda g=g, s=s: _open(t, g, seats[g.gid][s] if players else None)
                    for s in (range(4) if players else range(SPECTATORS)) for g in t.games]
        return ops

    def moves(t: Target) -> list[Callable[[], Awaitable[None]]]:
        return [lambda g=g: _move(g) for _ in range(3) for g in t.games]

    def last_moves(t: Target) -> list[Callable[[], Awaitable[None]]]:
        return [lambda g=g: _move(g) for g in t.games[1::2]]

    def resigns(rounds: range) -> Callable[[Target], list[Callable[[], Awaitable[None]]]]:
        def ops(t: Target) -> list[Callable[[], Awaitable[None]]]:
            async def resign(g: Game, seat: int) -> None:
                ply = g.ply
                await _off(api, t.base, "POST", f"/api/games/{g.gid}/resign/", {},
                           seats[g.gid][seat])
                await _everyone_has(g, ply + 1)
            return [lambda g=g, s=s: resign(g, s) for s in rounds for g in t.games[0::2]]
        return ops

    def closes(t: Target) -> list[Callable[[], Awaitable[None]]]:
        async def close(g: Game, index: int) -> None:
            await g.sockets[index].close()
            await g.readers[index]
        return [lambda g=g, i=i: close(g, i) for i in range(SOCKETS) for g in t.games]

    plan: list[tuple[str, Callable[[Target], list[Callable[[], Awaitable[None]]]]]] = [
        ("create", create), ("read", reads), ("join", joins([0, 1])), ("join, starts", joins([2])),
        ("open, player", opens(True)), ("open, watcher", opens(False)), ("move", moves),
        ("move, ends", last_moves), ("resign", resigns(range(1, 3))),
        ("resign, ends", resigns(range(3, 4))), ("close", closes),
    ]
    for name, ops in plan:
        if name == "move, ends":  # half the games play on to their last move, untimed
            print("  (playing half the games to their last move) ...", flush=True)
            await asyncio.gather(*(_play_on(g) for t in targets for g in t.games[1::2]))
        print(f"  {name} ...", flush=True)
        await phase(name, targets, ops, profile)
        if name == "move, ends" and any(g.status != "finished"
                                        for t in targets for g in t.games[1::2]):
            raise RuntimeError("a recorded game did not end with its last move")


def report(targets: list[Target]) -> dict[str, Any]:
    def ms(values: list[float], p: float) -> float:
        ordered = sorted(values)
        return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)

    out: dict[str, Any] = {}
    for t in targets:
        rows = {}
        for name, values in t.latencies.items():
            cpu, count = t.cpu[name]
            rows[name] = {"n": count, "p50_ms": ms(values, 0.5), "p90_ms": ms(values, 0.9),
                          "max_ms": round(1000 * max(values), 2),
                          "mean_ms": round(1000 * statistics.fmean(values), 2),
                          "server_cpu_ms": round(1000 * cpu / count, 2)}
        out[t.label] = rows
    return out


# What one game's start is made of, as bench/continuous.py starts games: a create, the
# joins (the last one starts it), a socket for each player and spectator.
START = {"create": 1, "join": 2, "join, starts": 1, "open, player": 4,
         "open, watcher": SPECTATORS}


def start_cost(rows: dict[str, Any]) -> dict[str, float]:
    """The server CPU of a whole start (from the edges' own figures), and how many moves
    that is: the figure to weigh against a move's, which a start should be close to."""
    cpu = sum(count * rows[name]["server_cpu_ms"] for name, count in START.items())
    return {"server_cpu_ms": round(cpu, 2),
            "moves_worth": round(cpu / rows["move"]["server_cpu_ms"], 1)}


def table(result: dict[str, Any]) -> str:
    labels = list(result)
    head = "| edge | " + " | ".join(f"{label}: CPU ms | p50 ms | p90 ms" for label in labels)
    lines = [head + " |", "|---" * (1 + 3 * len(labels)) + "|"]
    for name in result[labels[0]]:
        cells = []
        for label in labels:
            row = result[label][name]
            cells += [f"{row['server_cpu_ms']:.2f}", f"{row['p50_ms']:.1f}",
                      f"{row['p90_ms']:.1f}"]
        lines.append(f"| {name} (n={result[labels[0]][name]['n']}) | " + " | ".join(cells)
                     + " |")
    for label in labels:
        whole = start_cost(result[label])
        lines.append(f"{label}: a start (create, 3 joins, 4 player and {SPECTATORS} spectator "
                     f"sockets) costs {whole['server_cpu_ms']:.1f} ms of server CPU, "
                     f"{whole['moves_worth']:.1f} moves' worth")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spawn", action="store_true", required=True,
                        help="start the server(s) (required: the CPU is read from them)")
    parser.add_argument("--games", type=int, default=100, help="operations of each kind")
    parser.add_argument("--vs", metavar="REV", help="also a server of REV, interleaved")
    parser.add_argument("--server-commit", metavar="REV",
                        help="the main server from a clean archive of REV, not this tree")
    parser.add_argument("--json", action="store_true", help="print one JSON line only")
    parser.add_argument("--profile", default="", metavar="PREFIX",
                        help="py-spy (--gil: CPU) each server during each phase: "
                             "PREFIX-PHASE-N-PID.txt (N: 0 this tree, 1 --vs; "
                             "bench/profile_summary.py reads them)")
    args = parser.parse_args()
    log_dir = ROOT / "test-artifacts"
    log_dir.mkdir(exist_ok=True)
    spawned = []
    with ExitStack() as stack:
        trees = [stack.enter_context(server_tree(args.server_commit))]
        if args.vs:
            trees.append(stack.enter_context(server_tree(args.vs)))
        try:
            targets = []
            for tree, code in trees:
                [(base, proc)] = spawn(1, log_dir, tree=tree)
                spawned.append(proc)
                targets.append(Target(code, base, proc.pid))
            asyncio.run(run(targets, args.games, args.profile))
        finally:
            stop_all(spawned, 10)
    edges = report(targets)
    result = {"edges": edges, "start": {label: start_cost(rows) for label, rows in edges.items()},
              "games": args.games,
              "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                       capture_output=True, text=True).stdout.strip(),
              "machine": f"{os.cpu_count()} cores, {platform.machine()}, "
                         f"Python {platform.python_version()}",
              "load_average": os.getloadavg()}
    if args.json:
        print(json.dumps(result))
    else:
        print(table(result["edges"]))
        print(f"machine: {result['machine']}, load average {result['load_average']}")


if __name__ == "__main__":
    main()
