"""A create's and a join's answer is the game their own transaction wrote (games/services
`_seated`, games/api/views `_written_response`), not a second read: it must say what a
read of the game says afterwards, and it must not read the game again."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.conftest import client_for

pytestmark = pytest.mark.django_db

# What GET /api/games/{id}/ adds to the game (GameDetailOut), which a write's answer
# (GameOut) has never carried.
_DETAIL_ONLY = ("rematch", "presence")


def _read(client: Any, game_id: int) -> dict[str, Any]:
    body = client.get(f"/api/games/{game_id}/").json()
    return {k: v for k, v in body.items() if k not in _DETAIL_ONLY}


def test_every_answer_is_the_game_as_read_after_it(players) -> None:
    clients = [client_for(u) for u in players]
    created = clients[0].post("/api/games/", {"kind": "bloqueio"}, format="json")
    assert created.status_code == 201
    game_id = created.json()["id"]
    assert created.json() == _read(clients[0], game_id)
    assert "invite_url" in created.json()  # the creator's own view of it

    for index, client in enumerate(clients[1:], start=1):
        joined = client.post(f"/api/games/{game_id}/join/", {}, format="json")
        assert joined.status_code == 200
        assert joined.json() == _read(client, game_id)
        assert joined.json()["seats"][index]["username"] == players[index].username
    # The last join started the game: its answer has the round begun, clock and all.
    assert joined.json()["status"] == "active"
    assert joined.json()["started_at"] is not None
    assert joined.json()["ply"] == 0


def test_a_join_answers_a_rated_players_rating(players) -> None:
    from games.models import Rating

    Rating.objects.create(user=players[1], kind="bloqueio", mu=30.0, sigma=5.0, games=3,
                          rating=1512, provisional=False)
    clients = [client_for(u) for u in players]
    game_id = clients[0].post("/api/games/", {"kind": "bloqueio"}, format="json").json()["id"]
    joined = clients[1].post(f"/api/games/{game_id}/join/", {}, format="json").json()
    assert joined["seats"][1]["rating"] == 1512
    assert joined == _read(clients[1], game_id)


def _game_reads(queries: list[dict[str, Any]]) -> list[str]:
    """The statements that read a game's row (its columns; not the seats' read, which
    names the table only to find the game's kind)."""
    return [q["sql"] for q in queries if q["sql"].lstrip().startswith('SELECT g."id"')]


def test_a_join_reads_the_game_once(players) -> None:
    """The row under its lock, and no second read for the answer (there were two)."""
    clients = [client_for(u) for u in players]
    game_id = clients[0].post("/api/games/", {"kind": "bloqueio"}, format="json").json()["id"]
    for client in clients[1:]:
        with CaptureQueriesContext(connection) as captured:
            assert client.post(f"/api/games/{game_id}/join/", {}, format="json").status_code \
                == 200
        reads = _game_reads(captured.captured_queries)
        assert len(reads) == 1, reads
        assert "FOR UPDATE" in reads[0]


def test_a_create_does_not_read_the_game_back(players) -> None:
    client = client_for(players[0])
    with CaptureQueriesContext(connection) as captured:
        assert client.post("/api/games/", {"kind": "bloqueio"}, format="json").status_code \
            == 201
    assert _game_reads(captured.captured_queries) == []


@pytest.mark.django_db(transaction=True)  # the snapshot is kept once the start commits
def test_the_snapshot_a_start_keeps_is_not_the_answer(players) -> None:
    """The started row is this process's snapshot (games/state_cache.py), never changed:
    the answer's seats are attached to a copy."""
    from games import state_cache

    clients = [client_for(u) for u in players]
    game_id = clients[0].post("/api/games/", {"kind": "bloqueio"}, format="json").json()["id"]
    for client in clients[1:]:
        client.post(f"/api/games/{game_id}/join/", {}, format="json")
    kept = state_cache.get(game_id)
    assert kept is not None and kept.game.status == "active"
    assert "_prefetched_objects_cache" not in kept.game.__dict__


def test_adding_bots_answers_the_game_as_read_after_it(players) -> None:
    """The last bot fills the table: the answer is the game started."""
    api = client_for(players[0])
    game_id = api.post("/api/games/", {"kind": "bloqueio"}, format="json").json()["id"]
    for seat, level in ((1, "easy"), (2, "medium"), (3, "hard")):
        added = api.post(f"/api/games/{game_id}/bots/", {"level": level, "seat": seat},
                         format="json")
        assert added.status_code == 201
        assert added.json() == _read(api, game_id)
    assert added.json()["status"] == "active"
    assert [s["bot"] for s in added.json()["seats"]] == [None, "easy", "medium", "hard"]


def test_accepting_an_invitation_answers_the_game_as_read_after_it(players) -> None:
    alice, bob = players[0], players[1]
    api = client_for(alice)
    game_id = api.post("/api/games/", {"kind": "quoridor", "private": True},
                       format="json").json()["id"]
    invitation = api.post(f"/api/games/{game_id}/invitations/", {"username": "bob"},
                          format="json").json()
    accepted = client_for(bob).post(f"/api/invitations/{invitation['id']}/accept/")
    assert accepted.status_code == 200
    assert accepted.json() == _read(client_for(bob), game_id)
    assert accepted.json()["status"] == "active"  # a 2-seat game: bob's seat started it
