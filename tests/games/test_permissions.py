"""Who may do what: anonymous, non-player, wrong seat, finished game."""

from __future__ import annotations

import pytest

from games import services
from tests.conftest import client_for, make_user
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db

MOVE = {"type": "move", "to": [2, 5]}


@pytest.fixture
def game(players):
    return started_game(players)


def _post(client, url, body=None):
    return client.post(url, body or {}, format="json")


def test_anonymous_can_read_but_not_write(game, anon):
    gid = game.pk
    for path in ["", "events/", "replay/", "legal-actions/", "export/"]:
        assert anon.get(f"/api/games/{gid}/{path}").status_code == 200, path
    for path, body in [("join/", {}), ("actions/", {"action": MOVE, "ply": 0}), ("resign/", {}),
                       ("leave/", {})]:
        response = _post(anon, f"/api/games/{gid}/{path}", body)
        assert response.status_code == 401, path
        assert response.json()["code"] == "not_authenticated"
    assert _post(anon, "/api/games/", {"kind": "bloqueio"}).status_code == 401


def test_non_player_cannot_act_or_resign(game):
    eve = client_for(make_user("eve"))
    response = _post(eve, f"/api/games/{game.pk}/actions/", {"action": MOVE, "ply": 0})
    assert (response.status_code, response.json()["code"]) == (403, "not_a_player")
    response = _post(eve, f"/api/games/{game.pk}/resign/")
    assert (response.status_code, response.json()["code"]) == (403, "not_a_player")
    response = _post(eve, f"/api/games/{game.pk}/join/")
    assert (response.status_code, response.json()["code"]) == (409, "already_started")


def test_wrong_seat_is_not_your_turn(game, players):
    bob = client_for(players[1])
    response = _post(bob, f"/api/games/{game.pk}/actions/", {"action": MOVE, "ply": 0})
    assert (response.status_code, response.json()["code"]) == (403, "not_your_turn")


def test_stale_ply_is_refused(game, players):
    alice = client_for(players[0])
    assert _post(alice, f"/api/games/{game.pk}/actions/", {"action": MOVE, "ply": 0}).status_code \
        == 201
    retry = _post(alice, f"/api/games/{game.pk}/actions/", {"action": MOVE, "ply": 0})
    assert (retry.status_code, retry.json()["code"]) == (409, "stale_ply")


def test_finished_game_refuses_everything(game, players):
    for user in players[1:]:
        services.resign(game_id=game.pk, user=user)
    alice = client_for(players[0])
    game.refresh_from_db()
    assert game.status == "finished"
    for path, body in [("actions/", {"action": MOVE, "ply": game.ply}), ("resign/", {})]:
        response = _post(alice, f"/api/games/{game.pk}/{path}", body)
        assert (response.status_code, response.json()["code"]) == (409, "game_over"), path
    response = _post(client_for(players[1]), f"/api/games/{game.pk}/join/")
    assert (response.status_code, response.json()["code"]) == (409, "game_over")


def test_waiting_game_refuses_actions_and_double_join(alice, bob):
    gid = services.create_game(user=alice, kind="quoridor4").pk
    a = client_for(alice)
    response = _post(a, f"/api/games/{gid}/actions/", {"action": MOVE, "ply": 0})
    assert (response.status_code, response.json()["code"]) == (409, "not_started")
    response = _post(a, f"/api/games/{gid}/join/")
    assert (response.status_code, response.json()["code"]) == (409, "already_seated")


def test_full_game_and_resigned_seat(players):
    game = started_game(players[:2], kind="quoridor")
    response = _post(client_for(players[2]), f"/api/games/{game.pk}/join/")
    assert response.json()["code"] == "already_started"
    g4 = started_game(players)
    services.resign(game_id=g4.pk, user=players[3])
    again = _post(client_for(players[3]), f"/api/games/{g4.pk}/resign/")
    assert (again.status_code, again.json()["code"]) == (409, "already_left")


def test_unknown_game_is_404(alice):
    response = client_for(alice).get("/api/games/999999/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    response = _post(client_for(alice), "/api/games/999999/actions/", {"action": MOVE, "ply": 0})
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
