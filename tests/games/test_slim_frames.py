"""Smaller frames, `?frames=changes` on the game socket: an `event` frame carries the
event and a `delta` of the game in place of the whole game (docs/realtime.md, "Smaller
frames"); everyone else's frames are unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator

from bloqueio_site.asgi import application
from games import engine, services, table
from games.live.fanout import CHANGED_FIELDS
from games.live.frames import CLOSE_INVALID_OPTION
from games.selectors import engine_event
from tests.conftest import make_user
from tests.games.helpers import started_game
from tests.ws_helpers import LOCAL, game_socket, receive_type, seat_four, until_closed

pytestmark = pytest.mark.django_db(transaction=True)

MOVES = ({"type": "move", "to": [2, 5]}, {"type": "move", "to": [5, 8]})


async def _slim_socket(gid: int) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    """A spectator's socket opted into smaller frames, and its hello."""
    comm = WebsocketCommunicator(application, f"/ws/games/{gid}/?frames=changes",
                                 headers=LOCAL)
    connected, _ = await comm.connect()
    assert connected
    return comm, await receive_type(comm, "hello")


def _apply(game: dict[str, Any], frame: dict[str, Any]) -> dict[str, Any]:
    """What a client does with a slim `event` frame: the event by the rules (a leave
    with its seat), the delta as given."""
    rules = engine.get(game["kind"])
    event = frame["event"]
    state = rules.apply_event(rules.state_from_json(game["state"]),
                              rules.parse_event(engine_event(event["action"], event["seat"])))
    return dict(game, **frame["delta"], state=state.to_json(), v=frame["v"])


async def test_slim_and_whole_frames_of_the_same_moves_lead_to_the_same_game():
    gid, users = await seat_four()
    whole = await game_socket(gid)
    slim, hello = await _slim_socket(gid)
    held = hello["game"]
    for ply, (user, move) in enumerate(zip(users, MOVES, strict=False)):
        await sync_to_async(services.submit_action)(game_id=gid, user=user, action=move,
                                                    ply=ply)
        full = await receive_type(whole, "event")
        small = await receive_type(slim, "event")
        assert "game" not in small and "game" in full
        assert small["v"] == full["v"] == full["game"]["v"] == hello["v"] + ply + 1
        assert small["event"] == full["event"]
        assert set(small["delta"]) == set(CHANGED_FIELDS)
        held = _apply(held, small)
        for key in ("v", "ply", "state", "status", "clocks", "result", "seats"):
            assert held[key] == full["game"][key], key
    await whole.disconnect()
    await slim.disconnect()


async def test_a_finish_carries_the_status_and_the_result():
    alice, bob = [await sync_to_async(make_user)(n) for n in ("alice", "bob")]
    game = await sync_to_async(started_game)([alice, bob], kind="bloqueio2")
    whole = await game_socket(game.pk)
    slim, hello = await _slim_socket(game.pk)
    await sync_to_async(table.resign)(game_id=game.pk, user=alice)
    full = await receive_type(whole, "event")
    small = await receive_type(slim, "event")
    assert full["game"]["status"] == "finished" and full["game"]["result"] is not None
    assert small["v"] == full["v"]
    assert {key: small["delta"][key] for key in ("status", "result", "finished_at", "ply")} \
        == {key: full["game"][key] for key in ("status", "result", "finished_at", "ply")}
    held = _apply(hello["game"], small)
    assert held["state"] == full["game"]["state"]
    await whole.disconnect()
    await slim.disconnect()


@pytest.mark.parametrize("query", ["frames=tiny", "frames=changes&frames=whole", "frames="])
async def test_an_unknown_frames_option_is_refused_with_its_code(query):
    alice, bob = [await sync_to_async(make_user)(n) for n in ("alice", "bob")]
    game = await sync_to_async(started_game)([alice, bob], kind="bloqueio2")
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/?{query}", headers=LOCAL)
    connected, _ = await comm.connect()
    assert connected
    frames, code = await until_closed(comm)
    assert code == CLOSE_INVALID_OPTION
    assert [f["code"] for f in frames if f["type"] == "error"] == ["invalid_option"]
    assert not any(f["type"] == "hello" for f in frames)


async def test_whole_is_the_default_and_may_be_asked_for():
    alice, bob = [await sync_to_async(make_user)(n) for n in ("alice", "bob")]
    game = await sync_to_async(started_game)([alice, bob], kind="bloqueio2")
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/?frames=whole",
                                 headers=LOCAL)
    connected, _ = await comm.connect()
    assert connected
    await receive_type(comm, "hello")
    await sync_to_async(services.submit_action)(game_id=game.pk, user=alice,
                                                action=MOVES[0], ply=0)
    frame = await receive_type(comm, "event")
    assert frame["game"]["ply"] == 1 and "delta" not in frame
    await comm.disconnect()


async def test_the_refusal_is_said_in_the_sockets_language():
    alice, bob = [await sync_to_async(make_user)(n) for n in ("alice", "bob")]
    game = await sync_to_async(started_game)([alice, bob], kind="bloqueio2")
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/?frames=tiny",
                                 headers=[*LOCAL, (b"accept-language", b"pt-BR")])
    connected, _ = await comm.connect()
    assert connected
    frames, code = await until_closed(comm)
    assert code == CLOSE_INVALID_OPTION
    assert frames[0]["code"] == "invalid_option" and "deve ser" in frames[0]["detail"]
