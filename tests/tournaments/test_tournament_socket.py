"""The tournament socket, `/ws/tournaments/{id}/` (docs/realtime.md): its hello is the
API's detail; every change (join, withdraw, start and the round it seats, a table's game
ending, the end) follows as a frame in version order; a rolled-back change is never
announced; a notice lost on the way is caught up; an unknown tournament is closed 4404,
a bad token 4401, a banned watcher's socket 4403."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction

from accounts import services as accounts
from bloqueio_site.asgi import application
from games import services as games
from games.live import realtime
from games.live.consumers import BaseConsumer
from games.live.frames import MAX_FRAME_BYTES
from tests.conftest import client_for
from tests.ws_helpers import LOCAL, token_headers, until_closed
from tournaments import live, services
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


async def _open(tournament_id: int) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    """A spectator's socket on the tournament, and its hello."""
    comm = WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/",
                                 headers=LOCAL)
    connected, _ = await comm.connect()
    assert connected
    hello = await _next(comm)
    assert hello["type"] == "hello"
    return comm, hello


async def _next(comm: WebsocketCommunicator) -> dict[str, Any]:
    """The next frame that is not the heartbeat's ping."""
    while (frame := await comm.receive_json_from(timeout=5))["type"] == "ping":
        pass
    return frame


def _players(frame: dict[str, Any]) -> list[tuple[str, bool]]:
    return [(p["username"], p["withdrawn"]) for p in frame["tournament"]["players"]]


class RolledBack(Exception):
    pass


def _withdraw_then_roll_back(tournament_id: int, user: Any) -> None:
    try:
        with transaction.atomic():
            services.withdraw(tournament_id=tournament_id, user=user)
            raise RolledBack
    except RolledBack:
        pass


def _resign_and_advance(tournament_id: int, table: int, user: Any) -> bool:
    """`user` resigns at table `table` of the round; then the worker's step."""
    game_id = Table.objects.get(round__tournament_id=tournament_id, number=table).game_id
    games.resign(game_id=game_id, user=user)
    return services.advance(tournament_id=tournament_id)


async def test_every_change_arrives_in_version_order_and_a_rollback_never(
        alice, bob, carol, dave):
    made = await sync_to_async(services.create)(user=alice, kind="bloqueio2", rounds=1)
    tid = made.pk
    comm, hello = await _open(tid)
    api = (await sync_to_async(client_for(None).get)(f"/api/tournaments/{tid}/")).json()
    assert hello == {"type": "hello", "v": 0, "tournament": api}  # the API's detail, as is
    assert api["v"] == 0 and api["players"] == []

    frames = []
    for user in (alice, bob, carol, dave):
        await sync_to_async(services.join)(tournament_id=tid, user=user)
        frames.append(await _next(comm))
    assert _players(frames[-1]) == [(n, False) for n in ("alice", "bob", "carol", "dave")]

    await sync_to_async(services.withdraw)(tournament_id=tid, user=dave)
    frames.append(await _next(comm))
    assert _players(frames[-1])[-1] == ("dave", True)
    await sync_to_async(services.join)(tournament_id=tid, user=dave)  # back again
    frames.append(await _next(comm))
    assert _players(frames[-1])[-1] == ("dave", False)

    # Carol's withdrawal is rolled back: nothing is announced, so the next frame is the
    # start's, one version on, with Carol still in.
    await sync_to_async(_withdraw_then_roll_back)(tid, carol)
    await sync_to_async(services.start)(tournament_id=tid, user=alice)
    start = await _next(comm)
    frames.append(start)
    assert start["tournament"]["status"] == "running"
    assert ("carol", False) in _players(start)
    [round_one] = start["tournament"]["rounds"]
    assert (round_one["number"], round_one["finished"], len(round_one["tables"])) == (1, False, 2)
    assert all(s["points"] == 0 for s in start["tournament"]["standings"])

    # A table's game ends: the worker's step hears it and the standings move, while the
    # other table still plays.
    seats = {t["game_id"]: t["seats"] for t in round_one["tables"]}
    first = round_one["tables"][0]
    users = {u.username: u for u in (alice, bob, carol, dave)}
    assert await sync_to_async(services.advance)(tournament_id=tid) is False  # nothing yet
    loser = users[first["seats"][1]]
    assert await sync_to_async(_resign_and_advance)(tid, 1, loser) is True
    moved = await _next(comm)
    frames.append(moved)
    points = {s["username"]: s["points"] for s in moved["tournament"]["standings"]}
    assert points[first["seats"][0]] == 1 and points[first["seats"][1]] == 0
    assert moved["tournament"]["rounds"][0]["finished"] is False
    assert await sync_to_async(services.advance)(tournament_id=tid) is False  # heard once

    # The last table's end closes the round, and the one-round tournament.
    second = round_one["tables"][1]
    assert set(seats) == {first["game_id"], second["game_id"]}
    assert await sync_to_async(_resign_and_advance)(tid, 2, users[second["seats"][0]]) is True
    last = await _next(comm)
    frames.append(last)
    assert last["tournament"]["status"] == "finished"
    assert last["tournament"]["rounds"][0]["finished"] is True
    assert sorted(s["points"] for s in last["tournament"]["standings"]) == [0, 0, 1, 1]

    assert [f["type"] for f in frames] == ["tournament"] * len(frames)
    assert [f["v"] for f in frames] == list(range(1, len(frames) + 1))  # one per change
    assert all(f["tournament"]["v"] == f["v"] for f in frames)
    final = (await sync_to_async(client_for(None).get)(f"/api/tournaments/{tid}/")).json()
    assert final == last["tournament"]

    # A socket opened now starts from the latest version.
    again, hello = await _open(tid)
    assert hello["v"] == frames[-1]["v"] and hello["tournament"] == final
    await again.disconnect()
    await comm.disconnect()


