"""Time the Swiss seating (tournaments/seating.py) for fields of 8 to 200 players.

Run from the repository root: ``python bench/seating.py [seeds]`` (about a minute on a
shared two-core machine with the default 3 seeds). Each field plays a nine-round Swiss
with random results (scores from the real standings), once per seed, and every round's
``seat_round`` call is timed in CPU time of the process (``time.process_time``: on a
shared machine the wall clock also counts other processes' turns) and in wall time.
Round r of a nine-round Swiss is the same call as round r of any shorter one, so rounds
1-9 cover Swisses of 3 to 9 rounds. Prints, per table size and field, the median and
the worst CPU time of each round number over the seeds, the worst CPU and wall times,
and the worst of all. Figures: docs/performance.md.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tournaments.seating import Entrant, Round, seat_round  # noqa: E402
from tournaments.standings import RoundResult, standings  # noqa: E402

FIELDS = (8, 16, 50, 100, 200)
ROUNDS = 9
SIZES = (4, 2)  # the registered kinds' table sizes (games/engine/registry.py)


def ranking(seats: int, rng: random.Random) -> tuple[int, ...]:
    """A random finish: a permutation of the places, competition ranks from 1."""
    places = list(range(1, seats + 1))
    rng.shuffle(places)
    return tuple(places)


def one_swiss(n: int, seats: int, seed: int) -> list[tuple[float, float]]:
    """(CPU, wall) seconds of each round's seating in a nine-round Swiss of n players."""
    rng = random.Random(seed)
    rating = {p: rng.gauss(1500, 250) for p in range(n)}
    rounds: list[Round] = []
    results: list[RoundResult] = []
    times = []
    for number in range(ROUNDS):
        points = {s.player: float(s.points) for s in standings(results, seats, range(n))}
        entrants = [Entrant(p, points[p], rating[p]) for p in range(n)]
        cpu, wall = time.process_time(), time.perf_counter()
        seating = seat_round(entrants, rounds, seats, seed=seed * 100 + number)
        times.append((time.process_time() - cpu, time.perf_counter() - wall))
        rounds.append(seating)
        results.append(RoundResult(seating, tuple(ranking(seats, rng) for _ in seating.tables)))
    return times


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    print(f"commit {commit}; {platform.python_implementation()} {platform.python_version()};"
          f" {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}; {seeds} seeds")
    worst_cpu = worst_wall = 0.0
    for seats in SIZES:
        print(f"\ntables of {seats}: CPU ms per round, median / worst over the seeds")
        print("field | " + " | ".join(f"r{r}" for r in range(1, ROUNDS + 1))
              + " | worst CPU | worst wall")
        for n in FIELDS:
            runs = [one_swiss(n, seats, seed) for seed in range(1, seeds + 1)]
            cells = []
            for r in range(ROUNDS):
                per = [run[r][0] * 1000 for run in runs]
                cells.append(f"{statistics.median(per):.0f}/{max(per):.0f}")
            cpu = max(t[0] for run in runs for t in run)
            wall = max(t[1] for run in runs for t in run)
            worst_cpu, worst_wall = max(worst_cpu, cpu), max(worst_wall, wall)
            print(f"{n} | " + " | ".join(cells) + f" | {cpu * 1000:.0f} | {wall * 1000:.0f}")
    print(f"\nworst round of all: {worst_cpu * 1000:.0f} ms CPU, {worst_wall * 1000:.0f} ms wall;"
          f" load average now {os.getloadavg()[0]:.1f}")

if __name__ == "__main__":
    main()
