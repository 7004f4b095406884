"""Racing submissions for one ply: the database lets exactly one through."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from games.models import Event
from tests.conftest import client_for, make_user
from tests.games.helpers import race, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def _race(requests: list[tuple[Any, dict]], url: str) -> list:
    """Each client posts its body to `url`, all at once: the answers in order."""
    return race([partial(client.post, url, body, format="json") for client, body in requests])


def test_eight_racing_submissions_write_exactly_one_event(players):
    game = started_game(players)
    moves = [{"type": "move", "to": [2, 5]}, {"type": "barrier", "at": [3, 3], "orientation": "H"},
             {"type": "move", "to": [1, 4]}, {"type": "move", "to": [1, 6]}]
    requests = [(client_for(players[0]), {"action": moves[i % 4], "ply": 0}) for i in range(8)]
    responses = _race(requests, f"/api/games/{game.pk}/actions/")
    codes = sorted(r.status_code for r in responses)
    assert codes == [201] + [409] * 7
    assert {r.json()["code"] for r in responses if r.status_code == 409} == {"stale_ply"}
    assert list(Event.objects.filter(game=game).values_list("ply", flat=True)) == [1]
    game.refresh_from_db()
    assert game.ply == 1


def test_racing_plies_never_leave_a_gap_or_duplicate(players):
    game = started_game(players, kind="quoridor4")
    # Every seat races its move for ply 0..3 at once; only the right seat at the right ply
    # can succeed, and plies stay consecutive.
    script = [{"type": "move", "to": [7, 4]}, {"type": "move", "to": [1, 4]},
              {"type": "move", "to": [4, 1]}, {"type": "move", "to": [4, 7]}]
    for ply, action in enumerate(script):
        requests = [(client_for(players[s]), {"action": action, "ply": ply}) for s in range(4)]
        requests += [(client_for(players[ply]), {"action": action, "ply": ply})] * 4
        responses = _race(requests, f"/api/games/{game.pk}/actions/")
        assert sum(r.status_code == 201 for r in responses) == 1
        assert {r.json().get("code") for r in responses if r.status_code != 201} <= {
            "stale_ply", "not_your_turn"}
    plies = list(Event.objects.filter(game=game).order_by("ply").values_list("ply", flat=True))
    assert plies == [1, 2, 3, 4]


def test_racing_joins_take_every_free_seat_once(players):
    """Four joins at once for the three free seats of a waiting game, five times: three
    take a seat each, the last starts the game, the fourth is refused. A join that waited
    for another's lock must see the seat just taken (the seats are read after the lock,
    not in the locking statement's snapshot), or it fails on the seats' unique index."""
    for round_ in range(5):
        created = client_for(players[0]).post("/api/games/", {"kind": "bloqueio"}, format="json")
        game_id = created.json()["id"]
        joiners = [make_user(f"racer{round_}x{i}") for i in range(4)]
        responses = _race([(client_for(u), {}) for u in joiners], f"/api/games/{game_id}/join/")
        assert sorted(r.status_code for r in responses) == [200, 200, 200, 409], \
            [r.content for r in responses]
        refused = next(r for r in responses if r.status_code == 409)
        assert refused.json()["code"] in ("game_full", "already_started")
        game = client_for(players[0]).get(f"/api/games/{game_id}/").json()
        assert game["status"] == "active"
        assert sorted(s["username"] for s in game["seats"][1:]) == sorted(
            u.username for u, r in zip(joiners, responses, strict=True) if r.status_code == 200)
