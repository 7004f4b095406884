"""Play a Swiss to its end with random results, and measure what the seating promised."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from tournaments.seating import Entrant, Round, seat_round
from tournaments.standings import RoundResult, standings


@dataclass
class Played:
    """A played Swiss: the entrants, every round and every round's rankings."""

    seats: int
    players: list[int]
    rounds: list[Round] = field(default_factory=list)
    results: list[RoundResult] = field(default_factory=list)


def random_ranking(table_seats: int, rng: random.Random) -> tuple[int, ...]:
    """A finished game's competition ranks per seat, now and then with a tie."""
    keys = [rng.randrange(table_seats + 1) if rng.random() < 0.2 else rng.random() + 10
            for _ in range(table_seats)]
    return tuple(1 + sum(1 for other in keys if other < key) for key in keys)


@cache
def play(n: int, rounds: int, seats: int, seed: int) -> Played:
    """A Swiss of n players (ratings at random) over ``rounds`` rounds, results random,
    scores from the real standings (kept: tests read the same large fields twice)."""
    rng = random.Random(seed)
    rating = {p: rng.gauss(1500, 250) for p in range(n)}
    played = Played(seats, list(range(n)))
    for number in range(rounds):
        points = {s.player: float(s.points) for s in standings(played.results, seats, range(n))}
        entrants = [Entrant(p, points[p], rating[p]) for p in range(n)]
        seating = seat_round(entrants, played.rounds, seats, seed=seed * 100 + number)
        played.rounds.append(seating)
        rankings = tuple(random_ranking(seats, rng) for _ in seating.tables)
        played.results.append(RoundResult(seating, rankings))
    return played


def pairs(seating: Round) -> list[frozenset[int]]:
    """The pairs of players who share a table in a round (bot seats left out)."""
    return [frozenset(p) for t in seating.tables for p in itertools.combinations(t.players, 2)]


def met_before(played: Played, number: int) -> Counter[frozenset[int]]:
    """How often each pair shared a table before round ``number`` (0-based)."""
    met: Counter[frozenset[int]] = Counter()
    for seating in played.rounds[:number]:
        met.update(pairs(seating))
    return met


def repeat_free_exists(people: list[object], table: int, met: set[frozenset]) -> bool:
    """Whether ``people`` (bot seats as distinct ``object()``s) split into tables of
    ``table`` with no pair from ``met``: a brute force for small fields."""
    if not people:
        return True
    head, rest = people[0], people[1:]
    for others in itertools.combinations(rest, table - 1):
        group = (head, *others)
        if any(frozenset(p) in met for p in itertools.combinations(group, 2)):
            continue
        if repeat_free_exists([p for p in rest if p not in others], table, met):
            return True
    return False


def fewest_off_seats(people: list[object], table: int, met: Counter[frozenset],
                     counts: dict[int, list[int]]) -> int:
    """Over every repeat-free seating of ``people`` (bot seats as ``object()``s, which
    take any seat), the fewest players seated off their least-used seats."""
    known: dict[tuple[object, ...], int] = {}

    def off(group: tuple[object, ...]) -> int:
        if group not in known:
            known[group] = min(
                sum(1 for p, s in zip(group, order, strict=True)
                    if p in counts and counts[p][s] != min(counts[p]))
                for order in itertools.permutations(range(table)))
        return known[group]

    done: dict[tuple[object, ...], int] = {}

    def walk(left: tuple[object, ...]) -> int:
        if not left:
            return 0
        if left in done:
            return done[left]
        head, rest = left[0], left[1:]
        fewest = len(people) + 1
        for others in itertools.combinations(rest, table - 1):
            group = (head, *others)
            if any(met[frozenset(p)] for p in itertools.combinations(group, 2)):
                continue
            fewest = min(fewest, off(group) + walk(tuple(p for p in rest if p not in others)))
        done[left] = fewest
        return fewest

    return walk(tuple(people))
