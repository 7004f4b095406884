"""Malformed and hostile request bodies: each a 400 with its code, nothing written."""

from __future__ import annotations

import json

import pytest

from games.models import Event
from tests.conftest import client_for
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(players):
    game = started_game(players)
    return game, client_for(players[0])


BODIES = [
    ({"ply": 0}, "invalid"),  # missing action
    ({"action": {"type": "move", "to": [2, 5]}}, "invalid"),  # missing ply
    ({"action": {"type": "move", "to": [2, 5]}, "ply": "0"}, "invalid"),  # ply as string
    ({"action": {"type": "move", "to": [2, 5]}, "ply": True}, "invalid"),  # bool as int
    ({"action": {"type": "move", "to": [2, 5]}, "ply": -1}, "invalid"),
    ({"action": [1, 2], "ply": 0}, "invalid"),  # action not an object
    ({"action": "move", "ply": 0}, "invalid"),
    ({"action": {"type": "teleport", "to": [2, 5]}, "ply": 0}, "illegal_action"),
    ({"action": {"type": "move"}, "ply": 0}, "illegal_action"),
    ({"action": {"type": "move", "to": [2, "5"]}, "ply": 0}, "illegal_action"),
    ({"action": {"type": "move", "to": [2, 5], "extra": 1}, "ply": 0}, "illegal_action"),
    ({"action": {"type": "move", "to": [99, 5]}, "ply": 0}, "illegal_action"),
    ({"action": {"type": "move", "to": [-1, 5]}, "ply": 0}, "illegal_action"),
    ({"action": {"type": "move", "to": [2**70, 5]}, "ply": 0}, "illegal_action"),
    ({"action": {"type": "barrier", "at": [3, 3], "orientation": "h"}, "ply": 0},
     "illegal_action"),
    ({"action": {"type": "barrier", "at": [9, 9], "orientation": "H"}, "ply": 0},
     "illegal_action"),
    ({"action": {"type": "move", "to": [5, 5]}, "ply": 0}, "illegal_action"),  # too far
    ({"action": {"type": "pass"}, "ply": 0}, "illegal_action"),
    ({"action": {"type": "resign"}, "ply": 0}, "illegal_action"),
    ({"action": {"type": "move", "to": [[[[[[[2]]]]]], 5]}, "ply": 0}, "illegal_action"),
]


@pytest.mark.parametrize(("body", "code"), BODIES, ids=[json.dumps(b)[:60] for b, _ in BODIES])
def test_bad_action_bodies(setup, body, code):
    game, client = setup
    response = client.post(f"/api/games/{game.pk}/actions/", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert not Event.objects.filter(game=game).exists()


@pytest.mark.parametrize("raw", [
    b"{not json", b"", b"[" * 30_000 + b"]" * 30_000, b'{"ply": NaN, "action": {}}',
    b"\xff\xfe", b'{"ply": Infinity}',
])
def test_unparseable_bodies(setup, raw):
    game, client = setup
    response = client.generic(
        "POST", f"/api/games/{game.pk}/actions/", raw, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert not Event.objects.filter(game=game).exists()


def test_giant_body_is_refused_before_parsing(setup):
    game, client = setup
    raw = b'{"action": {"type": "move", "to": [2, 5]}, "ply": 0' + b" " * 70_000 + b"}"
    response = client.generic(
        "POST", f"/api/games/{game.pk}/actions/", raw, content_type="application/json"
    )
    assert (response.status_code, response.json()["code"]) == (413, "too_large")
    assert not Event.objects.filter(game=game).exists()


def test_wrong_content_type(setup):
    game, client = setup
    response = client.generic("POST", f"/api/games/{game.pk}/actions/", b"ply=0",
                              content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"


@pytest.mark.parametrize(("body", "field"), [
    ({"kind": "chess"}, "kind"),
    ({"kind": "bloqueio", "ranked": "yes"}, "ranked"),
    ({"kind": "bloqueio", "time_control": {"initial": 5, "increment": 0}}, "time_control"),
    ({"kind": "bloqueio", "time_control": {"initial": 60}}, "time_control"),
    ({"kind": ["bloqueio"]}, "kind"),
    ({}, "kind"),
])
def test_bad_create_bodies(alice, body, field):
    response = client_for(alice).post("/api/games/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert field in response.json()["errors"]


@pytest.mark.parametrize("query", ["after=-1", "after=x", "after=1e9999"])
def test_bad_events_query(setup, query):
    game, client = setup
    response = client.get(f"/api/games/{game.pk}/events/?{query}")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


@pytest.mark.parametrize("query", ["ply=-1", "ply=abc", "ply=5"])
def test_bad_replay_query(setup, query):
    game, client = setup
    response = client.get(f"/api/games/{game.pk}/replay/?{query}")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_bad_join_seat(alice, bob):
    gid = client_for(alice).post("/api/games/", {"kind": "quoridor"}, format="json").json()["id"]
    for seat, status in [(7, 400), ("1", 400), (True, 400), (-1, 400), (3, 400)]:
        response = client_for(bob).post(f"/api/games/{gid}/join/", {"seat": seat}, format="json")
        assert response.status_code == status, seat
        assert response.json()["code"] == "invalid"
