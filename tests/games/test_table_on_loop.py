"""The game's one door seen from the event loop (games/table.py, `handle_on_loop`): a
live move or resignation written by the loop itself, one writer per game in the process,
and its edges: what it writes is what the door writes on a thread, and everything the
loop cannot decide alone (a refusal, a stale snapshot, a lost race, a rated ending, no
connection) is passed on to the thread, never half-written.
The loop's own connections (bloqueio_site/loop_db.py): bounded, and a connection the
server ended is replaced, not used."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import psycopg
import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from bloqueio_site import loop_db
from bloqueio_site.errors import ServiceError
from games import engine, outbox, round_store, services, state_cache, table
from games.models import Event, Game, Outbox
from games.round import Act
from tests.conftest import make_user
from tests.games.helpers import started_game
from tests.openings import MOVE0, MOVE1
from tests.ws_helpers import game_socket, receive_type, seat_four

pytestmark = pytest.mark.django_db(transaction=True)


def events_of(gid: int) -> list[tuple[int, int, dict[str, Any]]]:
    return list(Event.objects.filter(game_id=gid).order_by("ply")
                .values_list("ply", "seat", "action"))


@pytest.fixture
async def four():
    return await seat_four()


async def test_a_move_is_written_by_the_loop_and_announced(four):
    gid, users = four
    alice, spectator = await game_socket(gid, users[0]), await game_socket(gid)
    before = table.counts.copy()
    await alice.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": 1})
    assert await receive_type(alice, "ack") == {"type": "ack", "ref": 1, "ply": 1}
    assert table.counts["written"] == before["written"] + 1
    assert table.counts["passed_on"] == before["passed_on"]
    frame = await receive_type(spectator, "event")
    assert frame["event"] == {**frame["event"], "ply": 1, "seat": 0, "action": MOVE0}
    assert frame["game"]["ply"] == 1 and frame["game"]["state"]["turn"] == 1
    # The row and the log say what the thread path would have written.
    assert await sync_to_async(events_of)(gid) == [(1, 0, MOVE0)]
    game = await sync_to_async(Game.objects.get)(pk=gid)
    rules = engine.get(game.kind)
    replayed = rules.apply(rules.initial(), MOVE0)
    assert game.ply == 1 and game.state == replayed.to_json()
    # ...and the snapshot the next move starts from is that row.
    kept = state_cache.get(gid, 1)
    assert kept is not None and kept.game.state == game.state
    # The next seat's move from the kept snapshot: the loop again.
    bob = await game_socket(gid, users[1])
    await bob.send_json_to({"type": "action", "action": MOVE1, "ply": 1, "ref": 2})
    assert (await receive_type(bob, "ack"))["ply"] == 2
    assert table.counts["written"] == before["written"] + 2
    for comm in (alice, bob, spectator):
        await comm.disconnect()


async def test_a_refusal_is_decided_again_by_the_thread_path(four):
    gid, users = four
    bob = await game_socket(gid, users[1])
    before = table.counts["passed_on"]
    await bob.send_json_to({"type": "action", "action": MOVE1, "ply": 0, "ref": "x"})
    error = await receive_type(bob, "error")
    assert error["code"] == "not_your_turn" and error["ref"] == "x"
    assert table.counts["passed_on"] == before + 1
    assert await sync_to_async(events_of)(gid) == []
    await bob.disconnect()


async def test_a_snapshot_behind_the_row_writes_nothing_and_says_stale_ply(four):
    """Another process moved the game (here: the write is made, then this process's
    snapshot is put back to the ply before it): the loop's guarded statement matches no
    row, and the thread path reads the row and refuses the old ply."""
    gid, users = four
    behind = state_cache.get(gid, 0)
    assert behind is not None
    await sync_to_async(services.submit_action)(game_id=gid, user=users[0], action=MOVE0,
                                                ply=0)
    state_cache.drop(gid)
    state_cache.put(behind)
    alice = await game_socket(gid, users[0])
    state_cache.drop(gid)
    state_cache.put(behind)  # the socket's hello may have read the row meanwhile
    before = table.counts.copy()
    await alice.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": 3})
    assert (await receive_type(alice, "error"))["code"] == "stale_ply"
    assert table.counts["lost_race"] == before["lost_race"] + 1  # the loop's guard
    assert table.counts["passed_on"] == before["passed_on"] + 1
    assert state_cache.get(gid, 0) is None  # the stale snapshot is forgotten
    assert await sync_to_async(events_of)(gid) == [(1, 0, MOVE0)]
    await alice.disconnect()


async def test_with_the_loops_writes_off_every_move_takes_the_thread_path(four, settings):
    settings.LOOP_DB_CONNECTIONS = 0
    gid, users = four
    alice = await game_socket(gid, users[0])
    before = table.counts.copy()
    await alice.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": 4})
    assert (await receive_type(alice, "ack"))["ply"] == 1
    assert table.counts["written"] == before["written"]
    assert table.counts["passed_on"] == before["passed_on"] + 1
    assert await sync_to_async(events_of)(gid) == [(1, 0, MOVE0)]
    await alice.disconnect()


async def test_a_move_that_waited_out_the_pools_timeout_is_answered_unavailable(
        four, settings, monkeypatch):
    """Moves queue for the loop's connections; one still waiting after the pool's timeout
    is told `unavailable`, as a request that waited for the pool: nothing is written,
    the snapshot still holds, and the same move lands once a connection is free."""
    settings.LOOP_DB_CONNECTIONS = 1
    monkeypatch.setitem(connections["default"].settings_dict["OPTIONS"]["pool"],
                        "timeout", 0.2)
    gid, users = four
    alice = await game_socket(gid, users[0])
    before = table.counts.copy()
    async with loop_db.connection():  # the loop's only connection, held
        await alice.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": 8})
        frame = await _ack_or_error(alice)
        assert frame["code"] == "unavailable" and frame["ref"] == 8
    assert table.counts["busy"] == before["busy"] + 1
    assert await sync_to_async(events_of)(gid) == []
    assert state_cache.get(gid, 0) is not None
    await alice.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": 11})
    assert (await receive_type(alice, "ack"))["ply"] == 1
    assert table.counts["written"] == before["written"] + 1
    await alice.disconnect()


async def test_an_unreachable_database_sends_moves_to_the_thread_path_for_a_while(
        settings, monkeypatch):
    """A connect that failed makes the next second's borrowers go elsewhere at once,
    without trying again (here the port is back, and still nothing is tried)."""
    settings.LOOP_DB_CONNECTIONS = 2
    loop_db.close_all()
    monkeypatch.setitem(connections["default"].settings_dict, "PORT", _closed_port())
    with pytest.raises(loop_db.Unusable, match="no connection"):
        async with loop_db.connection():
            pass  # pragma: no cover - never reached
    monkeypatch.undo()
    with pytest.raises(loop_db.Unusable, match="a moment ago"):
        async with loop_db.connection():
            pass  # pragma: no cover - never reached


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # bound, never listening: refused


async def test_a_place_handed_to_a_waiter_that_gives_up_passes_on(settings):
    settings.LOOP_DB_CONNECTIONS = 1
    pool = loop_db._Connections(busy=1)
    waiter = asyncio.ensure_future(loop_db._acquire(pool))
    await asyncio.sleep(0)
    assert len(pool.waiters) == 1
    loop_db._release(pool)  # the place goes to the waiter...
    waiter.cancel()  # ...which is cancelled before it runs again
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert pool.busy == 0 and not pool.waiters


async def test_a_failed_statement_answers_unavailable_and_writes_nothing(four):
    """A statement sent and failed (here the row is locked past the session's
    lock_timeout) may or may not have committed: the client is told `unavailable` (it
    reads the game again), the snapshot is forgotten, and nothing is half-written."""
    gid, users = four
    alice = await game_socket(gid, users[0])
    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)
    holder = await psycopg.AsyncConnection.connect(**params)
    try:
        await holder.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", [gid])
        await alice.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": 9})
        frame = await _ack_or_error(alice, wait=10)
        assert frame["code"] == "unavailable" and frame["ref"] == 9
        assert state_cache.get(gid) is None
    finally:
        await holder.rollback()
        await holder.close()
    assert await sync_to_async(events_of)(gid) == []
    game = await sync_to_async(Game.objects.get)(pk=gid)
    assert game.ply == 0
    await alice.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": 10})
    assert (await receive_type(alice, "ack"))["ply"] == 1  # and play goes on
    await alice.disconnect()


def _outbox_of(gid: int) -> list[tuple[str, int, int | None]]:
    return [(row.kind, row.payload["ply"], row.payload["to_move"])
            for row in Outbox.objects.filter(game_id=gid, kind=outbox.TURN).order_by("id")]


async def test_a_turn_based_move_takes_the_loop_and_writes_its_outbox_row(settings):
    """Its "your turn" is an outbox row in the move's own statement (games/outbox.py):
    nothing is left for a thread to write after the commit."""
    gid, users = await seat_four()
    await sync_to_async(Game.objects.filter(pk=gid).update)(time_control={"days": 1})
    state_cache.drop(gid)
    await sync_to_async(round_store.load)(gid)  # the turn-based row, kept
    alice = await game_socket(gid, users[0])
    written = table.counts["written"]
    await alice.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": 5})
    assert (await receive_type(alice, "ack"))["ply"] == 1
    assert table.counts["written"] == written + 1
    assert await sync_to_async(events_of)(gid) == [(1, 0, MOVE0)]
    assert await sync_to_async(_outbox_of)(gid) == [(outbox.TURN, 1, users[1].pk)]
    await alice.disconnect()


async def test_a_lost_race_writes_no_outbox_row(settings):
    """The row moved on under the loop's snapshot: the guard matches nothing, and the
    outbox branch of the statement inserts nothing either."""
    gid, users = await seat_four()
    await sync_to_async(Game.objects.filter(pk=gid).update)(time_control={"days": 1})
    state_cache.drop(gid)
    alice = await game_socket(gid, users[0])
    loaded = await sync_to_async(round_store.load)(gid)  # the snapshot at ply 0
    await sync_to_async(services.submit_action)(game_id=gid, user=users[0], action=MOVE0,
                                                ply=0)  # the thread path takes ply 0
    rows = await sync_to_async(_outbox_of)(gid)
    assert rows == [(outbox.TURN, 1, users[1].pk)]
    state_cache.drop(gid)
    state_cache.written(state_cache.Snapshot(loaded.game, loaded.seats, loaded.round,
                                             loaded.state_text))  # the stale one again
    lost = table.counts["lost_race"]
    assert await table.handle_on_loop(gid, users[0].pk, Act(MOVE0, 0), 0,
                                      _passed_on) == "passed on"
    assert table.counts["lost_race"] == lost + 1
    assert await sync_to_async(_outbox_of)(gid) == rows
    await alice.disconnect()


async def test_the_race_between_the_loop_and_a_thread_has_one_winner(four):
    """The same ply written at once by the loop (a socket) and by a worker thread (REST's
    service call): one event, the other refused."""
    gid, users = four
    alice = await game_socket(gid, users[0])
    other = {"type": "move", "to": [1, 4]}
    thread = asyncio.ensure_future(sync_to_async(_try_submit)(gid, users[0], other))
    await alice.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": 6})
    frame = await _ack_or_error(alice)
    by_thread = await thread
    log = await sync_to_async(events_of)(gid)
    assert len(log) == 1
    assert (frame["type"] == "ack") != (by_thread == "ok")
    assert log[0][2] == (MOVE0 if frame["type"] == "ack" else other)
    if frame["type"] == "error":
        assert frame["code"] == "stale_ply"
    else:
        assert by_thread == "stale_ply"
    await alice.disconnect()


async def _passed_on() -> str:
    return "passed on"


def _try_submit(gid: int, user: Any, action: dict[str, Any]) -> str:
    try:
        services.submit_action(game_id=gid, user=user, action=action, ply=0)
    except ServiceError as refused:
        return refused.code
    return "ok"


async def _ack_or_error(comm: WebsocketCommunicator, wait: float = 5) -> dict[str, Any]:
    while True:
        frame = await comm.receive_json_from(timeout=wait)
        if frame["type"] in ("ack", "error"):
            return frame


async def test_one_writer_per_game_applies_a_processs_commands_one_at_a_time(four):
    """Two commands for one game arrive together in one process: the second is decided
    after the first is written (from the snapshot it left), never beside it from the
    same snapshot, so there is no lost race to pay for; and the game's place in the
    writers' map goes with its last command."""
    gid, users = four
    loop = asyncio.get_running_loop()
    before = table.counts.copy()
    first, second = await asyncio.gather(*(
        table.handle_on_loop(gid, users[0].pk, Act(MOVE0, 0), 0, _passed_on)
        for _ in range(2)))
    assert isinstance(first, round_store.Written) and first.game.ply == 1
    assert second == "passed on"  # no snapshot at ply 0 any more: the row decides
    assert table.counts["written"] == before["written"] + 1
    assert table.counts["lost_race"] == before["lost_race"]
    assert gid not in table._writers.get(loop, {})
    assert await sync_to_async(events_of)(gid) == [(1, 0, MOVE0)]


