"""Every kind the engine registers, played to the end through the platform with no
special case: over REST (legal actions from the API, the replay equal to the engine at
every ply, the export round-tripping), over WebSocket, and ranked (ratings move)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from bloqueio_site.asgi import application
from games import engine, selectors, services
from games.models import Game, Rating, RatingChange
from tests.conftest import client_for, make_user
from tests.games.helpers import started_game
from tests.ws_helpers import receive_type, token_headers

NAMES = ("alice", "bob", "carol", "dave")


def _users(kind: str) -> list[Any]:
    return [make_user(name) for name in NAMES[: engine.get(kind).seats]]


def _play_over_rest(game_id: int, users: list[Any], seed: int) -> list[dict[str, Any]]:
    """Random legal actions, each from GET legal-actions, until the game is over."""
    rng = random.Random(seed)
    clients = [client_for(u) for u in users]
    actions = []
    for _ in range(2000):
        game = clients[0].get(f"/api/games/{game_id}/").json()
        if game["status"] != "active":
            return actions
        seat = game["state"]["turn"]
        legal = clients[seat].get(f"/api/games/{game_id}/legal-actions/").json()
        assert legal["seat"] == seat and legal["actions"]
        action = rng.choice(legal["actions"])
        response = clients[seat].post(f"/api/games/{game_id}/actions/",
                                      {"action": action, "ply": game["ply"]}, format="json")
        assert response.status_code == 201, response.json()
        actions.append(action)
    raise AssertionError("the game did not end")


@pytest.mark.django_db
@pytest.mark.parametrize("kind", engine.KINDS)
def test_a_whole_game_over_rest_replays_exactly(kind):
    users = _users(kind)
    game = started_game(users, kind=kind)
    _play_over_rest(game.pk, users, seed=len(kind))
    api = client_for(users[0])
    final = api.get(f"/api/games/{game.pk}/").json()
    assert final["status"] == "finished" and final["result"] is not None
    events = api.get(f"/api/games/{game.pk}/events/").json()["events"]
    assert [e["ply"] for e in events] == list(range(1, final["ply"] + 1))
    rules = engine.get(kind)
    state = rules.initial()
    assert api.get(f"/api/games/{game.pk}/replay/?ply=0").json()["state"] == state.to_json()
    for event in events:
        state = rules.apply_event(state, selectors.engine_event(event["action"], event["seat"]))
        replay = api.get(f"/api/games/{game.pk}/replay/?ply={event['ply']}").json()
        assert replay["state"] == state.to_json(), event["ply"]
    assert final["state"] == state.to_json()
    assert final["result"] == rules.result(state).to_json()
    exported = api.get(f"/api/games/{game.pk}/export/").json()["notation"]
    assert rules.replay(rules.parse_game(exported)).to_json() == state.to_json()
    board = client_for(None).get(f"/games/{game.pk}/board.svg")
    assert board.status_code == 200 and f'data-kind="{kind}"'.encode() in board.content


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ["blockade", "blockade_run", "blokus_duo"])
async def test_a_whole_game_over_websockets(kind):
    users = await database_sync_to_async(_users)(kind)
    game = await database_sync_to_async(started_game)(users, kind=kind)
    rules = engine.get(kind)
    sockets = []
    for user in users:
        comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/",
                                     headers=token_headers(user.auth_token.key))
        assert (await comm.connect())[0]
        await receive_type(comm, "hello")
        sockets.append(comm)
    rng = random.Random(7)
    state = rules.initial()
    while state.turn is not None:
        seat = state.turn
        action = rng.choice(rules.legal_actions(state))
        await sockets[seat].send_json_to({"type": "action", "action": action.to_json(),
                                          "ply": state.ply, "ref": f"p{state.ply}"})
        assert (await receive_type(sockets[seat], "ack"))["ref"] == f"p{state.ply}"
        state = rules.apply(state, action)
        plies = [state.ply]
        while rules.must_pass(state):  # the server records passes itself
            state = rules.apply(state, engine.PASS)
            plies.append(state.ply)
        for comm in sockets:
            for ply in plies:
                frame = await receive_type(comm, "event")
                assert frame["event"]["ply"] == ply
            assert frame["game"]["state"] == state.to_json()
    row = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert row.status == "finished" and row.result == rules.result(state).to_json()
    for comm in sockets:
        await comm.disconnect()


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["blockade", "blockade_run", "blokus_duo"])
def test_a_ranked_two_seat_game_moves_both_ratings(kind):
    users = _users(kind)
    game = services.start_ranked_game(kind=kind, user_ids=[u.pk for u in users])
    assert game.time_control == {"initial": engine.get(kind).info.clock[0],
                                 "increment": engine.get(kind).info.clock[1]}
    _play_over_rest(game.pk, users, seed=3)
    game.refresh_from_db()
    ranking = game.result["ranking"]
    changes = {c.seat: c for c in RatingChange.objects.filter(game=game)}
    assert sorted(changes) == [0, 1]
    mus = [Rating.objects.get(user=u, kind=kind).mu for u in users]
    if ranking[0] != ranking[1]:
        better = 0 if ranking[0] < ranking[1] else 1
        assert mus[better] > mus[1 - better]
    leaderboard = client_for(None).get(f"/api/leaderboard/{kind}/")
    assert leaderboard.status_code == 200
