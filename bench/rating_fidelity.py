"""How well do ratings recover hidden strength? Prints Kendall tau per model and seed.

400 players with hidden strength ~ N(0, 1) play 3,000 four-seat games; a game's
finishing order is strength + N(0, 1) noise. Seats are random for the first 600 games,
then drawn from players of neighbouring rating, as matchmaking does. The score is
Kendall tau between hidden strength and the leaderboard order (all players, ordered by
the displayed rating). Uses the site's own rating code (games/ranked/rating_model.py).

    .venv/bin/python bench/rating_fidelity.py            # the site's settings, 5 seeds
    .venv/bin/python bench/rating_fidelity.py --compare  # also the stock baselines
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.ranked import rating_model as rm

PLAYERS = 400
GAMES = 3000
RANDOM_GAMES = 600
SEATS = 4


def kendall_tau(xs: list[float], ys: list[float]) -> float:
    """Kendall tau-b, O(n^2): plenty for 400 players."""
    n = len(xs)
    concordant = discordant = ties_x = ties_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = xs[i] - xs[j]
            dy = ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denom = ((concordant + discordant + ties_x) * (concordant + discordant + ties_y)) ** 0.5
    return (concordant - discordant) / denom if denom else 0.0


def simulate(seed: int, settings: rm.Settings, order_by: str = "display") -> float:
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(PLAYERS)]
    skills = [rm.Skill() for _ in range(PLAYERS)]
    for game in range(GAMES):
        if game < RANDOM_GAMES:
            seated = rng.sample(range(PLAYERS), SEATS)
        else:
            # Matchmaking: a random player and the nearest by matchmaking rating.
            by_rating = sorted(range(PLAYERS), key=lambda p: skills[p].mu)
            anchor = rng.randrange(PLAYERS)
            at = by_rating.index(anchor)
            start = min(max(at - rng.randrange(SEATS), 0), PLAYERS - SEATS)
            seated = by_rating[start:start + SEATS]
        perf = [strength[p] + rng.gauss(0, 1) for p in seated]
        order = sorted(range(SEATS), key=lambda i: -perf[i])
        ranking = [0] * SEATS
        for place, i in enumerate(order, start=1):
            ranking[i] = place
        new = rm.rate([skills[p] for p in seated], ranking, settings)
        for p, skill in zip(seated, new, strict=True):
            skills[p] = skill
    if order_by == "mu":
        score = [s.mu for s in skills]
    else:
        score = [rm.display(s.mu, s.sigma) + s.mu * 1e-6 for s in skills]
    return kendall_tau(strength, score)


def run(label: str, settings: rm.Settings, seeds: list[int]) -> float:
    started = time.perf_counter()
    taus = [simulate(seed, settings) for seed in seeds]
    mean = statistics.mean(taus)
    print(f"{label:<48} tau mean {mean:.3f}  (" + " ".join(f"{t:.3f}" for t in taus)
          + f")  {time.perf_counter() - started:.1f}s")
    return mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--compare", action="store_true", help="also run stock settings")
    args = parser.parse_args()
    seeds = list(range(1, args.seeds + 1))
    print(f"{PLAYERS} players, {GAMES} games of {SEATS}, random seats for the first "
          f"{RANDOM_GAMES}; seeds {seeds}")
    if args.compare:
        stock_beta = rm.SIGMA / 2
        for name in rm.MODELS:
            run(f"stock {name}", rm.Settings(model=name, beta=stock_beta, tau=rm.SIGMA / 36),
                seeds)
    run(f"site: {rm.DEFAULT}", rm.DEFAULT, seeds)


if __name__ == "__main__":
    main()
