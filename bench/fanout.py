"""Spectator fan-out: one 4-seat Bloqueio game watched by a thousand spectators.

The 4 players replay a recorded game from bench/games/bloqueio.jsonl, each
sending its action the moment it sees its turn. For every move we measure the time from
the sender's send until ALL connections of the game (4 players + --spectators) have the
event, and report p50/p95/p99/max, errors, moves/s and the servers' CPU seconds and RSS.
A socket that never gets a move while open counts as a lost delivery (an error); one
that the server closed counts as an error once, and latencies are then to the last
socket that got the move.
The spectators live in --workers client processes and the players in one more; each
stamps arrivals with time.monotonic() (CLOCK_MONOTONIC, shared by all processes on
Linux, checked at start) and the parent combines them.

Loopback only and bounded: refuses non-local targets, every step has a deadline and
--timeout stops everything (spawned servers included, also on ctrl-C).

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/bloqueio_bench_fanout \\
        REDIS_URL=redis://127.0.0.1:6379/7 CHANNEL_LAYER_PREFIX=fanout
    .venv/bin/python manage.py migrate
    .venv/bin/python bench/fanout.py --spawn 1               # 1,000 spectators
    .venv/bin/python bench/fanout.py --spawn 2 --json        # spectators round-robin
    .venv/bin/python bench/fanout.py --spawn 1 --server-commit HEAD --profile
    .venv/bin/python bench/fanout.py --base http://127.0.0.1:8000 --spectators 100

--server-commit REV runs the spawned servers from a clean `git archive` of REV (the
work tree may be under edit); --profile records py-spy stacks of the servers into
test-artifacts/ and prints the functions with the most own samples.

With --spawn N every connection (players too) goes to the servers round-robin, as a
load balancer would. Spectators are anonymous, as most watchers are.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from itertools import cycle
from typing import Any

import wsbench
import wsclients
from load import RECORDED, add_server_options, register


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def setup(args: argparse.Namespace, bases: list[str]) -> tuple[int, list[list[dict[str, Any]]]]:
    """The game (4 registered players, started) and the socket specs per client process."""
    records = [json.loads(line) for line in RECORDED.read_text().splitlines() if line.strip()]
    actions = records[args.record % len(records)]["actions"]
    tag = secrets.token_hex(3)
    tokens = [register(bases[0], f"fan{tag}s{s}") for s in range(4)]
    game = wsbench.api_retry(bases[0], "POST", "/api/games/", {"kind": "bloqueio"}, tokens[0])
    game_id = int(game["id"])
    for token in tokens[1:]:
        wsbench.api_retry(bases[0], "POST", f"/api/games/{game_id}/join/", {}, token)
    urls = cycle(f"{b.replace('http://', 'ws://')}/ws/games/{game_id}/" for b in bases)
    players = [{"url": next(urls), "token": t, "game": game_id, "actions": actions}
               for t in tokens]
    spectators = [{"url": next(urls), "token": None, "game": game_id}
                  for _ in range(args.spectators)]
    return game_id, [players, *wsclients.spread(spectators, args.workers)]


def run(args: argparse.Namespace, bases: list[str], pids: list[int]) -> dict[str, Any]:
    pool = wsclients.ClientPool(args.workers + 1, args.timeout + 60)
    watch: wsbench.ServerWatch | None = None
    try:
        clock = pool.check_clock()
        game_id, parts = setup(args, bases)
        watch = wsbench.ServerWatch(pids)
        rss_start = watch.mark("open")
        profile = wsbench.Profiler(pids, "fanout-open", args.profile)
        log(f"game {game_id}: opening 4 players and {args.spectators} spectators ...")
        started = time.monotonic()
        opened = pool.call([0], "open", 120, [{"specs": parts[0], "ramp": 4, "wait": 60}])
        spectator_procs = list(range(1, args.workers + 1))
        opened += pool.call(spectator_procs, "open", args.timeout,
                            [{"specs": part, "ramp": args.ramp, "wait": 60}
                             for part in parts[1:]])
        open_s = time.monotonic() - started
        watch.mark("settle")
        # The tail of the presence updates of the last arrivals, before playing.
        settle_s = watch.wait_quiet(args.settle)
        profiles = profile.stop()
        before = pool.call_all("stats", 60)
        log("playing ...")
        watch.mark("play")
        profile = wsbench.Profiler(pids, "fanout-play", args.profile)
        started = time.monotonic()
        (played,) = pool.call([0], "play", args.play_timeout + 30, [{"wait": args.play_timeout}])
        sent = played["sent"]
        collected = pool.call_all("collect", 120, keys=sorted(sent), wait=30)
        play_s = time.monotonic() - started
        watch.mark("end")
        profiles = {"open": profiles, "play": profile.stop()} if args.profile else {}
        after = pool.call_all("stats", 60)
        pool.call_all("close", 120, wait=60)
    finally:
        if watch is not None:
            watch.close()
        pool.close()
    got = wsclients.deliveries(sent, collected)
    closed: dict[str, int] = {}
    for s in after:
        for code, n in s["closed"].items():
            closed[code] = closed.get(code, 0) + n
    failed = sum(o["failed"] for o in opened)
    error_frames = sum(s["errors"] for s in after)
    gaps = sum(s["gaps"] for s in after)
    frames_before = sum(s["frames"].get("presence", 0) for s in before)
    return {
        "servers": len(bases), "server_pids_watched": len(pids),
        "connections": sum(o["opened"] for o in opened),
        "open_s": round(open_s, 1), "settle_s": round(settle_s, 1),
        "moves": len(sent), "incomplete_moves": got["incomplete"],
        "finished": played["finished"] == 4, "play_s": round(play_s, 2),
        "moves_per_s": round(len(sent) / play_s, 1) if play_s else None,
        **wsclients.percentiles(got["every"]),
        **{k: v for k, v in wsclients.percentiles(got["first"], "first_").items()
           if k in ("first_p50_ms", "first_p99_ms")},
        "errors": failed + error_frames + got["lost"] + gaps + sum(closed.values()),
        "failed_opens": failed, "closed_by_server": closed, "lost_deliveries": got["lost"],
        "deliveries_to_closed_sockets": got["dropped"], "out_of_order": gaps,
        "error_frames": error_frames,
        "error_samples": ([f for s in after for f in s["failure_samples"]]
                          + [e for s in after for e in s["error_samples"]])[:5],
        "presence_frames_while_opening": frames_before,
        "server_cpu_open_s": watch.cpu("open"), "server_cpu_settle_s": watch.cpu("settle"),
        "server_cpu_play_s": watch.cpu("play"),
        "server_cpu_ms_per_move": round(watch.cpu("play") / len(sent) * 1000, 1)
        if sent else None,
        "rss_start_mib": [round(v, 1) for v in rss_start.values()],
        "rss_peak_mib": watch.peak("open", "settle", "play"),
        "client_processes": args.workers + 1,
        "client_cpu_play_s": round(sum(a["cpu_s"] - b["cpu_s"]
                                       for a, b in zip(after, before, strict=True)), 1),
        "client_cpu_s": round(sum(s["cpu_s"] for s in after), 1),
        "clock": clock, **profiles,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_server_options(parser)
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=4, help="spectator client processes")
    parser.add_argument("--ramp", type=int, default=25,
                        help="sockets each client process opens per batch")
    parser.add_argument("--record", type=int, default=0, help="which recorded game")
    parser.add_argument("--settle", type=float, default=300,
                        help="longest wait for the servers to go quiet before playing")
    parser.add_argument("--play-timeout", type=float, default=300)
    wsbench.add_run_options(parser, "opening and while playing")
    wsbench.run_and_report(parser.parse_args(), run)


if __name__ == "__main__":
    main()
