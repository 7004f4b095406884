"""List and detail endpoints cost a constant number of queries."""

from __future__ import annotations

import pytest

from games import services
from tests.conftest import client_for, make_user
from tests.games.helpers import play, started_game

pytestmark = pytest.mark.django_db


def _many_games(players, count):
    for _ in range(count):
        play(started_game(players), players, [{"type": "move", "to": [2, 5]},
                                              {"type": "move", "to": [5, 8]}])


@pytest.mark.parametrize("count", [1, 15])
def test_game_list_is_constant(players, count, django_assert_max_num_queries):
    _many_games(players, count)
    for i in range(count):
        services.create_game(user=make_user(f"u{i}"), kind="quoridor")
    client = client_for(players[0])
    with django_assert_max_num_queries(5):
        response = client.get("/api/games/")
    assert response.status_code == 200
    assert len(response.json()["results"]) == min(20, 2 * count)


@pytest.mark.parametrize("moves", [2, 40])
def test_game_detail_and_events_are_constant(players, moves, django_assert_max_num_queries):
    game = started_game(players)
    script = [{"type": "move", "to": [2, 5]}, {"type": "move", "to": [5, 8]},
              {"type": "move", "to": [8, 5]}, {"type": "move", "to": [5, 2]},
              {"type": "move", "to": [1, 5]}, {"type": "move", "to": [5, 9]},
              {"type": "move", "to": [9, 5]}, {"type": "move", "to": [5, 1]}]
    play(game, players, [script[i % 8] for i in range(moves)])
    client = client_for(players[0])
    with django_assert_max_num_queries(3):
        assert client.get(f"/api/games/{game.pk}/").status_code == 200
    with django_assert_max_num_queries(3):
        assert len(client.get(f"/api/games/{game.pk}/events/").json()["events"]) == moves