async def test_a_lost_notice_is_caught_up_at_the_heartbeat(alice, bob, monkeypatch):
    made = await sync_to_async(services.create)(user=alice, kind="bloqueio2", rounds=1)
    monkeypatch.setattr(BaseConsumer, "heartbeat_seconds", 0.2)
    comm, hello = await _open(made.pk)
    # Bob's join commits, but its PUBLISH is lost (as if its process died right after
    # the commit).
    monkeypatch.setattr(realtime, "send_to_topic", lambda topic, message: None)
    await sync_to_async(services.join)(tournament_id=made.pk, user=bob)
    frame = await _next(comm)
    assert frame["type"] == "tournament" and frame["v"] == hello["v"] + 1
    assert _players(frame) == [("bob", False)]
    await comm.disconnect()


async def test_a_frame_that_cannot_be_built_fails_no_change(alice, bob, monkeypatch):
    """Building the frame after the commit fails (the database went away, say): the
    change stands, its caller is answered, and sockets catch up from the database."""
    made = await sync_to_async(services.create)(user=alice, kind="bloqueio2", rounds=1)

    def broken(tournament_id: int) -> dict[str, Any]:
        raise RuntimeError("no frame")

    monkeypatch.setattr(live, "frame", broken)
    joined = await sync_to_async(services.join)(tournament_id=made.pk, user=bob)
    assert joined.v == 1
    assert await sync_to_async(
        Tournament.objects.filter(pk=made.pk, entries__user=bob, v=1).exists)()


async def test_an_unknown_tournament_is_closed_with_4404(alice):
    made = await sync_to_async(services.create)(user=alice, kind="bloqueio2", rounds=1)
    missing = made.pk + 1000
    comm = WebsocketCommunicator(application, f"/ws/tournaments/{missing}/", headers=LOCAL)
    await comm.connect()
    frames, code = await until_closed(comm)
    assert code == 4404
    assert [(f["type"], f["code"]) for f in frames] == [("error", "not_found")]
    assert str(missing) in frames[0]["detail"]
    assert not await sync_to_async(Tournament.objects.filter(pk=missing).exists)()


async def test_the_unknown_tournament_is_said_in_the_browsers_language(alice):
    details = []
    for language in (b"en-US,en;q=0.9", b"pt-BR,pt;q=0.9"):
        comm = WebsocketCommunicator(application, "/ws/tournaments/987654/",
                                     headers=[*LOCAL, (b"accept-language", language)])
        await comm.connect()
        frames, code = await until_closed(comm)
        assert code == 4404 and frames[0]["code"] == "not_found"
        details.append(frames[0]["detail"])
    assert details == ["No tournament 987654.", "Não há torneio 987654."]


