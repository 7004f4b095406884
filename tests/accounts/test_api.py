"""Account API: register, tokens, throttled logins, me, profiles."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games import services
from tests.conftest import PASSWORD, client_for
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


def test_register_returns_a_working_token(anon):
    response = anon.post("/api/auth/register/",
                         {"username": "Zoe", "password": PASSWORD, "email": "z@example.org"},
                         format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["username"] == "Zoe" and body["token"]
    me = APIClient()
    me.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert me.get("/api/me/").json()["username"] == "Zoe"


def test_usernames_are_unique_regardless_of_case(anon, alice):
    response = anon.post("/api/auth/register/", {"username": "ALICE", "password": PASSWORD},
                         format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "username" in response.json()["errors"]


@pytest.mark.parametrize(("body", "field"), [
    ({"username": "zed", "password": "123"}, "password"),
    ({"username": "zed", "password": "password"}, "password"),
    ({"username": "bad name!", "password": PASSWORD}, "username"),
    ({"username": "x" * 151, "password": PASSWORD}, "username"),
    ({"password": PASSWORD}, "username"),
    ({"username": "zed", "password": PASSWORD, "email": "not-an-email"}, "email"),
    ({"username": ["zed"], "password": PASSWORD}, "username"),
])
def test_register_field_errors(anon, body, field):
    response = anon.post("/api/auth/register/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_token_for_good_and_bad_credentials(anon, alice):
    good = anon.post("/api/auth/token/", {"username": "alice", "password": PASSWORD},
                     format="json")
    assert good.status_code == 200
    assert good.json()["token"] == alice.auth_token.key
    bad = anon.post("/api/auth/token/", {"username": "alice", "password": "nope"}, format="json")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid_credentials")


def test_login_attempts_are_throttled(anon, alice, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        anon.post("/api/auth/token/", {"username": "alice", "password": "wrong"}, format="json")
    locked = anon.post("/api/auth/token/", {"username": "alice", "password": PASSWORD},
                       format="json")
    assert locked.status_code == 429
    assert locked.json()["code"] == "locked_out"
    assert "Try again" in locked.json()["detail"]


def test_me_requires_authentication(anon, alice):
    assert anon.get("/api/me/").status_code == 401
    me = client_for(alice).get("/api/me/").json()
    assert me["username"] == "alice"
    assert me["ratings"] == []


def test_wrong_token_is_refused(anon):
    anon.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = anon.get("/api/me/")
    assert (response.status_code, response.json()["code"]) == (401, "authentication_failed")


def test_profile_shows_games_played_and_wins(players, anon):
    game = started_game(players[:2], kind="quoridor")
    services.resign(game_id=game.pk, user=players[1])
    services.create_game(user=players[0], kind="bloqueio")
    profile = anon.get("/api/users/ALICE/").json()
    assert profile["username"] == "alice"
    assert (profile["games_played"], profile["wins"]) == (1, 1)
    assert [g["kind"] for g in profile["recent_games"]] == ["bloqueio", "quoridor"]
    bob = anon.get("/api/users/bob/").json()
    assert (bob["games_played"], bob["wins"]) == (1, 0)
    assert anon.get("/api/users/nobody/").json()["code"] == "not_found"
