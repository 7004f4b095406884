"""One integer version per game (`Game.version`): every change to the row adds one, the
write guard compares it alone, and the stream carries it as `v` (docs/realtime.md)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async as sync_to_async
from django.db import transaction
from django.utils import timezone

from games import (
    engine,
    leavers,
    projection,
    round_store,
    selectors,
    services,
    state_cache,
    table,
)
from games.live import broadcast, presence, realtime
from games.models import Event, Game
from games.round import Act, play
from tests.conftest import make_user
from tests.games.helpers import started_game
from tests.games.ranked_helpers import finish_by_resignations
from tests.openings import MOVE0, MOVE1
from tests.ws_helpers import game_socket, receive_type, seat_four

pytestmark = pytest.mark.django_db(transaction=True)

AFTER_GRACE = timedelta(seconds=61)


def _version(game_id: int) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game_id)


# -- the guard ----------------------------------------------------------------------------


def test_a_write_from_an_older_version_loses_and_writes_nothing(players):
    """Two writers computed their progress from version n; the first commits (n+1), the
    second's guard no longer matches: nothing of it is written, the event log holds the
    first's move alone."""
    game = started_game(players[:2], kind="bloqueio2")
    first = round_store.load(game.pk, lock=False)
    second = round_store.load(game.pk, lock=False)
    assert first is not None and second is not None
    n = first.game.version
    now = timezone.now()
    won = round_store.commit(first, play(first.round, 0, Act(MOVE0, 0), now))
    assert won is not None and won.game.version == n + 1 == _version(game.pk)
    row_after = Game.objects.get(pk=game.pk)
    events_after = list(Event.objects.filter(game=game).values_list("ply", "action"))
    other = {"type": "move", "to": [1, 4]}  # another first move, from the same version
    lost = round_store.commit(second, play(second.round, 0, Act(other, 0), now))
    assert lost is None
    row = Game.objects.get(pk=game.pk)
    assert (row.version, row.ply, row.state) == (n + 1, row_after.ply, row_after.state)
    assert list(Event.objects.filter(game=game).values_list("ply", "action")) == events_after
    assert events_after == [(1, MOVE0)]
    assert state_cache.get(game.pk) is None  # the loser forgot its snapshot


def test_every_progress_and_seat_change_adds_one(alice, bob):
    game = services.create_game(user=alice, kind="bloqueio2")
    created = _version(game.pk)
    bot = services.add_bot(game_id=game.pk, user=alice, level="easy")
    started = _version(game.pk)
    # The seat that fills the game and the start are one change: one version.
    assert started == created + 1 and bot.status == "active"
    services.submit_action(game_id=game.pk, user=alice, action=MOVE0, ply=0)
    assert _version(game.pk) == started + 1

    waiting = services.create_game(user=alice, kind="bloqueio")
    steps = [_version(waiting.pk)]
    services.join_game(game_id=waiting.pk, user=bob)
    steps.append(_version(waiting.pk))
    services.add_bot(game_id=waiting.pk, user=alice, level="easy")
    steps.append(_version(waiting.pk))
    services.remove_bot(game_id=waiting.pk, user=alice, seat=2)
    steps.append(_version(waiting.pk))
    services.leave_game(game_id=waiting.pk, user=bob)
    steps.append(_version(waiting.pk))
    assert [v - steps[0] for v in steps] == [0, 1, 2, 3, 4]


def test_a_hand_over_orders_after_the_move_before_it(players):
    alice, bob = players[:2]
    game = started_game([alice, bob], kind="bloqueio2")
    moved = services.submit_action(game_id=game.pk, user=alice, action=MOVE0, ply=0)
    conn = uuid.uuid4().hex
    async_to_sync(presence.enter)(game.pk, conn, 1, 2)
    async_to_sync(presence.depart)(game.pk, conn, 1, 2)
    handed = leavers.hand_to_bot(game_id=game.pk, seat=1, user=alice,
                                 now=timezone.now() + AFTER_GRACE)
    assert handed.version == moved.payload["v"] + 1 == _version(game.pk)