async def test_a_resignation_over_a_socket_goes_through_the_door_on_the_loop(four):
    """Resigning is a command like a move: written by the loop (a four-seat game runs
    on), acknowledged with the ply after it, announced to the table."""
    gid, users = four
    carol, spectator = await game_socket(gid, users[2]), await game_socket(gid)
    written = table.counts["written"]
    await carol.send_json_to({"type": "resign", "ref": "r"})
    assert await receive_type(carol, "ack") == {"type": "ack", "ref": "r", "ply": 1}
    assert table.counts["written"] == written + 1
    frame = await receive_type(spectator, "event")
    assert frame["event"]["seat"] == 2 and frame["event"]["action"]["type"] == "resign"
    assert await sync_to_async(events_of)(gid) == [(1, 2, {"type": "resign"})]
    for comm in (carol, spectator):
        await comm.disconnect()


async def test_a_casual_game_ended_by_a_resignation_is_written_by_the_loop():
    """A casual two-seat game ends by a resignation: one statement, no ratings, so the
    loop writes it; the table reads "finished", and the ended game is no longer kept."""
    users = [await sync_to_async(make_user)(n) for n in ("ann", "ben")]
    game = await sync_to_async(started_game)(users, "quoridor")
    ann = await game_socket(game.pk, users[0])
    written = table.counts["written"]
    await ann.send_json_to({"type": "resign", "ref": 1})
    assert (await receive_type(ann, "ack"))["ply"] == 1
    assert table.counts["written"] == written + 1
    frame = await receive_type(ann, "event")
    assert frame["game"]["status"] == "finished" and frame["game"]["result"]["winner"] == 1
    row = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert row.status == "finished" and row.result["winner"] == 1
    assert state_cache.get(game.pk) is None
    await ann.disconnect()


