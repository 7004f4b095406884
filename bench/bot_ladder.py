"""Bot ladder: seeded games between bot levels, win rates and time per move.

Each pairing puts one seat of the tested level against the others (seats rotated
game by game) and reports how often that seat wins, with a 95 % Wilson interval, and
the CPU time per move of each level (median, max). Draws and shared first places count
as not won. ``greedy`` is not a level: it is the family's yardstick from
bench/opponents.py (the greedy racer in the barrier kinds), written apart from the bots;
nor is ``blocker`` (the barrier kinds' greedy blocker of issue #48, same file).

    python bench/bot_ladder.py --games 10            # every pairing
    python bench/bot_ladder.py --quick               # 4 games each, a smoke run
    python bench/bot_ladder.py --kinds quoridor,blockade --games 20 --jobs 2
    python bench/bot_ladder.py --only greedy --kinds bloqueio --fixed   # node budgets only
    nice -n 10 python bench/bot_ladder.py --only blocker --kinds bloqueio,quoridor4 --fixed

``--round-robin`` plays instead every pair of players of each kind (its levels, its
family's greedy yardsticks and ``uniform``, a uniformly random player held at 0 Elo),
scores each game as pairwise results from its final ranking, and prints Bradley-Terry
ratings (bench/bt_fit.py) with 95 % bootstrap intervals and each player's CPU time per
move. Two seats: colours alternate. Four seats: the two players take alternate seats
(ABAB, then BABA), except that a thinking level (hard, perfect) sits at one seat only,
rotated, against three of the other, to keep its ~1 s moves affordable.

    nice -n 10 python bench/bot_ladder.py --round-robin --games 10 --hard-games 4 --fixed
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import bt_fit, opponents
from games import bots, engine

GREEDY = "greedy"  # the family's yardstick opponent (bench/opponents.py), not a level
BLOCKER = "blocker"  # the barrier kinds' greedy blocker (bench/opponents.py, issue #48)
FIRST = "first"  # a pairing whose tested level always sits first (no rotation)

Pairing = tuple[str, str, str, float]


def _twins(kinds: tuple[str, str], *rows: tuple[str, str, float]) -> tuple[Pairing, ...]:
    """The same (tested, opponents, target) rows for two kinds that differ only in their
    board (Bloqueio and Quoridor), each row for both kinds in turn."""
    return tuple((kind, *row) for row in rows for kind in kinds)


# (kind, tested level, opponents' level or GREEDY, target win rate of the tested seat);
# a tested level suffixed "/first" always plays seat 0
PAIRINGS: tuple[Pairing, ...] = (
    *_twins(("bloqueio", "quoridor4"),
            ("hard", GREEDY, 0.50), ("medium", GREEDY, 0.35), ("hard", "medium", 0.60),
            ("hard", BLOCKER, 0.50), ("medium", BLOCKER, 0.35)),
    *_twins(("bloqueio2", "quoridor"),
            ("hard", GREEDY, 0.90), ("medium", GREEDY, 0.90), ("hard", "medium", 0.75)),
    ("blokus", "hard", GREEDY, 0.60),
    ("blokus_duo", "hard", GREEDY, 0.75),
    ("blokus2", "hard", GREEDY, 0.75),
    ("blokus_duo", "hard", "medium", 0.75),
    ("blokus2", "hard", "medium", 0.75),
    ("blockade", "hard/" + FIRST, "medium", 1.00),
    ("blockade", "hard/" + FIRST, GREEDY, 1.00),
    ("blockade_run", "hard", GREEDY, 0.75),
    ("blockade_run", "hard", "medium", 0.75),
    *((kind, "perfect/" + FIRST, other, 1.00)
      for kind in ("blockade", "blockade_run") for other in ("hard", GREEDY)),
    ("blockade", "medium", "easy", 0.80),
    *((kind, "medium", "easy", 0.90) for kind in engine.KINDS if kind != "blockade"),
)


@dataclass
class Outcome:
    """One game: did the tested seat win, and each level's move times (seconds)."""

    won: bool
    times: dict[str, list[float]] = field(default_factory=dict)


def play(kind: str, tested: str, others: str, game: int, seed: int, fixed: bool) -> Outcome:
    """One game with the tested level on seat ``game % seats`` (seat 0 for "/first").
    ``fixed``: hard searches its 1-second node budget with no clock cap, so a busy
    machine changes only the times, not the moves."""
    rules = engine.get(kind)
    rules.legal_actions(rules.initial())  # build the kind's tables before timing moves
    tested, _, where = tested.partition("/")
    seat = 0 if where == FIRST else game % rules.seats
    levels = [tested if s == seat else others for s in range(rules.seats)]
    state = rules.initial()
    times: dict[str, list[float]] = {tested: [], others: []}
    yardstick = opponents.FOR_FAMILY[rules.info.family]
    nodes = round(bots._family(rules).nodes_per_second(rules)) if fixed else None
    while state.turn is not None:
        level = levels[state.turn]
        start = time.process_time()  # CPU time: other work on the machine does not count
        move_seed = seed * 7919 + game * 31 + state.turn
        if level == GREEDY or level in opponents.YARDSTICKS:
            name = yardstick if level == GREEDY else level
            action = opponents.play(name, rules, state, move_seed)
        else:
            action = bots.choose(
                rules, state, level, seed=move_seed,
                nodes=nodes if level == "hard" else None, budget_s=30.0 if fixed else None,
            )
        times[level].append(time.process_time() - start)
        state = rules.apply(state, action)
    result = rules.result(state)
    return Outcome(result is not None and result.winner == seat, times)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _play(args: tuple[str, str, str, int, int, bool]) -> Outcome:
    return play(*args)


