"""Load benchmark: G concurrent 4-seat Bloqueio games over real WebSockets.

Every game has 4 players and S spectators. By default every player is a user of its own,
signed up over the API (POST /api/auth/register/), and every game is created and joined
over the API, as real clients do (`--shared-users`: the same 4 accounts sit in every
game, which skips 4 * G password hashes). Players replay recorded games from
bench/games/bloqueio.jsonl, each sending its action the moment it sees its
turn. For every move we measure the time from the sender's send until EVERY connection
of that game has received the event, and report moves/s, latency percentiles, errors,
and the server processes' CPU seconds and peak RSS (read from /proc).

Loopback only and bounded: it refuses non-local targets and stops after --duration.

    python bench/load.py --base http://127.0.0.1:8000 --games 50 --spectators 2
    python bench/load.py --spawn 2 --games 50      # start 2 server processes itself

`--spawn N` starts N server processes (uvicorn, or `--server daphne`) on free ports in
the production configuration
(DJANGO_ENV=production with a random secret key, allowed hosts 127.0.0.1 and localhost,
no SSL redirect since there is no TLS on loopback; the command docs/operations.md
deploys, `python -m bloqueio_site.serve`; PostgreSQL from DATABASE_URL, Redis from
REDIS_URL)
and spreads the clients over them round-robin, as a load balancer would.

`--haproxy K` puts K HAProxy processes running deploy/haproxy.cfg in front of the
spawned servers instead (bench/balancer.py), clients spread over the proxies: every
socket and REST call of one game then reaches one server, the one the game's first
request was placed on by load, as docs/scaling.md deploys it.

    python bench/load.py --spawn 2 --haproxy 1 --games 50

`--continuous WINDOW` replaces the games started together with slots that create the
next game over the API as soon as one ends, measured over a window of WINDOW seconds
(bench/continuous.py): games start and end, and sockets open and close, all the time.

    python bench/load.py --spawn 1 --games 50 --continuous 20

`--rate R` offers a fixed load instead of the closed loop: moves are released at R a
second across all games (bench/pacing.py), for p99 below saturation.

`--peer bgio` (with `--spawn 1 --continuous WINDOW`) measures boardgame.io 0.50 serving
the same recorded games to the same evening instead of this server (bench/bgio,
bench/peer_bgio.py; `--peer bgio-postgres`: with its PostgreSQL adapter on DATABASE_URL).

    python bench/load.py --peer bgio --spawn 1 --games 50 --continuous 20 [--rate 300]

`--server-commit REV` spawns the servers from a clean `git archive` of REV instead of
this tree, with this load client: run it and the same command without it one after the
other for an A/B on a shared machine. `--profile PREFIX` (with `--profile-gil` or
`--profile-idle`) runs py-spy on the servers while the games play (or over the
continuous window); bench/profile_summary.py reads what it writes.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import platform
import random
import secrets
import statistics
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import orjson
import websockets
from balancer import Ports, proxies
from pacing import Pacer
from processes import (  # noqa: F401  (re-exported: the other benchmarks use load.spawn ...)
    ROOT,
    Window,
    add_server_options,
    budget,
    cpu_seconds,
    free_port,
    peak_rss_mib,
    pids_named,
    process_usage,
    production_env,
    server_pids,
    server_tree,
    spawn,
    start_profilers,
    stop_all,
)

RECORDED = ROOT / "bench" / "games" / "bloqueio.jsonl"
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


# -- HTTP helpers (setup only) ------------------------------------------------------------


class Refused(RuntimeError):
    """An HTTP error answer, with its status and `Retry-After` (seconds, or None)."""

    def __init__(self, message: str, status: int, retry_after: float | None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def api(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{path}", data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        retry = exc.headers.get("Retry-After")
        raise Refused(f"{method} {path}: {exc.code} {exc.read()[:300]!r}", exc.code,
                      float(retry) if retry and retry.isdigit() else None) from None


# A wait longer than this is not a crowd of sign-ups but a spent quota: the per-address
# sign-up limit (docs/operations.md), which every earlier run from 127.0.0.1 counts
# towards for its window. Stop and say so rather than sleep through it.
LONGEST_RETRY_S = 60


def register(base: str, name: str, attempts: int = 20) -> str:
    """Sign up as a well-behaved client does: a 503 or 429 with `Retry-After` (a crowd of
    sign-ups, docs/operations.md) is retried after it, with a little jitter."""
    body = {"username": name, "password": f"pw-{secrets.token_hex(8)}-Bench!"}
    for _ in range(attempts - 1):
        try:
            return str(api(base, "POST", "/api/auth/register/", body)["token"])
        except Refused as exc:
            if exc.status not in (429, 503) or exc.retry_after is None:
                raise
            if exc.retry_after > LONGEST_RETRY_S:
                raise SystemExit(
                    f"sign-up refused for {exc.retry_after:.0f} s: this address's sign-up "
                    "quota is spent by earlier runs; clear the rate-limit keys in REDIS_URL's "
                    "database (or use a fresh one), or run with --shared-users") from None
            time.sleep(exc.retry_after + random.random())
    return str(api(base, "POST", "/api/auth/register/", body)["token"])


# -- the game clients ---------------------------------------------------------------------


@dataclass
class GameRun:
    game_id: int
    actions: list[dict[str, Any]]
    connections: int
    sent_at: dict[int, float] = field(default_factory=dict)  # ply -> send time
    seen: dict[int, int] = field(default_factory=dict)  # ply -> connections that got it
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    pacer: Pacer | None = None  # `--rate`: each send waits for its time (bench/pacing.py)

    def received(self, ply: int, now: float) -> None:
        count = self.seen.get(ply, 0) + 1
        self.seen[ply] = count
        if count == self.connections:
            self.latencies.append(now - self.sent_at[ply])
            if ply == len(self.actions):
                self.done.set()


async def connection(run: GameRun, ws_base: str, token: str | None, stop: asyncio.Event,
                     opened: asyncio.Event, go: asyncio.Event | None = None) -> None:
    """One socket of `run`'s game: after its `hello` and `go` (default: `ready`, set once
    every game's sockets are open), act whenever it is this seat's turn, count every
    event, until the game's last ply or `stop`.

    Frugal, since the load client shares the machine with the server: frames are read
    with a plain `recv` (an `asyncio.wait_for` around each, to look at `stop` now and
    then, cost more than decoding the frame) and `stop` closes the socket instead."""
    headers = {"Origin": ws_base.replace("ws://", "http://")}
    if token:
        headers["Authorization"] = f"Token {token}"
    async with websockets.connect(f"{ws_base}/ws/games/{run.game_id}/",
                                  additional_headers=headers, open_timeout=60,
                                  max_queue=None) as ws:
        hello = orjson.loads(await ws.recv())
        opened.set()
        seat = hello["you"]["seat"]
        turn = hello["game"]["state"]["turn"]
        ply = hello["game"]["ply"]
        await (go or ready).wait()

        async def act() -> None:
            if seat is not None and turn == seat and ply < len(run.actions):
                if run.pacer:
                    await run.pacer.wait()
                run.sent_at[ply + 1] = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "action": run.actions[ply],
                                          "ply": ply, "ref": ply}))

        async def close_on_stop() -> None:
            await stop.wait()
            await ws.close()

        closer = asyncio.create_task(close_on_stop())
        try:
            await act()
            while ply < len(run.actions):
                try:
                    text = await ws.recv()
                except websockets.ConnectionClosedOK:
                    break
                now = time.perf_counter()
                frame = orjson.loads(text)
                kind = frame["type"]
                if kind == "event":
                    ply = frame["event"]["ply"]
                    run.received(ply, now)
                    turn = frame["game"]["state"]["turn"]
                    await act()
                elif kind == "error":
                    run.errors.append(f"{frame.get('code')}: {frame.get('detail')}")
                elif kind == "ping":
                    await ws.send('{"type": "pong"}')
        except websockets.ConnectionClosedOK:
            if not stop.is_set():  # our own close at the end of the run is no error
                raise
        finally:
            closer.cancel()


async def set_up_games(base: str, count: int, shared_users: bool, concurrency: int
                       ) -> list[tuple[int, list[str]]]:
    """`count` full 4-seat games over the API: (game id, the seats' tokens in seat order).

    Sign-ups, creations and joins go out `concurrency` at a time, as many clients would
    send them; with `shared_users` the same 4 accounts sit in every game (casual games
    allow it)."""
    loop = asyncio.get_running_loop()
    tag = secrets.token_hex(3)
    with ThreadPoolExecutor(concurrency) as pool:

        def run(call: Callable[..., Any], *args: Any) -> Awaitable[Any]:
            return loop.run_in_executor(pool, call, *args)

        if shared_users:
            shared = list(await asyncio.gather(*[run(register, base, f"b{tag}s{s}")
                                                 for s in range(4)]))
            seats = [shared] * count
        else:
            tokens = await asyncio.gather(*[run(register, base, f"b{tag}g{g}s{s}")
                                            for g in range(count) for s in range(4)])
            seats = [list(tokens[4 * g:4 * g + 4]) for g in range(count)]
        created = await asyncio.gather(*[run(api, base, "POST", "/api/games/",
                                             {"kind": "bloqueio"}, s[0]) for s in seats])
        await asyncio.gather(*[run(api, base, "POST", f"/api/games/{game['id']}/join/", {}, t)
                               for game, s in zip(created, seats, strict=True) for t in s[1:]])
    return [(int(game["id"]), s) for game, s in zip(created, seats, strict=True)]


ready = asyncio.Event()


async def main_async(args: argparse.Namespace, bases: list[str],
                     pids: list[int] | None = None) -> dict[str, Any]:
    """Run the games; `pids` are the server processes to account (default: every server
    process of this project on the machine, for --base against servers started
    elsewhere)."""
    games = [json.loads(line) for line in RECORDED.read_text().splitlines() if line.strip()]
    base0 = bases[0]
    users = 4 if args.shared_users else 4 * args.games
    print(f"setting up {args.games} games ({users} users signing up) ...", flush=True)
    setup0 = time.perf_counter()
    tokens_per_game = await set_up_games(base0, args.games, args.shared_users,
                                         args.setup_concurrency)
    pacer = Pacer(args.rate) if args.rate else None
    runs = [GameRun(gid, games[g % len(games)]["actions"], 4 + args.spectators, pacer=pacer)
            for g, (gid, _) in enumerate(tokens_per_game)]
    setup_s = time.perf_counter() - setup0
    ws_bases = [b.replace("http://", "ws://") for b in bases]
    rr = itertools.cycle(ws_bases)
    stop = asyncio.Event()
    tasks = []
    # Open in batches, each waiting for its hellos: a real population of clients does not
    # arrive in one instant, and Daphne drops handshakes that take over 5 s.
    print(f"{args.games * (4 + args.spectators)} connections opening ...", flush=True)
    batch: list[asyncio.Event] = []
    for run, (_, tokens) in zip(runs, tokens_per_game, strict=True):
        for token in [*tokens, *([None] * args.spectators)]:
            opened = asyncio.Event()
            batch.append(opened)
            tasks.append(asyncio.create_task(connection(run, next(rr), token, stop, opened)))
            if len(batch) == args.ramp:
                await asyncio.wait_for(asyncio.gather(*(e.wait() for e in batch)), 60)
                batch = []
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in batch)), 60)
    pids = pids or server_pids()
    window = Window(pids, args).open()
    started = time.perf_counter()
    ready.set()
    try:
        await asyncio.wait_for(asyncio.gather(*[r.done.wait() for r in runs]),
                               timeout=args.duration)
    except TimeoutError:
        print("duration reached before every game finished", flush=True)
    elapsed = time.perf_counter() - started
    usage = window.close()
    stop.set()
    cpu, rss, services_cpu, client_cpu = (usage.cpu, usage.rss, usage.services_cpu,
                                          usage.client_cpu)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [repr(r) for r in results if isinstance(r, BaseException)]
    latencies = sorted(x for r in runs for x in r.latencies)
    errors = [e for r in runs for e in r.errors] + failures
    moves = len(latencies)

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000 if latencies \
            else float("nan")

    return {
        "games": args.games, "spectators": args.spectators, "servers": len(bases),
        "offered_moves_per_s": args.rate or None,
        "users": users, "setup_s": round(setup_s, 2),
        "connections": len(tasks), "moves": moves, "seconds": round(elapsed, 2),
        "moves_per_s": round(moves / elapsed, 1) if elapsed else 0,
        "p50_ms": round(pct(0.50), 2), "p95_ms": round(pct(0.95), 2),
        "p99_ms": round(pct(0.99), 2),
        "max_ms": round(latencies[-1] * 1000, 2) if latencies else None,
        "mean_ms": round(statistics.fmean(latencies) * 1000, 2) if latencies else None,
        "errors": len(errors), "error_samples": errors[:5],
        "server_cpu_s": round(sum(cpu.values()), 2),
        "server_cpu_ms_per_move": round(1000 * sum(cpu.values()) / moves, 2) if moves else None,
        "client_cpu_s": round(client_cpu, 2),
        "postgres_redis_cpu_s": round(services_cpu, 2),
        "server_peak_rss_mib": [round(v, 1) for v in rss.values()],
        **budget(usage, moves),
        "unfinished_games": sum(not r.done.is_set() for r in runs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_server_options(parser)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--duration", type=float, default=300, help="hard stop, seconds")
    parser.add_argument("--ramp", type=int, default=50, help="connections opened per batch")
    parser.add_argument("--shared-users", action="store_true",
                        help="the same 4 accounts in every game (default: 4 sign-ups a game)")
    parser.add_argument("--setup-concurrency", type=int, default=16,
                        help="sign-ups, creations and joins in flight at once")
    parser.add_argument("--json", action="store_true", help="print one JSON line only")
    parser.add_argument("--ports", default="",
                        help="FIRST-LAST: spawn servers on free ports of this range only")
    parser.add_argument("--server", choices=["daphne", "uvicorn"], default=None,
                        help="the spawned servers' SERVER (default: serve's own default)")
    parser.add_argument("--haproxy", type=int, default=0, metavar="K",
                        help="K HAProxy processes (deploy/haproxy.cfg) in front of the "
                             "spawned servers; clients connect to them")
    parser.add_argument("--profile", default="",
                        help="PREFIX: py-spy record (raw stacks) of each server during play "
                             "to PREFIX-PID.txt")
    parser.add_argument("--profile-gil", action="store_true",
                        help="with --profile: only samples holding the GIL")
    parser.add_argument("--profile-idle", action="store_true",
                        help="with --profile: idle threads too (wall time)")
    parser.add_argument("--continuous", type=float, default=0, metavar="WINDOW",
                        help="slots that start the next game over the API when one ends; "
                             "measure a window of WINDOW seconds (bench/continuous.py)")
    parser.add_argument("--latencies", metavar="PATH",
                        help="with --continuous: write every timed move (send time, "
                             "latency, game, ply) to PATH")
    parser.add_argument("--warmup", type=float, default=5,
                        help="with --continuous: seconds of play before the window opens, "
                             "counted from when every slot's first game is under way")
    parser.add_argument("--server-commit", metavar="REV",
                        help="spawn the servers from a clean `git archive` of REV (the same "
                             "load client measures an older server: A/B in one session)")
    parser.add_argument("--rate", type=float, default=0, metavar="R",
                        help="a fixed offered load: moves released at R a second across "
                             "all games (bench/pacing.py) instead of each at once")
    parser.add_argument("--peer", choices=["bgio", "bgio-postgres"], default=None,
                        help="with --spawn 1 --continuous: measure boardgame.io 0.50 "
                             "(bench/bgio) serving the same games instead of this server "
                             "(bgio-postgres: its PostgreSQL adapter on DATABASE_URL)")
    args = parser.parse_args()
    if args.peer:
        import peer_bgio

        report = peer_bgio.run(args)
        print(json.dumps(report) if args.json else
              "\n".join(f"{key:>22}: {value}" for key, value in report.items()))
        return
    play = main_async
    if args.continuous:
        import continuous

        play = continuous.main_async
    if args.server_commit and not args.spawn:
        raise SystemExit("--server-commit needs --spawn")
    with server_tree(args.server_commit) as (tree, code):
        report = run_servers(args, play, tree)
    report.update(commit=code, server=args.server or "default",
                  machine=f"{os.cpu_count()} cores, {platform.machine()}, "
                  f"Python {platform.python_version()}")
    if args.json:
        print(json.dumps(report))
        return
    for key, value in report.items():
        print(f"{key:>22}: {value}")


def run_servers(args: argparse.Namespace, play: Callable[..., Awaitable[dict[str, Any]]],
                tree: Path) -> dict[str, Any]:
    """`play` against the servers: spawned from `tree` (and stopped again), or given."""
    spawned: list[tuple[str, subprocess.Popen[bytes]]] = []
    if args.spawn:
        log_dir = ROOT / "test-artifacts"
        log_dir.mkdir(exist_ok=True)
        first, _, last = args.ports.partition("-")
        extra = {"SERVER": args.server} if args.server else {}
        spawned = spawn(args.spawn, log_dir, extra,
                        (int(first), int(last or first)) if first else (0, 0), tree)
        bases = [b for b, _ in spawned]
    else:
        bases = args.base or ["http://127.0.0.1:8000"]
    if args.haproxy and not args.spawn:
        raise SystemExit("--haproxy needs --spawn")
    for base in bases:
        if urlparse(base).hostname not in LOCAL_HOSTS:
            raise SystemExit(f"refusing non-loopback target {base}")
    pids = [proc.pid for _, proc in spawned]
    try:
        if args.haproxy:
            ports = Ports(*(int(p) for p in (args.ports or "9150-9199").split("-")))
            sockets = args.games * (4 + args.spectators)
            with proxies(args.haproxy, bases, ports, -(-sockets // args.haproxy)) as started:
                report = asyncio.run(play(args, [b for b, _ in started], pids))
            report["haproxy"] = f"{args.haproxy} x deploy/haproxy.cfg"
            report["servers"] = len(pids)
        else:
            report = asyncio.run(play(args, bases, pids))
    finally:
        stop_all([proc for _, proc in spawned], 10)
    return report


if __name__ == "__main__":
    main()