async def test_a_ranked_game_ended_by_a_resignation_is_rated_on_a_thread():
    """The ranked ending rates the players in the same transaction: not one statement,
    so the loop passes it on, and the ratings are written with the result."""
    users = [await sync_to_async(make_user)(n) for n in ("ann", "ben")]
    game = await sync_to_async(services.start_ranked_game)(
        kind="quoridor", user_ids=[u.pk for u in users])
    ann = await game_socket(game.pk, users[0])
    before = table.counts.copy()
    await ann.send_json_to({"type": "resign", "ref": 1})
    assert (await receive_type(ann, "ack"))["ply"] == 1
    assert table.counts["written"] == before["written"]
    assert table.counts["passed_on"] == before["passed_on"] + 1
    row = await sync_to_async(Game.objects.get)(pk=game.pk)
    assert row.status == "finished" and "unrated" in row.result, row.result  # decided by ratings
    await ann.disconnect()


async def test_loop_connections_are_bounded_and_waited_for_in_turn(settings, monkeypatch):
    settings.LOOP_DB_CONNECTIONS = 1
    pool_options = connections["default"].settings_dict["OPTIONS"]["pool"]
    monkeypatch.setitem(pool_options, "timeout", 5.0)
    order: list[str] = []

    async def borrow(name: str, hold: float) -> int:
        async with loop_db.connection() as conn:
            order.append(name)
            await asyncio.sleep(hold)
            return conn.info.backend_pid

    first = asyncio.ensure_future(borrow("first", 0.1))
    await asyncio.sleep(0)
    waiting = [asyncio.ensure_future(borrow(n, 0)) for n in ("second", "third")]
    pids = await asyncio.gather(first, *waiting)
    assert order == ["first", "second", "third"] and len(set(pids)) == 1  # one connection
    # Held past the timeout: the next borrower is told, and a waiter that gave up (or was
    # cancelled) leaves no place taken behind it.
    monkeypatch.setitem(pool_options, "timeout", 0.3)
    async with loop_db.connection():
        with pytest.raises(loop_db.Busy):
            async with loop_db.connection():
                pass  # pragma: no cover - never reached
        cancelled = asyncio.ensure_future(borrow("cancelled", 0))
        await asyncio.sleep(0.05)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
    async with loop_db.connection() as conn:  # free again
        assert (await (await conn.execute("SELECT 1")).fetchone()) == (1,)


