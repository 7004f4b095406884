"""Leaderboards: established, active players only, best first, competition ranks, pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Rating
from games.ranked import leaderboard
from tests.conftest import client_for, make_user
from tests.games.helpers import started_game
from tests.games.ranked_helpers import finish_by_resignations

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def uncached_leaderboard(settings):
    # Rows are created straight in the database here; the histogram must see them.
    settings.LEADERBOARD_CACHE_SECONDS = 0


def _rated(name, rating, *, games=20, provisional=False, days_ago=1, kind="bloqueio"):
    user = make_user(name)
    Rating.objects.create(user=user, kind=kind, mu=25, sigma=2, games=games, rating=rating,
                          provisional=provisional,
                          last_played_at=timezone.now() - timedelta(days=days_ago))
    return user


def _board(page=1, kind="bloqueio"):
    response = client_for(None).get(f"/api/leaderboard/{kind}/?page={page}")
    assert response.status_code == 200
    return response.json()


def test_best_first_with_competition_ranks_for_ties():
    _rated("low", 1400)
    _rated("top", 1700)
    _rated("tie_b", 1600)
    _rated("tie_a", 1600)
    rows = _board()["results"]
    assert [(r["rank"], r["username"], r["rating"]) for r in rows] == [
        (1, "top", 1700), (2, "tie_b", 1600), (2, "tie_a", 1600), (4, "low", 1400)]
    assert rows[0]["games"] == 20


def test_provisional_inactive_and_other_kinds_are_hidden():
    _rated("shown", 1500)
    _rated("newbie", 1900, games=3, provisional=True)
    _rated("gone", 1800, days_ago=leaderboard.ACTIVE_DAYS + 1)
    _rated("other", 1700, kind="quoridor")
    banned = _rated("banned", 1600)
    banned.is_active = False
    banned.save()
    assert [r["username"] for r in _board()["results"]] == ["shown"]


def test_pages_continue_the_ranking_across_page_breaks():
    for i in range(25):
        _rated(f"p{i:02d}", 2000 - 10 * ((i + 1) // 2))  # 1 alone, then pairs
    first, second = _board(1), _board(2)
    assert first["count"] == 25 and first["next"] and second["previous"]
    assert len(first["results"]) == 20 and len(second["results"]) == 5
    ranks = [r["rank"] for r in first["results"] + second["results"]]
    assert ranks == [max(1, 2 * ((i + 1) // 2)) for i in range(25)]
    # the 20th and 21st tie across the page break: page 2 starts with the shared rank
    assert second["results"][0]["rank"] == first["results"][-1]["rank"] == 20


def test_unknown_kind_is_not_found():
    assert client_for(None).get("/api/leaderboard/chess/").status_code == 404
    assert client_for(None).get("/api/leaderboard/bloqueio/?page=0").status_code == 400
    assert client_for(None).get("/api/leaderboard/bloqueio/?page=9").status_code == 404
    assert client_for(None).get("/api/users/nobody/rating-history/bloqueio/").status_code == 404


def test_rating_history_is_oldest_first(players):
    from tests.games.helpers import started_game
    from tests.games.ranked_helpers import finish_by_resignations

    games = [finish_by_resignations(started_game(players, ranked=True), players, [3, 1, 2])
             for _ in range(2)]
    history = client_for(None).get("/api/users/ALICE/rating-history/bloqueio/").json()
    assert [h["game"] for h in history] == [g.pk for g in games]
    assert history[-1]["rating"] == Rating.objects.get(user=players[0], kind="bloqueio").rating
    assert client_for(None).get("/api/users/alice/rating-history/quoridor/").json() == []


def test_provisional_players_are_listed_apart_and_unranked(players):
    game = started_game(players, ranked=True)
    finish_by_resignations(game, players, [3, 1, 2])
    api = client_for(None)
    board = api.get("/api/leaderboard/bloqueio/").json()
    assert board["results"] == []  # everyone has one rated game: provisional
    listed = api.get("/api/leaderboard/bloqueio/provisional/").json()
    assert sorted(r["username"] for r in listed) == sorted(u.username for u in players)
    assert [r["rating"] for r in listed] == sorted((r["rating"] for r in listed), reverse=True)
    assert all(r["games"] == 1 for r in listed)
    assert api.get("/api/leaderboard/chess/provisional/").status_code == 404
