"""Our server and boardgame.io, interleaved in one session: issue 46's comparison.

Runs `bench/load.py --continuous` against our server as docs/operations.md deploys it
(`--spawn 2 --haproxy 1`) and `--peer bgio` (and, with `--postgres-peer URL`,
`--peer bgio-postgres`) in turn, `--pairs` times, the same G, spectators, window and
`--rate` for each, then prints one Markdown row a run. Interleaving is what makes the
figures comparable on a machine whose speed drifts (docs/performance.md); take them on a
quiet machine. Our runs use DATABASE_URL and REDIS_URL from the environment (flush the
bench Redis database yourself before, as the other commands there do).

    .venv/bin/python bench/compare_peer.py --pairs 3 --games 50 --continuous 20
    .venv/bin/python bench/compare_peer.py --pairs 3 --games 50 --continuous 20 --rate 300
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent


def one(kind: str, args: argparse.Namespace) -> dict[str, Any]:
    """One load.py run (`ours`, `bgio` or `bgio-postgres`) and its JSON report."""
    command = [sys.executable, str(BENCH / "load.py"), "--games", str(args.games),
               "--spectators", str(args.spectators), "--continuous", str(args.continuous),
               "--json"]
    if args.rate:
        command += ["--rate", str(args.rate)]
    env = dict(os.environ)
    if kind == "ours":
        command += ["--spawn", "2", "--haproxy", "1"]
    else:
        command += ["--spawn", "1", "--peer", kind]
        if kind == "bgio-postgres":
            env["DATABASE_URL"] = args.postgres_peer
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode or not lines:
        raise SystemExit(f"{kind}: load.py failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return dict(json.loads(lines[-1]))


def row(pair: int, kind: str, r: dict[str, Any]) -> str:
    name = {"ours": "ours (2 x serve + HAProxy)", "bgio": "boardgame.io in memory",
            "bgio-postgres": "boardgame.io + PostgreSQL"}[kind]
    return (f"| {pair} | {name} | {r['moves_per_s']:,} | {r['p50_ms']} | {r['p99_ms']} | "
            f"{r['server_cpu_ms_per_move']} | {r['client_cpu_s']} | {r['games_finished']} | "
            f"{r['errors']} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--continuous", type=float, default=20)
    parser.add_argument("--rate", type=float, default=0)
    parser.add_argument("--postgres-peer", metavar="URL",
                        help="also boardgame.io with its PostgreSQL adapter on this database "
                             "(one of its own: the adapter creates its tables there)")
    args = parser.parse_args()
    kinds = ["ours", "bgio"] + (["bgio-postgres"] if args.postgres_peer else [])
    print(f"G={args.games}, {args.spectators} spectators, {args.continuous:g} s window"
          + (f", offered {args.rate:g} moves/s" if args.rate else ", closed loop"))
    print("\n| pair | server | moves/s | p50 ms | p99 ms | server ms a move | client CPU s "
          "| games finished | errors |\n|---|---|---|---|---|---|---|---|---|", flush=True)
    for pair in range(1, args.pairs + 1):
        for kind in kinds:
            print(row(pair, kind, one(kind, args)), flush=True)


if __name__ == "__main__":
    main()