async def test_a_connection_the_server_ended_is_replaced(settings):
    settings.LOOP_DB_CONNECTIONS = 1
    async with loop_db.connection() as conn:
        first = conn.info.backend_pid
    await sync_to_async(_terminate)(first)
    async with loop_db.connection() as conn:
        assert conn.info.backend_pid != first
        assert (await (await conn.execute("SELECT 1")).fetchone()) == (1,)


async def test_a_connection_idle_past_the_pools_max_idle_is_replaced(monkeypatch):
    monkeypatch.setitem(connections["default"].settings_dict["OPTIONS"]["pool"],
                        "max_idle", 1.0)
    async with loop_db.connection() as conn:
        first = conn
    async with loop_db.connection() as conn:
        assert conn is first  # idle for less than max_idle: reused
    await asyncio.sleep(1.1)
    async with loop_db.connection() as conn:
        assert conn is not first
    assert first.closed


async def test_a_failed_statement_closes_its_connection():
    async with loop_db.connection() as conn:
        first = conn
    with pytest.raises(psycopg.errors.UndefinedTable):
        async with loop_db.connection() as conn:
            assert conn is first  # the idle one is reused
            await conn.execute("SELECT * FROM no_such_table")
    assert first.closed
    async with loop_db.connection() as conn:
        assert conn is not first


def _terminate(pid: int) -> None:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])  # waits for its end
