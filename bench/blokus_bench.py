"""Benchmark of the Blokus engine (games/engine/blokus) on the classic 4-colour board.

Run from the repository root: ``python bench/blokus_bench.py`` (about 20 s).

Positions: the states at ply 20..60 of seeded random 4-colour games (every ply picks
a uniformly random legal action). Every timing starts from a cold state, rebuilt with
``state_from_json(state.to_json())`` outside the timed region, so no per-state cache
is warm (as on a server that loads a game's state from the database). Each figure is
the median over positions of the per-position median of ``REPEAT`` runs.

1. legal: ``legal_actions(state)``, every placement of the colour to move.
2. apply: ``apply(state, place)`` (validation included) of a random legal placement;
   also from the action's JSON (``parse_action`` + ``apply``).
3. games/s: whole random games on one core, listing the legal actions every ply.
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine.blokus import RULES as ALL  # noqa: E402

RULES = ALL["blokus"]
REPEAT = 7
TARGETS = {"legal": 5e-3, "apply": 50e-6, "games": 10.0}


def random_game(seed: int) -> list[Any]:
    """The states of one seeded random game, from the initial one to the end."""
    rng = random.Random(seed)
    state = RULES.initial()
    states = [state]
    while not state.is_over:
        state = RULES.apply(state, rng.choice(RULES.legal_actions(state)))
        states.append(state)
    return states


def midgame_positions(games: int = 40) -> list[dict[str, Any]]:
    """State JSON of the ply 20..60 positions of seeded random games (about 1,000)."""
    return [
        s.to_json()
        for seed in range(games)
        for s in random_game(seed)
        if 20 <= s.ply <= 60 and not s.is_over
    ]


def per_position(positions: list[dict[str, Any]], run: Callable[[Any], Any]) -> list[float]:
    """Per position, the median seconds of ``REPEAT`` runs on fresh cold states."""
    timer = time.perf_counter
    out = []
    for obj in positions:
        samples = []
        for _ in range(REPEAT):
            state = RULES.state_from_json(obj)
            t = timer()
            run(state)
            samples.append(timer() - t)
        out.append(statistics.median(samples))
    return out


def report(name: str, times: list[float], unit: float, label: str, target: float) -> None:
    times = sorted(times)
    med = statistics.median(times)
    p90 = times[int(0.9 * (len(times) - 1))]
    verdict = "ok" if med <= target else "OVER TARGET"
    print(
        f"{name:<34} median {med / unit:8.1f} {label}   p90 {p90 / unit:8.1f}   "
        f"max {times[-1] / unit:8.1f}   (target <= {target / unit:g} {label}: {verdict})"
    )


def main() -> None:
    print(f"Python {platform.python_version()} on {platform.machine()}, one core")
    t = time.perf_counter()
    RULES.legal_actions(RULES.initial())  # builds the placement tables
    print(f"placement tables built in {1e3 * (time.perf_counter() - t):.0f} ms (once per size)")
    positions = midgame_positions()
    print(f"{len(positions)} midgame positions (ply 20..60) of 40 seeded random games\n")

    legal = per_position(positions, RULES.legal_actions)
    report("legal placements (cold state)", legal, 1e-3, "ms", TARGETS["legal"])

    rng = random.Random(1)
    times, times_json = [], []
    timer = time.perf_counter
    for obj in positions:
        action = rng.choice(RULES.legal_actions(RULES.state_from_json(obj)))
        raw = action.to_json()
        samples, samples_json = [], []
        for _ in range(REPEAT):
            state = RULES.state_from_json(obj)
            t = timer()
            RULES.apply(state, action)
            samples.append(timer() - t)
            state = RULES.state_from_json(obj)
            t = timer()
            RULES.apply(state, RULES.parse_action(raw))
            samples_json.append(timer() - t)
        times.append(statistics.median(samples))
        times_json.append(statistics.median(samples_json))
    report("validate + apply a placement", times, 1e-6, "us", TARGETS["apply"])
    report("  same, parsed from JSON first", times_json, 1e-6, "us", TARGETS["apply"])

    n = 60
    plies = 0
    t = time.perf_counter()
    for seed in range(1000, 1000 + n):
        plies += len(random_game(seed)) - 1
    elapsed = time.perf_counter() - t
    rate = n / elapsed
    verdict = "ok" if rate >= TARGETS["games"] else "UNDER TARGET"
    print(
        f"{'random 4-colour games':<34} {rate:8.1f} games/s ({plies / n:.0f} plies a game, "
        f"legal list every ply)   (target >= {TARGETS['games']:g}: {verdict})"
    )


if __name__ == "__main__":
    main()
