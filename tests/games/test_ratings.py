"""Ranked results move ratings the right way, in the finishing transaction; annul reverts."""

from __future__ import annotations

import pytest

from games import services
from games.errors import NotRanked
from games.models import Game, Rating, RatingChange
from games.ranked import rating_model, ratings
from tests.conftest import client_for
from tests.games.helpers import started_game
from tests.games.ranked_helpers import finish_by_resignations, play_opening

pytestmark = pytest.mark.django_db


def _mu(user, kind="bloqueio"):
    return Rating.objects.get(user=user, kind=kind).mu


def test_finishing_a_ranked_game_rates_every_seat_by_the_final_ranking(players):
    game = started_game(players, ranked=True)
    game = finish_by_resignations(game, players, [3, 1, 2])  # seat 0 last standing
    assert game.result["ranking"] == [1, 3, 2, 4]
    mus = [_mu(u) for u in players]
    assert mus[0] > mus[2] > mus[1] > mus[3]
    assert mus[0] > rating_model.MU > mus[3]
    changes = RatingChange.objects.filter(game=game).order_by("seat")
    assert [c.rank for c in changes] == [1, 3, 2, 4]
    assert all(c.rating_after == Rating.objects.get(user=c.user, kind="bloqueio").rating
               for c in changes)


def test_casual_games_are_not_rated(players):
    game = started_game(players)
    finish_by_resignations(game, players, [3, 1, 2])
    assert not Rating.objects.exists()


@pytest.mark.parametrize("ranking", [
    [1, 2, 3, 4],   # a goal, then by distance
    [1, 2, 2, 4],   # equal distance shares a rank
    [1, 2, 2, 2],   # everyone left in the game ties behind the winner
    [2, 1, 4, 3],   # leavers rank last, the latest leaver highest
    [1, 1, 1, 1],   # a drawn stalemate at equal distances
])
def test_rating_moves_follow_every_ranking_shape(players, ranking):
    game = play_opening(started_game(players, ranked=True), players)
    seats = list(game.seats.all())
    ratings.apply_result(game=game, seats=seats, ranking=ranking, now=game.started_at)
    deltas = [_mu(u) - rating_model.MU for u in players]
    for a in range(4):
        for b in range(4):
            if ranking[a] < ranking[b]:
                assert deltas[a] > deltas[b]
            elif ranking[a] == ranking[b]:
                assert deltas[a] == pytest.approx(deltas[b])
    if ranking == [1, 1, 1, 1]:
        assert all(d == pytest.approx(0, abs=1e-9) for d in deltas)


def test_ratings_show_in_game_json_me_and_profile(players):
    game = finish_by_resignations(started_game(players, ranked=True), players, [3, 1, 2])
    body = client_for(players[0]).get(f"/api/games/{game.pk}/").json()
    shown = [s["rating"] for s in body["seats"]]
    assert shown == [Rating.objects.get(user=u, kind="bloqueio").rating for u in players]
    me = client_for(players[0]).get("/api/me/").json()
    assert me["ratings"] == [{"kind": "bloqueio", "rating": shown[0], "games": 1,
                              "provisional": True}]
    profile = client_for(None).get("/api/users/alice/").json()
    assert profile["ratings"] == me["ratings"]


def test_provisional_until_ten_games_and_a_small_sigma(players, monkeypatch):
    monkeypatch.setenv("RANKED_PAIR_GAMES", "100")  # the same four, ten times in a day
    for _ in range(rating_model.PROVISIONAL_GAMES):
        finish_by_resignations(started_game(players, ranked=True), players, [3, 1, 2])
    row = Rating.objects.get(user=players[0], kind="bloqueio")
    assert row.games == rating_model.PROVISIONAL_GAMES
    assert row.provisional == (row.sigma > rating_model.PROVISIONAL_SIGMA)


def test_annul_restores_the_ratings_before_the_game(players):
    game = finish_by_resignations(started_game(players, ranked=True), players, [3, 1, 2])
    services.annul_game(game_id=game.pk)
    for user in players:
        row = Rating.objects.get(user=user, kind="bloqueio")
        assert (row.mu, row.sigma, row.games) == (rating_model.MU, rating_model.SIGMA, 0)
    assert not RatingChange.objects.filter(game=game).exists()
    assert Game.objects.get(pk=game.pk).annulled_at is not None
    with pytest.raises(NotRanked):
        services.annul_game(game_id=game.pk)


def test_annul_recomputes_later_games_as_if_it_never_happened(players):
    first = finish_by_resignations(started_game(players, ranked=True), players, [3, 1, 2])
    second = finish_by_resignations(started_game(players, ranked=True), players, [0, 2, 1])
    services.annul_game(game_id=first.pk)
    expected = rating_model.rate([rating_model.Skill()] * 4, second.result["ranking"])
    for user, skill in zip(players, expected, strict=True):
        row = Rating.objects.get(user=user, kind="bloqueio")
        assert row.mu == pytest.approx(skill.mu)
        assert row.sigma == pytest.approx(skill.sigma)
        assert row.games == 1
    history = client_for(None).get("/api/users/alice/rating-history/bloqueio/").json()
    assert [h["game"] for h in history] == [second.pk]
    assert history[0]["rating"] == Rating.objects.get(user=players[0], kind="bloqueio").rating


def test_annulling_a_casual_game_is_refused(players):
    game = finish_by_resignations(started_game(players), players, [3, 1, 2])
    with pytest.raises(NotRanked):
        services.annul_game(game_id=game.pk)


def test_the_result_shows_each_seats_rating_change_until_annulled(players):
    game = started_game(players, ranked=True)
    game = finish_by_resignations(game, players, [3, 1, 2])
    changes = {c.seat: c.rating_after - c.rating_before
               for c in RatingChange.objects.filter(game=game)}
    assert game.result["rating_changes"] == [changes[s] for s in range(4)]
    assert game.result["rating_changes"][0] > 0 > game.result["rating_changes"][3]
    body = client_for(None).get(f"/api/games/{game.pk}/").json()
    assert body["result"]["rating_changes"] == game.result["rating_changes"]
    from games import projection

    assert projection.check(game) is None  # derivable from the events and ratings
    services.annul_game(game_id=game.pk)
    game.refresh_from_db()
    assert "rating_changes" not in game.result
    assert projection.check(game) is None
