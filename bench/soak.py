"""Connection soak: thousands of idle, signed-in WebSockets held open, then a live move.

Opens --sockets authenticated WebSockets (token auth) spread over 4-seat Bloqueio games
(4 players and --spectators signed-in spectators each), the lobby (/ws/lobby/) and
personal notifications (/ws/me/), holds them --hold seconds as idle real clients do
(answering the server's `ping` frames), then, in --probe-games games, makes --probe-moves
moves one after another and checks that EVERY socket of each game (players and
spectators) receives the event, with the delivery latency. Reports sockets opened and
failed, the servers' RSS (per process and total) at start, peak while open and after
closing, the servers' and the clients' CPU seconds per phase.

Loopback only and bounded: refuses non-local targets, every step has a deadline and
--timeout stops everything (spawned servers included, also on ctrl-C).

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/bloqueio_bench_soak \\
        REDIS_URL=redis://127.0.0.1:6379/6 CHANNEL_LAYER_PREFIX=soak
    .venv/bin/python manage.py migrate
    .venv/bin/python bench/soak.py --spawn 1          # 5,000 sockets, 60 s hold
    .venv/bin/python bench/soak.py --spawn 2 --json
    .venv/bin/python bench/soak.py --spawn 1 --server-commit HEAD --profile  # py-spy too
    .venv/bin/python bench/soak.py --base http://127.0.0.1:8000 --sockets 500 --hold 10

--server-commit REV runs the spawned servers from a clean `git archive` of REV (the
work tree may be under edit); --profile records py-spy stacks of the servers into
test-artifacts/ and prints the functions with the most own samples.

Users and their tokens are created straight in DATABASE_URL's database (it must be the
server's); games are created and joined over the REST API. The clients run in --workers
processes (see bench/wsbench.py), so the client is not one saturated event loop.

--haproxy K puts K HAProxy processes (deploy/haproxy.cfg, rendered for the spawned
servers) in front of the servers and spreads the clients over them: each game's sockets
then sit on one server process, the one each game was placed on (docs/scaling.md). K > 1
because an HAProxy holds two file descriptors per client (its side and the server's) and
the machine may cap a process below 2 x the sockets (`ulimit -Hn`); K balancers share the
game table as HAProxy peers (bench/balancer.py), so they route every game alike. Spawned
servers and proxies listen on --ports (default 9100-9199).

    .venv/bin/python bench/soak.py --spawn 2 --haproxy 2 --sockets 10000 --games 500

The open-file limit is raised to the hard limit first (the servers and the client
processes inherit it); a run the limit cannot hold stops before it starts. The report
ends with the two checks: total server RSS under 1 GiB at its peak, and every probe
move delivered to every socket of its game.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import secrets
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from itertools import cycle
from typing import Any

import load
import wsbench
import wsclients
from balancer import Ports, proxies
from load import RECORDED

GIB_MIB = 1024


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def setup(args: argparse.Namespace, bases: list[str]) -> list[dict[str, Any]]:
    """Users, games (created and joined over the API) and one spec per socket."""
    per_game = 4 + args.spectators
    rest = args.sockets - args.games * per_game
    if rest < 0:
        raise SystemExit("--games * (4 + --spectators) exceeds --sockets")
    lobby_count = rest // 2
    me_count = rest - lobby_count
    users = wsbench.make_users(args.games * per_game + lobby_count, f"soak{secrets.token_hex(3)}")
    tokens = [t for _, t in users]
    players = [tokens[4 * g:4 * g + 4] for g in range(args.games)]
    spectators = tokens[4 * args.games:args.games * per_game]
    lobby_users = tokens[args.games * per_game:]
    records = [json.loads(line) for line in RECORDED.read_text().splitlines() if line.strip()]
    api_bases = cycle(bases)

    def make_game(seats: list[str]) -> int:
        base = next(api_bases)
        game = wsbench.api_retry(base, "POST", "/api/games/", {"kind": "bloqueio"}, seats[0])
        for token in seats[1:]:
            wsbench.api_retry(base, "POST", f"/api/games/{game['id']}/join/", {}, token)
        return int(game["id"])

    log(f"{len(users)} users created; creating {args.games} games over the API ...")
    with ThreadPoolExecutor(4) as pool:
        game_ids = list(pool.map(make_game, players))
    ws_bases = [b.replace("http://", "ws://") for b in bases]
    specs: list[dict[str, Any]] = []
    for g, (game_id, seats) in enumerate(zip(game_ids, players, strict=True)):
        actions = records[g % len(records)]["actions"][:args.probe_moves]
        specs += [{"path": f"/ws/games/{game_id}/", "token": t, "game": game_id,
                   "actions": actions} for t in seats]
        specs += [{"path": f"/ws/games/{game_id}/", "token": t, "game": game_id}
                  for t in spectators[g * args.spectators:(g + 1) * args.spectators]]
    specs += [{"path": "/ws/lobby/", "token": t} for t in lobby_users]
    # Every player has its /ws/me/ open (as the site's pages do), then other users.
    specs += [{"path": "/ws/me/", "token": t} for t in tokens[:me_count]]
    random.Random(1).shuffle(specs)  # arrivals mixed, each game spread over processes
    for spec, base in zip(specs, cycle(ws_bases), strict=False):
        spec["url"] = base + spec.pop("path")
    return specs


def probe(args: argparse.Namespace, pool: wsclients.ClientPool, games: list[int]
          ) -> dict[str, Any]:
    """Moves in `games`, one round after another; delivery to every socket of each game."""
    every: list[float] = []
    first: list[float] = []
    lost = dropped = incomplete = moves = 0
    keys: list[wsclients.Key] = []
    for _ in range(args.probe_moves):
        sent: dict[wsclients.Key, float] = {}
        for part in pool.call_all("move", 30, games=games):
            sent.update(part)
        moves += len(sent)
        got = wsclients.deliveries(sent, pool.call_all("collect", 60, keys=list(sent), wait=30))
        every += got["every"]
        first += got["first"]
        lost += got["lost"]
        dropped += got["dropped"]
        incomplete += got["incomplete"]
        keys += list(sent)
    time.sleep(1)  # the your_turn notifications are not waited for above
    parts = pool.call_all("collect", 60, keys=keys, wait=0)
    notes = sum(bool(stamps) for part in parts for stamps in part["notes"].values())
    wanted = set(games)
    sockets = sum(n for part in parts for g, n in part["sockets"].items() if g in wanted)
    return {"probe_games": len(games), "probe_moves": moves, "probe_sockets": sockets,
            **wsclients.percentiles(every, "probe_all_"),
            "probe_first_p50_ms": wsclients.percentiles(first)["p50_ms"],
            "probe_lost": lost, "probe_dropped": dropped, "probe_incomplete_moves": incomplete,
            "probe_your_turn_notes": f"{notes}/{moves}"}


def run(args: argparse.Namespace, bases: list[str], pids: list[int]) -> dict[str, Any]:
    pool = wsclients.ClientPool(args.workers, args.timeout + 60)
    watch: wsbench.ServerWatch | None = None
    try:
        clock = pool.check_clock()
        specs = setup(args, bases)
        watch = wsbench.ServerWatch(pids)
        rss_start = watch.mark("start")
        time.sleep(1)
        log(f"opening {len(specs)} sockets from {args.workers} client processes ...")
        watch.mark("open")
        profile = wsbench.Profiler(pids, "soak-open", args.profile)
        started = time.monotonic()
        opened = pool.call(list(range(args.workers)), "open", args.timeout,
                           [{"specs": part, "ramp": args.ramp, "wait": 60}
                            for part in wsclients.spread(specs, args.workers)])
        open_s = time.monotonic() - started
        profiles = {"open": profile.stop()}
        log(f"holding {args.hold:.0f} s ...")
        watch.mark("hold")
        profile = wsbench.Profiler(pids, "soak-hold", args.profile)
        time.sleep(args.hold)
        held = pool.call_all("stats", 60)
        profiles["hold"] = profile.stop()
        rss_hold_end = watch.mark("probe")
        game_ids = sorted({s["game"] for s in specs if s.get("game") is not None})
        probed = probe(args, pool, game_ids[:args.probe_games])
        stats = pool.call_all("stats", 60)
        watch.mark("close")
        pool.call_all("close", 120, wait=60)
        time.sleep(args.settle)
        rss_after = watch.mark("end")
        client_cpu = sum(s["cpu_s"] for s in pool.call_all("stats", 60))
    finally:
        if watch is not None:
            watch.close()
        pool.close()

    def total(values: dict[int, float] | list[float]) -> float:
        return round(sum(values.values() if isinstance(values, dict) else values), 1)

    peak = watch.peak("open", "hold")
    opened_n = sum(o["opened"] for o in opened)
    closed: dict[str, int] = {}
    for s in stats:
        for code, n in s["closed"].items():
            closed[code] = closed.get(code, 0) + n
    return {
        "servers": len(bases), "server_pids_watched": len(pids),
        "sockets": len(specs), "opened": opened_n,
        "failed": sum(o["failed"] for o in opened),
        "failure_samples": [f for s in stats for f in s["failure_samples"]][:3],
        "open_s": round(open_s, 1), "opens_per_s": round(opened_n / open_s, 1),
        "open_after_hold": sum(s["open"] for s in held),
        "closed_by_server": closed,
        "pings_answered": sum(s["pings"] for s in stats),
        "error_frames": sum(s["errors"] for s in stats),
        "out_of_order": sum(s["gaps"] for s in stats),
        "error_samples": [e for s in stats for e in s["error_samples"]][:3],
        "hold_s": args.hold,
        "rss_start_mib": [round(v, 1) for v in rss_start.values()],
        "rss_start_total_mib": total(rss_start),
        "rss_peak_mib": peak, "rss_peak_total_mib": total(peak),
        "rss_end_of_hold_total_mib": total(rss_hold_end),
        "rss_after_close_mib": [round(v, 1) for v in rss_after.values()],
        "rss_after_close_total_mib": total(rss_after),
        "server_cpu_open_s": watch.cpu("open"), "server_cpu_hold_s": watch.cpu("hold"),
        "server_cpu_probe_s": watch.cpu("probe"), "server_cpu_close_s": watch.cpu("close"),
        **probed,
        "client_processes": args.workers, "client_cpu_s": round(client_cpu, 1),
        "client_peak_rss_mib": round(sum(s["peak_rss_mib"] for s in stats), 1),
        "clock": clock, **(profiles if args.profile else {}),
    }


def raise_fd_limit(args: argparse.Namespace) -> None:
    """Soft open-file limit up to the hard one; stop if a process would need more."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    spare = 200  # listeners, logs, pools, Redis and PostgreSQL connections, pipes
    needs = {"a client process": -(-args.sockets // args.workers) + spare}
    if args.spawn:
        needs["a server process"] = -(-args.sockets // args.spawn) + spare
    if args.haproxy:
        needs["an HAProxy"] = 2 * -(-args.sockets // args.haproxy) + spare
    for who, count in needs.items():
        if count > hard:
            raise SystemExit(f"{who} needs ~{count} open files, over the hard limit {hard} "
                             "(`ulimit -Hn`): spread the sockets over more of them")


def run_behind(args: argparse.Namespace, bases: list[str], pids: list[int], ports: Ports
               ) -> dict[str, Any]:
    """`run`, through --haproxy proxies if asked; then the two checks."""
    if args.haproxy:
        per_proxy = -(-args.sockets // args.haproxy)
        with proxies(args.haproxy, bases, ports, per_proxy) as started:
            report = run(args, [b for b, _ in started], pids)
            report["haproxy"] = f"{args.haproxy} x deploy/haproxy.cfg in front of {len(bases)}"
            report["haproxy_peak_rss_mib"] = [round(load.peak_rss_mib(p.pid), 1)
                                              for _, p in started]
    else:
        report = run(args, bases, pids)
    report["check_rss_under_1_gib"] = report["rss_peak_total_mib"] < GIB_MIB
    report["check_probe_reached_every_socket"] = (
        report["probe_moves"] > 0 and report["probe_lost"] == 0
        and report["probe_dropped"] == 0 and report["probe_incomplete_moves"] == 0)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    load.add_server_options(parser)
    parser.add_argument("--sockets", type=int, default=5000)
    parser.add_argument("--games", type=int, default=250)
    parser.add_argument("--spectators", type=int, default=8, help="signed-in, per game")
    parser.add_argument("--hold", type=float, default=60, help="seconds held idle")
    parser.add_argument("--workers", type=int, default=4, help="client processes")
    parser.add_argument("--ramp", type=int, default=25,
                        help="sockets each client process opens per batch")
    parser.add_argument("--probe-games", type=int, default=20)
    parser.add_argument("--probe-moves", type=int, default=2, help="moves per probe game")
    parser.add_argument("--settle", type=float, default=5, help="seconds after closing")
    parser.add_argument("--haproxy", type=int, default=0, metavar="K",
                        help="K HAProxy processes in front of the spawned servers")
    parser.add_argument("--ports", default="9100-9199",
                        help="FIRST-LAST: ports for spawned servers and proxies")
    wsbench.add_run_options(parser, "opening and while holding")
    args = parser.parse_args()
    if args.haproxy and not args.spawn:
        raise SystemExit("--haproxy needs --spawn")
    first, _, last = args.ports.partition("-")
    ports = Ports(int(first), int(last or first))
    load.free_port = ports.take  # where wsbench's spawn (load.spawn) looks for a port
    raise_fd_limit(args)
    wsbench.run_and_report(args, lambda a, bases, pids: run_behind(a, bases, pids, ports))


if __name__ == "__main__":
    main()