def test_a_repair_moves_the_version_on(players):
    game = started_game(players[:2], kind="bloqueio2")
    services.submit_action(game_id=game.pk, user=players[0], action=MOVE0, ply=0)
    kept = state_cache.get(game.pk)
    assert kept is not None
    before = _version(game.pk)
    Game.objects.filter(pk=game.pk).update(ply=0)  # a projection gone wrong
    assert projection.repair(game.pk) is not None
    assert _version(game.pk) == before + 1
    # A process still holding the game as it was loses its next write's guard.
    stale = round_store.kept(game.pk)
    assert stale is not None and stale.game.version == before
    legal = engine.get("bloqueio2").legal_actions(stale.round.state)[0].to_json()
    assert round_store.commit(stale, play(stale.round, 1, Act(legal, 1),
                                          timezone.now())) is None


def test_an_annulment_moves_the_version_on(players):
    game = finish_by_resignations(started_game(players, ranked=True), players, [3, 1, 2])
    before = _version(game.pk)
    assert services.annul_game(game_id=game.pk).version == before + 1 == _version(game.pk)


def test_an_annulment_is_announced_after_commit_only(players):
    """Annulled inside a transaction that rolls back: nothing written, nothing announced
    (not even before the rollback); committed: announced once, "annulled", at its
    version, with the result it wrote."""
    game = finish_by_resignations(started_game(players, ranked=True), players, [3, 1, 2])
    sent: list[broadcast.Committed] = []
    broadcast.subscribe(sent.append)
    try:
        with pytest.raises(RuntimeError), transaction.atomic():
            services.annul_game(game_id=game.pk)
            assert sent == []
            raise RuntimeError("rolled back")
        assert sent == [] and Game.objects.get(pk=game.pk).annulled_at is None
        annulled = services.annul_game(game_id=game.pk)
    finally:
        broadcast.unsubscribe(sent.append)
    assert [(m.game_id, m.change, m.v) for m in sent] == [
        (game.pk, "annulled", _version(game.pk))]
    assert sent[0].game["result"] == annulled.result == Game.objects.get(pk=game.pk).result
    assert annulled.result["rated"] is False and "rating_changes" not in annulled.result


def test_time_given_back_is_a_change_announced_with_its_version(players):
    """The clock worker gives back its downtime: one version on, announced ("clock"),
    so no socket meets a gap at the next move."""
    game = started_game(players[:2], kind="bloqueio2",
                        time_control={"initial": 300, "increment": 5})
    row = Game.objects.get(pk=game.pk)
    sent: list[broadcast.Committed] = []
    broadcast.subscribe(sent.append)
    try:
        assert table.give_back_time(game_id=game.pk, since=row.turn_started_at,
                                      now=row.turn_started_at + timedelta(seconds=30))
    finally:
        broadcast.unsubscribe(sent.append)
    assert [(m.change, m.v) for m in sent] == [("clock", row.version + 1)]
    assert _version(game.pk) == row.version + 1


def test_the_game_json_carries_the_version(players):
    game = started_game(players[:2], kind="bloqueio2")
    assert selectors.game_json(selectors.get_game(game.pk))["v"] == _version(game.pk)


# -- the stream ---------------------------------------------------------------------------


async def _play(gid: int, users: list[Any], ply: int) -> dict[str, Any]:
    done = await sync_to_async(services.submit_action)(
        game_id=gid, user=users[ply % 2], action=(MOVE0, MOVE1)[ply], ply=ply)
    return done.payload


async def test_frames_carry_increasing_versions():
    gid, users = await seat_four()
    comm = await game_socket(gid)
    hello_v = await sync_to_async(_version)(gid)
    await _play(gid, users, 0)
    await sync_to_async(services.submit_action)(game_id=gid, user=users[1], action=MOVE1,
                                                ply=1)
    frames = [await receive_type(comm, "event") for _ in range(2)]
    assert [f["v"] for f in frames] == [hello_v + 1, hello_v + 2]
    assert all(f["v"] == f["game"]["v"] for f in frames)
    await comm.disconnect()


