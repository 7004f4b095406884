"""The Swiss seating's promises (docs/tournaments.md#seating), as properties over random
fields of 8 to 200 players, 3 to 9 rounds, random results each round."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import registry
from tests.tournaments.helpers import (
    Played,
    fewest_off_seats,
    met_before,
    pairs,
    play,
    repeat_free_exists,
)
from tournaments.seating import Entrant, Round, Table, leftover, seat_round, table_size

# The table sizes of the registered kinds (2 and 4 today).
SIZES = sorted({table_size(kind) for kind in registry.kinds()})


def meeting_bound(played: Played) -> int:
    """No pair shares a table more often than this (docs/tournaments.md#seating): one
    more than the fewest the busiest pair could have, ceil(R(k - 1)/(n - 1))."""
    n, rounds = len(played.players), len(played.rounds)
    return math.ceil(rounds * (played.seats - 1) / (n - 1)) + 1


def least_seats(counts: list[int]) -> frozenset[int]:
    """The seats a player has used least: any of them keeps the counts balanced."""
    return frozenset(s for s, c in enumerate(counts) if c == min(counts))


def hall_shortfall(counts: dict[int, list[int]], seated: list[int], tables: int) -> int:
    """How many of ``seated`` must take a seat not among their least used, whatever the
    tables: Hall's deficiency, the most by which the players whose least-used seats all
    lie in a set S outnumber the tables' seats in S."""
    k = len(next(iter(counts.values())))
    wants = [least_seats(counts[p]) for p in seated]
    worst = 0
    for size in range(1, k):
        for chosen in itertools.combinations(range(k), size):
            inside = sum(1 for w in wants if w <= set(chosen))
            worst = max(worst, inside - tables * size)
    return worst


def check(played: Played) -> None:
    """Every promise of the seating, round by round."""
    k, everyone = played.seats, played.players
    rule = leftover(len(everyone), k)
    byes: Counter[int] = Counter()
    seat_counts = {p: [0] * k for p in everyone}
    roomy = True  # every round so far had room for a repeat-free seating (the bound)
    for number, seating in enumerate(played.rounds):
        # everyone seated or given a bye, once; the leftover rule's tables and byes
        assert sorted(seating.players()) == everyone
        assert len(seating.tables) == rule.tables and len(seating.byes) == rule.byes
        assert all(len(t.seats) == k for t in seating.tables)
        bots = [t.seats.count(None) for t in seating.tables if t.has_bot]
        assert bots == ([rule.bot_seats] if rule.bot_seats else [])
        # byes spread: nobody a second bye while another has none
        byes.update(seating.byes)
        assert max(byes[p] for p in everyone) - min(byes[p] for p in everyone) <= 1
        # no repeat table-mates while the field allows it
        met = met_before(played, number)
        repeats = [pair for pair in pairs(seating) if met[pair]]
        seated = [p for t in seating.tables for p in t.players]
        busiest = max(sum(1 for q in seated if met[frozenset((p, q))]) for p in seated)
        if busiest + 1 <= len(seating.tables):
            # Hajnal-Szemeredi: a repeat-free seating exists
            assert repeats == [], (number, busiest, repeats)
        else:
            roomy = False
        # small enough to know by brute force whether a repeat-free seating exists
        small = len(seating.tables) * k <= 12
        people: list[object] = [*seated, *(object() for _ in range(sum(bots)))]
        if small and not roomy and repeat_free_exists(people, k, set(+met)):
            assert repeats == [], (number, repeats)
        # seats (turn order) spread: each player takes a seat they have used least, so
        # that their counts differ by at most one; but for those Hall's shortfall forces
        # off while the field has room (a brute force finds the fewest repeat-free in
        # small fields); counts differ by at most two when repeats press on the seating
        before = {p: list(c) for p, c in seat_counts.items()}
        off = []
        for table in seating.tables:
            for s, p in enumerate(table.seats):
                if p is not None:
                    off += [p] if s not in least_seats(before[p]) else []
                    seat_counts[p][s] += 1
        if small and repeats == []:
            assert len(off) == fewest_off_seats(people, k, met, before), (number, off)
        elif roomy:
            assert len(off) <= hall_shortfall(before, seated, len(seating.tables)), (number, off)
        for p, counts in seat_counts.items():
            assert max(counts) - min(counts) <= 2, (number, p, counts)
    # when repeats cannot be avoided, they are spread
    total = met_before(played, len(played.rounds))
    assert max(total.values()) <= meeting_bound(played)


# Random fields up to 64 players keep the suite quick; the fixed fields below reach 200
# (docs/tournaments.md#tests: the same check has run over many more fields by hand).
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(8, 64), rounds=st.integers(3, 9), seats=st.sampled_from(SIZES),
       seed=st.integers(0, 10**6))
def test_random_fields_keep_every_promise(n: int, rounds: int, seats: int, seed: int):
    check(play(n, rounds, seats, seed))


