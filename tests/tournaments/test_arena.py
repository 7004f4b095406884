"""The Arena's pairing and scoring (docs/tournaments.md#arena)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.arena import (
    RATING_PER_POINT,
    REMATCH_AFTER,
    ArenaGame,
    FreePlayer,
    pair,
    score,
    standings,
)

W, D, L = ArenaGame("win"), ArenaGame("draw"), ArenaGame("loss")
BERSERK_WIN = ArenaGame("win", berserk=True)


def test_scoring_win_draw_loss_and_streaks():
    assert score([]).points == 0
    assert score([W, D, L]).sheet == (2, 1, 0)
    # two wins in a row set a player on fire: the next games count double
    assert score([W, W, W, W]).sheet == (2, 2, 4, 4)
    assert score([W, W]).on_fire and not score([W, W, L]).on_fire
    # a draw on fire counts double and ends the streak; so does a loss
    assert score([W, W, D, W, W, W]).sheet == (2, 2, 2, 2, 2, 4)
    assert score([W, W, L, W]).sheet == (2, 2, 0, 2)
    # a berserk win earns one point more, not doubled; a berserk loss nothing
    assert score([BERSERK_WIN, W, BERSERK_WIN]).sheet == (3, 2, 5)
    assert score([ArenaGame("loss", berserk=True)]).sheet == (0,)
    assert score([W, W, W, D, W]).points == 12 and score([W, W, W, D, W]).wins == 4
    with pytest.raises(ValueError):
        score([ArenaGame("abandoned")])  # type: ignore[arg-type]


def test_live_standings():
    lines = standings({"ann": [W, W, W], "bob": [W, L, W, W, D], "cid": [D, D], "dee": []})
    assert [(s.rank, s.player, s.points) for s in lines] == [
        (1, "ann", 8), (1, "bob", 8), (3, "cid", 2), (4, "dee", 0)]  # 8 points and 3 wins each
    assert lines[0].on_fire and not lines[1].on_fire
    assert [(s.rank, s.player) for s in standings({"x": [W, L], "y": [L, W], "z": [D, D, D]})] == [
        (1, "z"), (2, "x"), (2, "y")]


def test_pairing_near_score_then_rating_avoiding_the_last_opponent():
    free = [
        FreePlayer("a", 10, 1500, last_opponent="b", free_since=0),
        FreePlayer("b", 10, 1500, last_opponent="a", free_since=1),
        FreePlayer("c", 9, 1700, free_since=2),
        FreePlayer("d", 2, 1500, free_since=3),
    ]
    # a (longest waiting) skips b, its last opponent, for c; b then takes d
    assert pair(free, now=5) == [("a", "c"), ("b", "d")]
    # two who just played each other wait, unless both have waited long enough
    two = free[:2]
    assert pair(two, now=5) == []
    assert pair(two, now=REMATCH_AFTER + 1) == [("a", "b")]


def test_who_moves_first_alternates():
    free = [FreePlayer("a", 0, 1500, free_since=0, moved_first_last=True),
            FreePlayer("b", 0, 1500, free_since=1, moved_first_last=False)]
    assert pair(free, now=2) == [("b", "a")]
    assert pair([FreePlayer("a", 0, 1500, free_since=0),
                 FreePlayer("b", 0, 1500, free_since=1)], now=2) == [("a", "b")]


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError):
        pair([FreePlayer("a", 0, 0), FreePlayer("a", 0, 0)], now=0)


players = st.lists(
    st.tuples(st.integers(0, 30), st.floats(800, 2500), st.integers(-1, 24),
              st.floats(0, 100), st.booleans()),
    max_size=24)


@settings(max_examples=100, deadline=None)
@given(rows=players, now=st.floats(0, 200))
def test_pairing_properties(rows, now):
    n = len(rows)
    free = [FreePlayer(i, s, r, last_opponent=(o if 0 <= o < n and o != i else None),
                       free_since=t, moved_first_last=m)
            for i, (s, r, o, t, m) in enumerate(rows)]
    by_id = {p.id: p for p in free}
    pairs = pair(free, now)
    paired = [p for two in pairs for p in two]
    # every player at most once, and only free players
    assert len(paired) == len(set(paired)) and set(paired) <= set(by_id)

    def blocked(p: FreePlayer, q: FreePlayer) -> bool:
        rematch = p.last_opponent == q.id or q.last_opponent == p.id
        waited = now - p.free_since >= REMATCH_AFTER and now - q.free_since >= REMATCH_AFTER
        return rematch and not waited

    # never a rematch before both have waited
    assert not any(blocked(by_id[a], by_id[b]) for a, b in pairs)
    # whoever is left waiting could only have played a blocked rematch
    waiting = [p for p in free if p.id not in set(paired)]
    for x in range(len(waiting)):
        for y in range(x + 1, len(waiting)):
            assert blocked(waiting[x], waiting[y])
    # the longest-waiting player got the nearest partner they were allowed
    if free:
        first = min(free, key=lambda p: (p.free_since, str(p.id)))
        allowed = [q for q in free if q.id != first.id and not blocked(first, q)]
        partner = next((b if a == first.id else a for a, b in pairs if first.id in (a, b)),
                       None)
        if allowed:

            def gap(q: FreePlayer) -> float:
                return abs(first.score - q.score) + abs(first.rating - q.rating) / RATING_PER_POINT

            assert partner is not None
            assert gap(by_id[partner]) == min(gap(q) for q in allowed)
    # the same input, the same pairs
    assert pair(list(reversed(free)), now) == pairs