def run(
    games: int,
    kinds: set[str] | None,
    seed: int,
    jobs: int,
    only: set[str] | None = None,
    fixed: bool = False,
) -> list[str]:
    """Play every selected pairing; returns the report lines (also printed as they come)."""
    lines = [
        f"{'kind':13} {'pairing':16} {'games':>5} {'win':>6} {'95% CI':>13} {'target':>6}  "
        f"{'tested ms/move med/max':>22} {'others ms/move med/max':>22}"
    ]
    print(lines[0], flush=True)
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    try:
        for kind, tested, others, target in PAIRINGS:
            if kinds is not None and kind not in kinds:
                continue
            if only is not None and not only & {tested.partition("/")[0], others}:
                continue
            tasks = [(kind, tested, others, g, seed, fixed) for g in range(games)]
            outcomes = list(pool.map(_play, tasks) if pool else map(_play, tasks))
            wins = sum(o.won for o in outcomes)
            lo, hi = wilson(wins, games)
            line = (
                f"{kind:13} {tested + ' v ' + others:16} {games:5d} {wins / games:6.0%} "
                f"{f'{lo:.0%}-{hi:.0%}':>13} {target:6.0%}  "
                f"{_times(outcomes, tested.partition('/')[0]):>22} {_times(outcomes, others):>22}"
                f"  {'PASS' if wins / games >= target else 'MISS'}"
            )
            print(line, flush=True)
            lines.append(line)
    finally:
        if pool:
            pool.shutdown()
    return lines


def _times(outcomes: list[Outcome], level: str) -> str:
    spent = [t for o in outcomes for t in o.times.get(level, [])]
    if not spent:
        return "-"
    return f"{level} {statistics.median(spent) * 1000:.1f}/{max(spent) * 1000:.0f}"


# -- round robin ----------------------------------------------------------------------

ANCHOR = "uniform"  # bench/opponents.py's uniformly random player, rated 0 Elo


def roster(kind: str) -> list[str]:
    """Everyone in ``kind``'s round robin: its levels, its family's yardsticks, uniform."""
    rules = engine.get(kind)
    return [*bots.levels(rules), *opponents.ALL_FOR_FAMILY[rules.info.family], ANCHOR]


def lineup(seats: int, a: str, b: str, game: int) -> tuple[str, ...]:
    """Who sits where in game ``game`` of the pairing a-b (see the module docstring)."""
    if seats > 2 and (a in bots.THINKING or b in bots.THINKING):
        lone, rest = (a, b) if a in bots.THINKING else (b, a)
        return tuple(lone if s == game % seats else rest for s in range(seats))
    return tuple(a if (s + game) % 2 == 0 else b for s in range(seats))


@dataclass
class Meeting:
    """One round-robin game: its pairwise results and each player's move times."""

    results: list[bt_fit.Result]
    times: dict[str, list[float]]


def meet(kind: str, seated: tuple[str, ...], game: int, seed: int, fixed: bool) -> Meeting:
    """Play one game with ``seated[s]`` on seat s; score it pair by pair from the ranking
    (ahead 1, shared rank 0.5, behind 0; two seats of one player are not compared)."""
    rules = engine.get(kind)
    rules.legal_actions(rules.initial())  # build the kind's tables before timing moves
    solver = bots._solver(rules)
    rates = {"hard": bots._family(rules).nodes_per_second(rules),  # one second's nodes
             "perfect": solver.proofs_per_second(rules) if solver else 0}
    state = rules.initial()
    times: dict[str, list[float]] = {p: [] for p in seated}
    while state.turn is not None:
        player = seated[state.turn]
        start = time.process_time()
        move_seed = seed * 7919 + game * 31 + state.turn
        if player in opponents.YARDSTICKS:
            action = opponents.play(player, rules, state, move_seed)
        else:
            action = bots.choose(
                rules, state, player, seed=move_seed,
                nodes=rates[player] if fixed and player in rates else None,
                budget_s=30.0 if fixed else None,
            )
        times[player].append(time.process_time() - start)
        state = rules.apply(state, action)
    result = rules.result(state)
    assert result is not None
    rank = result.ranking
    results = [
        (seated[i], seated[j], 1.0 if rank[i] < rank[j] else 0.5 if rank[i] == rank[j] else 0.0)
        for i in range(len(seated)) for j in range(i + 1, len(seated)) if seated[i] != seated[j]
    ]
    return Meeting(results, times)