async def test_a_socket_drops_a_change_it_already_sent():
    """A move's announcement delivered twice (or late, after a newer one): its `v` is
    not above the last the socket sent, so it is not sent again."""
    gid, users = await seat_four()
    comm = await game_socket(gid)
    sent: list[broadcast.Committed] = []
    broadcast.subscribe(sent.append)
    try:
        await _play(gid, users, 0)
    finally:
        broadcast.unsubscribe(sent.append)
    first = await receive_type(comm, "event")
    realtime.on_committed(sent[0])  # the same change again
    await sync_to_async(services.submit_action)(game_id=gid, user=users[1], action=MOVE1,
                                                ply=1)
    second = await receive_type(comm, "event")
    assert (first["event"]["ply"], second["event"]["ply"]) == (1, 2)
    assert second["v"] == first["v"] + 1
    await comm.disconnect()


async def test_a_change_that_is_not_an_event_lost_is_filled_on_the_gap():
    """A hand-over's announcement is lost: the next move's `v` is two ahead, and the
    socket reads the game first (the seat now the bot's), never showing it out of order."""
    alice, bob = [await sync_to_async(make_user)(n) for n in ("alice", "bob")]
    game = await sync_to_async(started_game)([alice, bob], kind="bloqueio2")
    comm = await game_socket(game.pk)
    await sync_to_async(services.submit_action)(game_id=game.pk, user=alice, action=MOVE0,
                                                ply=0)
    moved = await receive_type(comm, "event")
    conn = uuid.uuid4().hex
    await presence.enter(game.pk, conn, 1, 2)
    await presence.depart(game.pk, conn, 1, 2)
    broadcast.unsubscribe(realtime.on_committed)
    try:
        await sync_to_async(leavers.hand_to_bot)(game_id=game.pk, seat=1, user=alice,
                                                 now=timezone.now() + AFTER_GRACE)
    finally:
        broadcast.subscribe(realtime.on_committed)
    # The next change (the bot's move would come from the worker): alice resigns.
    await sync_to_async(services.resign)(game_id=game.pk, user=alice)
    frames = []
    while not frames or frames[-1]["type"] != "event":
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] in ("event", "events", "game"):
            frames.append(frame)
    assert [f["v"] for f in frames] == sorted(f["v"] for f in frames)
    assert frames[-1]["v"] == moved["v"] + 2
    assert frames[-1]["game"]["seats"][1]["bot"] == "medium"
    await comm.disconnect()


async def test_sync_with_the_version_the_client_holds():
    gid, users = await seat_four()
    comm = await game_socket(gid)
    await _play(gid, users, 0)
    live = await receive_type(comm, "event")
    await comm.send_json_to({"type": "sync", "after": 1, "v": live["v"]})
    answer = await receive_type(comm, "events")
    assert (answer["events"], answer["v"], answer["game"]["v"]) == ([], live["v"], live["v"])
    await comm.send_json_to({"type": "sync", "after": 0, "v": live["v"] - 1})
    answer = await receive_type(comm, "events")
    assert [e["ply"] for e in answer["events"]] == [1] and answer["v"] == live["v"]
    await comm.send_json_to({"type": "sync", "after": 0, "v": "latest", "ref": "s"})
    refusal = await receive_type(comm, "error")
    assert (refusal["code"], refusal["ref"]) == ("invalid", "s")
    await comm.disconnect()


async def test_an_annulment_reaches_the_games_sockets_as_a_versioned_game_frame():
    """A moderator's annulment is a change like any other: the finished game's sockets
    get a `game` frame, change "annulled", one version on, showing the result unrated."""
    players = [await sync_to_async(make_user)(n) for n in ("alice", "bob", "carol", "dave")]
    game = await sync_to_async(lambda: finish_by_resignations(
        started_game(players, ranked=True), players, [3, 1, 2]))()
    comm = await game_socket(game.pk)
    before = await sync_to_async(_version)(game.pk)
    await sync_to_async(services.annul_game)(game_id=game.pk)
    frame = await receive_type(comm, "game")
    assert (frame["change"], frame["v"], frame["game"]["v"]) == ("annulled", before + 1,
                                                                 before + 1)
    result = frame["game"]["result"]
    assert result["rated"] is False and result["unrated"] == ["annulled"] * 4
    assert "rating_changes" not in result
    await comm.disconnect()
