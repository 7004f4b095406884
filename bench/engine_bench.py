"""Benchmark of the rules engine (games/engine) against the targets of issue 3.

Run from the repository root: ``python bench/engine_bench.py`` (about 30 s).
Positions are the midgame (ply 20..80) positions of the recorded 4-seat Bloqueio games
in bench/games/bloqueio.jsonl and of the bloqueio conformance vectors. Every
timing uses a fresh state rebuilt from JSON, so no per-state cache is warm (as on a
server that loads a game's state from the database).
"""

from __future__ import annotations

import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import engine  # noqa: E402
from games.engine.barrier import Action, Barrier, State  # noqa: E402

RULES = engine.get("bloqueio")


def midgame_positions(limit: int = 600) -> list[dict]:
    """State JSON of midgame positions, spread evenly over all games and vectors."""
    found: list[dict] = []
    with (ROOT / "bench" / "games" / "bloqueio.jsonl").open() as f:
        for line in f:
            state = RULES.initial()
            for action in json.loads(line)["actions"]:
                if 20 <= state.ply <= 80:
                    found.append(state.to_json())
                state = RULES.apply(state, RULES.parse_action(action))
    with (ROOT / "tests" / "vectors" / "bloqueio.jsonl").open() as f:
        for line in f:
            case = json.loads(line)
            if case["start"] == "initial":
                state = RULES.initial()
            else:
                state = RULES.state_from_json(case["start"])
            for action in case["actions"]:
                if 20 <= state.ply <= 80 and state.turn is not None:
                    found.append(state.to_json())
                if action["type"] == "resign":
                    state = RULES.leave(state, action["seat"], "resign")
                else:
                    state = RULES.apply(state, RULES.parse_action(action))
    step = max(1, len(found) // limit)
    return found[::step][:limit]


def per_position(
    positions: list[dict], run: Callable[[State], object], repeats: int
) -> list[float]:
    """Median seconds of ``run`` per position, each run on a freshly built state."""
    out = []
    for obj in positions:
        times = []
        for _ in range(repeats):
            state = RULES.state_from_json(obj)
            start = time.perf_counter()
            run(state)
            times.append(time.perf_counter() - start)
        out.append(statistics.median(times))
    return out


def spread(values: list[float]) -> tuple[float, float, float]:
    """Median, p10, p90."""
    q = statistics.quantiles(values, n=10)
    return statistics.median(values), q[0], q[-1]


def random_games(seconds: float, seed: int, rules: engine.Rules = RULES) -> tuple[int, float, int]:
    """Uniformly random complete games (legal actions listed every ply) for ``seconds``."""
    rng = random.Random(seed)
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = rules.initial()
        while state.turn is not None:
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
            plies += 1
        games += 1
    return games, time.perf_counter() - start, plies


def report(name: str, value: str, target: str, ok: bool) -> None:
    print(f"{name:<44} {value:<38} target {target:<12} {'PASS' if ok else 'MISS'}")


def main() -> None:
    print(
        f"python {platform.python_version()} ({platform.python_implementation()}), "
        f"{os.cpu_count()} cores, {platform.machine()}, {platform.system()}"
    )
    positions = midgame_positions()
    print(f"{len(positions)} midgame positions (ply 20..80) of 4-seat bloqueio\n")
    per_position(positions[:50], RULES.legal_actions, 3)  # warm-up

    legal = per_position(positions, RULES.legal_actions, 5)
    med, p10, p90 = spread(legal)
    report(
        "legal_actions, midgame 4-seat bloqueio",
        f"median {med * 1e3:.3f} ms (p10 {p10 * 1e3:.3f}, p90 {p90 * 1e3:.3f})",
        "<= 0.3 ms",
        med <= 0.3e-3,
    )

    rng = random.Random(7)
    chosen = []
    for obj in positions:
        state = RULES.state_from_json(obj)
        walls = [a for a in RULES.legal_actions(state) if isinstance(a, Barrier)]
        if walls:
            chosen.append((obj, rng.choice(walls)))

    def legal_and_apply(state: State, action: Action) -> None:
        assert RULES.is_legal(state, action)
        RULES.apply(state, action)

    times = []
    for obj, action in chosen:
        runs = []
        for _ in range(7):
            state = RULES.state_from_json(obj)
            start = time.perf_counter()
            legal_and_apply(state, action)
            runs.append(time.perf_counter() - start)
        times.append(statistics.median(runs))
    med, p10, p90 = spread(times)
    report(
        f"is_legal + apply, one barrier ({len(chosen)} pos.)",
        f"median {med * 1e6:.1f} us (p10 {p10 * 1e6:.1f}, p90 {p90 * 1e6:.1f})",
        "<= 20 us",
        med <= 20e-6,
    )

    random_games(1.0, 0)  # warm-up
    rates = []
    total_games = total_plies = 0
    for batch in range(5):
        games, secs, plies = random_games(3.0, batch + 1)
        rates.append(games / secs)
        total_games += games
        total_plies += plies
    med = statistics.median(rates)
    report(
        "random full games, one core",
        f"median {med:.0f} games/s (min {min(rates):.0f}, max {max(rates):.0f})",
        ">= 200/s",
        med >= 200,
    )
    print(
        f"\n({total_games} random games, {total_plies / total_games:.0f} plies each on average;"
        f" 5 batches of 3 s)\n"
    )

    for kind in ("blockade", "blockade_run"):  # no targets: figures to watch for regressions
        rules = engine.get(kind)
        random_games(0.5, 0, rules)  # warm-up
        rates = []
        plies = games = 0
        for batch in range(3):
            g, secs, p = random_games(1.0, batch + 1, rules)
            rates.append(g / secs)
            games += g
            plies += p
        med = statistics.median(rates)
        print(
            f"{'random full games, one core, ' + kind:<44} "
            f"median {med:.0f} games/s ({plies / games:.0f} plies each; 3 batches of 1 s)"
        )


if __name__ == "__main__":
    main()