def _meet(args: tuple[str, tuple[str, ...], int, int, bool]) -> Meeting:
    return meet(*args)


def round_robin(
    kinds: list[str], games: int, hard_games: int, seed: int, jobs: int, fixed: bool
) -> list[str]:
    """Every pairing of every kind, then a rating table per kind (printed and returned)."""
    tasks: list[tuple[str, str, str, int]] = []
    for kind in kinds:
        players = roster(kind)
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                n = hard_games if a in bots.THINKING or b in bots.THINKING else games
                tasks.extend((kind, a, b, g) for g in range(n))
    args = [(k, lineup(engine.get(k).seats, a, b, g), g, seed, fixed) for k, a, b, g in tasks]
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    try:
        meetings = list(pool.map(_meet, args) if pool else map(_meet, args))
    finally:
        if pool:
            pool.shutdown()
    lines: list[str] = []
    for kind in kinds:
        played = [(t, m) for t, m in zip(tasks, meetings, strict=True) if t[0] == kind]
        pairings: dict[tuple[str, str], list[bt_fit.Game]] = {}
        for (_, a, b, _), m in played:
            pairings.setdefault((a, b), []).append(m.results)
        lines += rating_table(kind, pairings, [m for _, m in played], seed)
    for line in lines:
        print(line, flush=True)
    return lines


def rating_table(
    kind: str,
    pairings: dict[tuple[str, str], list[bt_fit.Game]],
    meetings: list[Meeting],
    seed: int,
) -> list[str]:
    """One kind's ratings, best first: Elo, 95 % interval, games, pairwise score, and
    CPU ms per move (median/max)."""
    every = [g for gs in pairings.values() for g in gs]
    elo = bt_fit.fit(every, ANCHOR)
    ci = bt_fit.bootstrap(pairings, ANCHOR, seed=seed)
    lines = [
        f"{kind}: {len(every)} games",
        f"  {'player':16} {'Elo':>6} {'95% CI':>13} {'games':>5} {'score':>7}"
        f"  {'ms/move med/max':>15}",
    ]
    for p in sorted(elo, key=lambda p: -elo[p]):
        n = sum(len(gs) for pair, gs in pairings.items() if p in pair)
        mine = [s if a == p else 1 - s for g in every for a, b, s in g if p in (a, b)]
        spent = [t for m in meetings for t in m.times.get(p, [])]
        lo, hi = ci[p]
        lines.append(
            f"  {p:16} {elo[p]:6.0f} {f'{lo:.0f}..{hi:.0f}':>13} {n:5d} "
            f"{sum(mine) / len(mine):7.0%}  "
            f"{statistics.median(spent) * 1000:7.1f}/{max(spent) * 1000:.0f}"
        )
    order = sorted(elo, key=lambda p: -elo[p])
    lines.append("  direct score, row against column (pairwise results):")
    lines.append("  " + " " * 16 + "".join(f"{p[:8]:>9}" for p in order))
    for p in order:
        row = []
        for q in order:
            got = [s if a == p else 1 - s for g in every for a, b, s in g if {a, b} == {p, q}]
            row.append(f"{sum(got) / len(got):8.0%} " if got and p != q else f"{'-':>8} ")
        lines.append((f"  {p:16}" + "".join(row)).rstrip())
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per pairing")
    parser.add_argument("--kinds", help="comma-separated kinds (default: all)")
    parser.add_argument("--quick", action="store_true", help="4 games per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--only", help="comma-separated levels: pairings involving one")
    parser.add_argument(
        "--fixed", action="store_true", help="hard's node budget only, no clock cap"
    )
    parser.add_argument(
        "--round-robin", action="store_true", help="every pair of players, Elo ratings"
    )
    parser.add_argument(
        "--hard-games", type=int, default=4, help="round robin: games per pairing with hard"
        " or perfect"
    )
    args = parser.parse_args()
    if args.round_robin:
        start = time.perf_counter()
        chosen = args.kinds.split(",") if args.kinds else list(engine.KINDS)
        jobs = max(1, min(args.jobs, os.cpu_count() or 1))
        round_robin(chosen, args.games, args.hard_games, args.seed, jobs, args.fixed)
        print(f"total {time.perf_counter() - start:.0f} s", flush=True)
        return
    kinds = set(args.kinds.split(",")) if args.kinds else None
    only = set(args.only.split(",")) if args.only else None
    games = 4 if args.quick else args.games
    start = time.perf_counter()
    jobs = max(1, min(args.jobs, os.cpu_count() or 1))
    run(games, kinds, args.seed, jobs, only, args.fixed)
    print(f"total {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