LARGE = [(200, 9, 4), (101, 9, 2), (63, 6, 4)]


@pytest.mark.parametrize(("n", "rounds", "seats"), [
    *LARGE, (50, 9, 4), (16, 5, 4), (10, 3, 4), (11, 7, 4), (8, 9, 4), (9, 9, 2),
])
def test_fixed_fields_keep_every_promise(n: int, rounds: int, seats: int):
    check(play(n, rounds, seats, seed=7))


@pytest.mark.parametrize(("n", "rounds", "seats"), LARGE)
def test_large_fields_meet_nobody_twice(n: int, rounds: int, seats: int):
    """Where the field is large for its rounds, nobody meets anyone twice at all."""
    played = play(n, rounds, seats, seed=7)
    assert max(met_before(played, rounds).values()) == 1


def test_the_leftover_rule():
    # four seats: three left over sit with a bot; one or two get byes; duels: one bye
    assert leftover(11, 4) == leftover(11, 4, max_bots=1)
    assert (leftover(11, 4).tables, leftover(11, 4).bot_seats, leftover(11, 4).byes) == (3, 1, 0)
    assert (leftover(10, 4).tables, leftover(10, 4).bot_seats, leftover(10, 4).byes) == (2, 0, 2)
    assert (leftover(9, 4).tables, leftover(9, 4).bot_seats, leftover(9, 4).byes) == (2, 0, 1)
    assert (leftover(12, 4).tables, leftover(12, 4).bot_seats, leftover(12, 4).byes) == (3, 0, 0)
    assert (leftover(11, 2).tables, leftover(11, 2).bot_seats, leftover(11, 2).byes) == (5, 0, 1)
    # no bots: byes only; two bots allowed: two left over sit with two bots
    assert leftover(11, 4, max_bots=0).byes == 3
    assert leftover(10, 4, max_bots=2).bot_seats == 2
    with pytest.raises(ValueError):
        leftover(3, 4)


def test_table_size_is_the_kinds_seat_count():
    for kind in registry.kinds():
        assert table_size(kind) == registry.get(kind).info.seats


def test_round_one_folds_the_field_by_rating():
    """Round one: the top quarter by rating against the next quarters (table i holds
    the i-th of each quarter), as the Dutch system's top half against bottom half."""
    entrants = [Entrant(p, 0.0, 2000 - p) for p in range(16)]
    seating = seat_round(entrants, [], 4, seed=3)
    assert sorted(sorted(t.players) for t in seating.tables) == [
        [i, i + 4, i + 8, i + 12] for i in range(4)]


def test_round_two_seats_the_leaders_together():
    """Score groups: the four winners of round one (who never met, and moved in four
    different turns) share table one."""
    first = seat_round([Entrant(p, 0.0, 2000 - p) for p in range(16)], [], 4, seed=1)
    winners = {t.seats[s] for s, t in enumerate(first.tables)}
    entrants = [Entrant(p, 3.0 if p in winners else 0.0, 2000 - p) for p in range(16)]
    second = seat_round(entrants, [first], 4, seed=1)
    assert set(second.tables[0].players) == winners
    # and each of them takes a seat they did not have in round one
    for s, p in enumerate(second.tables[0].seats):
        assert first.tables[[p in t.players for t in first.tables].index(True)].seats[s] != p


def test_byes_go_to_the_lowest_score_without_a_bye():
    entrants = [Entrant(p, float(p), 1500) for p in range(10)]
    seating = seat_round(entrants, [], 4, seed=0)
    assert sorted(seating.byes) == [0, 1]
    again = seat_round(entrants, [seating], 4, seed=0)
    assert sorted(again.byes) == [2, 3]


def test_the_same_inputs_and_seed_give_the_same_round():
    played = play(40, 4, 4, seed=5)
    entrants = [Entrant(p, float(p % 7), 1500 + p) for p in range(40)]
    assert (seat_round(entrants, played.rounds, 4, seed=9)
            == seat_round(entrants, played.rounds, 4, seed=9))


def test_withdrawn_players_are_not_seated_and_their_meetings_still_count():
    history = [Round(tuple(Table(tuple(range(t, t + 4))) for t in range(0, 16, 4)))]
    entrants = [Entrant(p) for p in range(16) if p != 15]
    seating = seat_round(entrants, history, 4, seed=0)
    assert 15 not in set(seating.players()) and seating.tables[-1].has_bot
    assert all(not met_before(Played(4, [], history), 1)[pair] for pair in pairs(seating))


def test_bad_fields_are_refused():
    with pytest.raises(ValueError):
        seat_round([Entrant(1), Entrant(1), Entrant(2), Entrant(3)], [], 2)
    with pytest.raises(ValueError):
        seat_round([Entrant(1), Entrant(2), Entrant(3)], [], 4, max_bots=0)
