"""The round-robin ladder's Bradley-Terry fit (bench/bt_fit.py) on synthetic games from
known strengths: it must recover their order and gaps, hold the anchor, and stay finite
for a player that never lost. No bot plays here."""

from __future__ import annotations

import random

import pytest

from bench import bt_fit
from bench.bot_ladder import lineup

TRUE = {"uniform": 0.0, "easy": 150.0, "medium": 400.0, "hard": 700.0}


def _games(per_pairing: int, seed: int) -> dict[tuple[str, str], list[bt_fit.Game]]:
    """``per_pairing`` one-result games for every pair, won with Bradley-Terry odds."""
    rng = random.Random(seed)
    names = list(TRUE)
    out: dict[tuple[str, str], list[bt_fit.Game]] = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = bt_fit.expected(TRUE[a], TRUE[b])
            out[(a, b)] = [[(a, b, 1.0 if rng.random() < p else 0.0)] for _ in range(per_pairing)]
    return out


def test_the_fit_recovers_known_strengths_with_the_anchor_fixed() -> None:
    pairings = _games(300, seed=5)
    elo = bt_fit.fit([g for gs in pairings.values() for g in gs], "uniform")
    assert elo["uniform"] == 0.0
    assert sorted(elo, key=elo.get) == ["uniform", "easy", "medium", "hard"]
    for name, truth in TRUE.items():
        assert abs(elo[name] - truth) < 60, (name, elo[name], truth)


def test_the_anchor_may_sit_at_any_fixed_rating() -> None:
    games = [g for gs in _games(100, seed=2).values() for g in gs]
    zero = bt_fit.fit(games, "uniform")
    shifted = bt_fit.fit(games, "uniform", anchor_elo=-300.0)
    assert shifted["uniform"] == -300.0
    for name in TRUE:
        assert shifted[name] == pytest.approx(zero[name] - 300.0, abs=1e-6)


def test_the_bootstrap_interval_holds_the_fit_and_the_truth() -> None:
    pairings = _games(150, seed=9)
    elo = bt_fit.fit([g for gs in pairings.values() for g in gs], "uniform")
    ci = bt_fit.bootstrap(pairings, "uniform", rounds=60, seed=1)
    assert ci["uniform"] == (0.0, 0.0)
    for name in ("easy", "medium", "hard"):
        lo, hi = ci[name]
        assert lo <= elo[name] <= hi
        assert lo <= TRUE[name] + 60 and TRUE[name] - 60 <= hi
        assert hi - lo < 250


def test_draws_and_shared_ranks_count_half() -> None:
    games = [[("uniform", "easy", 0.5)]] * 20 + [[("easy", "hard", 0.5)]] * 20
    elo = bt_fit.fit(games, "uniform")
    assert elo["easy"] == pytest.approx(0.0, abs=1e-3)
    assert elo["hard"] == pytest.approx(0.0, abs=1e-3)


def test_a_player_that_never_lost_gets_a_finite_rating_above_the_rest() -> None:
    games = [[("hard", "uniform", 1.0)]] * 10 + [[("easy", "uniform", 0.5)]] * 10
    games += [[("easy", "hard", 0.0)]] * 10
    elo = bt_fit.fit(games, "uniform")
    assert elo["hard"] > elo["easy"] + 100
    assert elo["hard"] < 2000


def test_a_player_unconnected_to_the_anchor_is_refused() -> None:
    games = [[("uniform", "easy", 1.0)], [("medium", "hard", 0.0)]]
    with pytest.raises(ValueError, match="hard, medium"):
        bt_fit.fit(games, "uniform")


def test_seats_two_seats_alternate_and_a_thinking_level_sits_once_at_four() -> None:
    assert [lineup(2, "easy", "uniform", g) for g in range(2)] == [
        ("easy", "uniform"), ("uniform", "easy")]
    assert lineup(4, "easy", "racer", 1) == ("racer", "easy", "racer", "easy")
    for g in range(8):
        seated = lineup(4, "racer", "hard", g)
        assert seated.count("hard") == 1 and seated[g % 4] == "hard"