async def test_a_foreign_origin_is_refused_and_frames_are_checked_as_on_every_socket(alice):
    made = await sync_to_async(services.create)(user=alice, kind="bloqueio2", rounds=1)
    path = f"/ws/tournaments/{made.pk}/"
    foreign = WebsocketCommunicator(application, path, headers=[
        (b"origin", b"http://evil.example"), (b"host", b"localhost")])
    connected, _ = await foreign.connect()
    assert not connected  # before any accept: over HTTP, a 403
    comm, _ = await _open(made.pk)
    await comm.send_json_to({"type": "ping"})
    assert await _next(comm) == {"type": "pong"}
    await comm.send_to(text_data='{"type": "ping", "pad": "' + "x" * MAX_FRAME_BYTES + '"}')
    assert (await _next(comm))["code"] == "too_large"
    await comm.send_json_to({"type": "sync", "ref": 3})
    refused = await _next(comm)
    assert (refused["type"], refused["code"], refused["ref"]) == ("error", "unknown_type", 3)
    await comm.disconnect()


async def test_a_bad_token_is_refused_with_4401(alice):
    made = await sync_to_async(services.create)(user=alice, kind="bloqueio2", rounds=1)
    comm = WebsocketCommunicator(application, f"/ws/tournaments/{made.pk}/",
                                 headers=[*LOCAL, (b"authorization", b"Token nope")])
    await comm.connect()
    frames, code = await until_closed(comm)
    assert code == 4401 and frames[0]["code"] == "authentication_failed"


async def test_a_ban_closes_a_watching_players_socket(alice, bob):
    made = await sync_to_async(services.create)(user=alice, kind="bloqueio2", rounds=1)
    comm = WebsocketCommunicator(application, f"/ws/tournaments/{made.pk}/",
                                 headers=token_headers(bob.auth_token.key))
    connected, _ = await comm.connect()
    assert connected and (await _next(comm))["type"] == "hello"
    await sync_to_async(accounts.ban_user)(bob)
    frames, code = await until_closed(comm)
    assert code == 4403 and frames[-1]["code"] == "banned"


def _arena_game_ends(tournament_id: int, user: Any) -> bool:
    """`user` resigns their arena game; then the worker's step."""
    from tournaments.models import Pairing

    game_id = Pairing.objects.get(tournament_id=tournament_id, seats__contains=[user.pk]
                                  ).game_id
    games.resign(game_id=game_id, user=user)
    return services.advance(tournament_id=tournament_id)


async def test_an_arenas_pairings_and_game_ends_are_frames_too(alice, bob, carol):
    made = await sync_to_async(services.create)(user=alice, kind="blockade", minutes=10,
                                                 system="arena")
    tid = made.pk
    comm, hello = await _open(tid)
    assert hello["v"] == 0 and hello["tournament"]["system"] == "arena"
    for user in (alice, bob):
        await sync_to_async(services.join)(tournament_id=tid, user=user)
    await sync_to_async(services.start)(tournament_id=tid, user=alice)
    frames = [await _next(comm) for _ in range(3)]
    assert [f["v"] for f in frames] == [1, 2, 3]
    started = frames[-1]["tournament"]
    assert started["status"] == "running"
    assert [g["seats"] for g in started["games"]] in (
        [["alice", "bob"]], [["bob", "alice"]])  # paired at the start
    assert started["standings"][0]["games"] == 0

    # alice wins; nobody else is free, and they just played each other: not paired
    assert await sync_to_async(_arena_game_ends)(tid, bob)
    ended = await _next(comm)
    assert ended["v"] == 4
    assert [g["status"] for g in ended["tournament"]["games"]] == ["finished"]
    top = ended["tournament"]["standings"][0]
    assert (top["username"], top["points"], top["games"]) == ("alice", 2, 1)
    assert not await sync_to_async(services.advance)(tournament_id=tid)  # nothing new

    await sync_to_async(services.join)(tournament_id=tid, user=carol)  # a late entry
    assert (await _next(comm))["v"] == 5
    assert await sync_to_async(services.advance)(tournament_id=tid)  # carol is paired
    paired = await _next(comm)
    assert paired["v"] == 6
    assert len(paired["tournament"]["games"]) == 2
    assert "carol" in paired["tournament"]["games"][0]["seats"]  # latest first
    await comm.disconnect()
