"""Rated play that cannot be farmed (issue #25; games/ranked/fair_play.py).

The reported farm: a ranked game against a throw-away account, one move each, the
throw-away resigns; 1500 -> 1900 in 18 games. Too-short games are not rated, a pair of
accounts is rated against each other at most RANKED_PAIR_GAMES times a day, and fresh
accounts do not move established ratings until they have played RANKED_NEWCOMER_GAMES.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import projection, services
from games.errors import NotRanked
from games.models import Game, Rating, RatingChange
from games.ranked import fair_play, rating_model
from tests.conftest import client_for, make_user
from tests.games.helpers import play, started_game
from tests.games.ranked_helpers import finish_by_resignations, play_opening

pytestmark = pytest.mark.django_db

ONE_MOVE_EACH = [{"type": "move", "to": [2, 5]}, {"type": "move", "to": [8, 5]}]


def _duel(a, b) -> Game:
    return started_game([a, b], kind="bloqueio2", ranked=True)


def _established(user, games: int = 10, mu: float = 25.0) -> Rating:
    return Rating.objects.create(user=user, kind="bloqueio2", mu=mu, sigma=3.0, games=games,
                                 rating=rating_model.display(mu, 3.0), provisional=False)


def test_the_reported_farm_one_move_each_then_resign_is_never_rated(alice):
    for i in range(18):
        throwaway = make_user(f"throwaway{i}")
        game = play(_duel(alice, throwaway), [alice, throwaway], ONE_MOVE_EACH)
        services.resign(game_id=game.pk, user=throwaway)
        game.refresh_from_db()
        assert game.status == "finished" and game.result["winner"] == 0  # the result stays
        assert game.result["rated"] is False
        assert game.result["unrated"] == ["too_short", "too_short"]
        assert "rating_changes" not in game.result
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()  # nobody has a rating yet: seats show none
    body = client_for(None).get(f"/api/games/{game.pk}/").json()
    assert [s["rating"] for s in body["seats"]] == [None, None]


def test_two_actions_each_make_a_game_long_enough_to_rate(alice, bob):
    game = finish_by_resignations(_duel(alice, bob), [alice, bob], [1])
    assert game.result["rated"] is True
    assert game.result["unrated"] == [None, None]
    assert game.result["rating_changes"][0] > 0 > game.result["rating_changes"][1]
    body = client_for(None).get(f"/api/games/{game.pk}/").json()
    assert body["result"]["rated"] is True and body["result"]["unrated"] == [None, None]


def test_the_api_shows_why_a_game_was_not_rated(alice, bob):
    game = finish_by_resignations(_duel(alice, bob), [alice, bob], [1], opening=False)
    body = client_for(None).get(f"/api/games/{game.pk}/").json()
    assert body["ranked"] is True
    assert body["result"]["rated"] is False
    assert body["result"]["unrated"] == ["too_short", "too_short"]


def test_a_seat_that_leaves_early_is_left_out_and_the_rest_are_rated(players):
    game = started_game(players, ranked=True)
    services.resign(game_id=game.pk, user=players[0])  # before its first move
    game.refresh_from_db()
    # The three others play two rounds, then two of them resign.
    play_opening(game, players)
    finish_by_resignations(game, players, [3, 1], opening=False)
    game.refresh_from_db()
    assert game.result["unrated"] == ["too_short", None, None, None]
    assert game.result["rating_changes"][0] is None
    changed = set(RatingChange.objects.filter(game=game).values_list("seat", flat=True))
    assert changed == {1, 2, 3}
    assert not Rating.objects.filter(user=players[0], games__gt=0).exists()


def test_a_pair_is_rated_at_most_k_times_a_day(alice, bob, monkeypatch):
    monkeypatch.setenv("RANKED_PAIR_GAMES", "2")
    results = [finish_by_resignations(_duel(alice, bob), [alice, bob], [1]).result
               for _ in range(3)]
    assert [r["rated"] for r in results] == [True, True, False]
    assert results[2]["unrated"] == ["repeated_pairing", "repeated_pairing"]
    assert Rating.objects.get(user=alice, kind="bloqueio2").games == 2
    # A day later the window has moved on.
    RatingChange.objects.update(at=RatingChange.objects.first().at - timedelta(hours=25))
    assert finish_by_resignations(_duel(alice, bob), [alice, bob], [1]).result["rated"]


def test_other_opponents_are_not_limited_by_a_capped_pair(alice, bob, carol, monkeypatch):
    monkeypatch.setenv("RANKED_PAIR_GAMES", "1")
    assert finish_by_resignations(_duel(alice, bob), [alice, bob], [1]).result["rated"]
    assert not finish_by_resignations(_duel(alice, bob), [alice, bob], [1]).result["rated"]
    assert finish_by_resignations(_duel(alice, carol), [alice, carol], [1]).result["rated"]


def test_a_newcomer_is_rated_but_does_not_move_an_established_player(alice, bob):
    before = _established(alice)
    game = finish_by_resignations(_duel(alice, bob), [alice, bob], [0])  # bob wins
    assert game.result["rated"] is True
    assert game.result["unrated"] == ["newcomer_opponents", None]
    assert game.result["rating_changes"][0] is None and game.result["rating_changes"][1] > 0
    after = Rating.objects.get(user=alice, kind="bloqueio2")
    assert (after.mu, after.sigma, after.games) == (before.mu, before.sigma, before.games)
    assert list(RatingChange.objects.filter(game=game).values_list("user", flat=True)) == [
        bob.pk]


def test_established_players_are_rated_among_themselves_beside_newcomers(players):
    established = players[:2]
    for user in established:
        Rating.objects.create(user=user, kind="bloqueio", mu=25.0, sigma=3.0, games=12,
                              rating=rating_model.display(25.0, 3.0), provisional=False)
    game = finish_by_resignations(started_game(players, ranked=True), players, [0, 2, 1])
    assert game.result["ranking"] == [4, 2, 3, 1]
    assert game.result["unrated"] == [None] * 4
    expected = rating_model.rate([rating_model.Skill(25.0, 3.0)] * 2, [4, 2])
    for user, skill in zip(established, expected, strict=True):
        row = Rating.objects.get(user=user, kind="bloqueio")
        assert (row.mu, row.sigma) == pytest.approx((skill.mu, skill.sigma))


def test_throwaways_stop_feeding_a_player_once_it_is_established(alice):
    """The farm with two real moves each: fresh accounts count for alice only while she
    is a newcomer herself; from her tenth rated game on they move only themselves."""
    for i in range(fair_play.newcomer_games() + 5):
        throwaway = make_user(f"throwaway{i}")
        finish_by_resignations(_duel(alice, throwaway), [alice, throwaway], [1])
    row = Rating.objects.get(user=alice, kind="bloqueio2")
    assert row.games == fair_play.newcomer_games()
    last = Game.objects.filter(ranked=True).order_by("-pk").first()
    assert last.result["unrated"] == ["newcomer_opponents", None]


def test_an_unrated_game_cannot_be_annulled_and_an_annulled_one_says_so(alice, bob):
    short = finish_by_resignations(_duel(alice, bob), [alice, bob], [1], opening=False)
    with pytest.raises(NotRanked):
        services.annul_game(game_id=short.pk)
    game = finish_by_resignations(_duel(alice, bob), [alice, bob], [1])
    annulled = services.annul_game(game_id=game.pk)
    assert annulled.result["rated"] is False
    assert annulled.result["unrated"] == ["annulled", "annulled"]


def test_a_rebuild_keeps_the_verdict_recorded_at_the_finish(alice, bob, carol):
    games = [finish_by_resignations(_duel(alice, bob), [alice, bob], [1], opening=False),
             finish_by_resignations(_duel(alice, carol), [alice, carol], [1])]
    _established(bob)  # history moves on: the verdict is not decided again
    for game in games:
        assert projection.check(Game.objects.get(pk=game.pk)) is None
