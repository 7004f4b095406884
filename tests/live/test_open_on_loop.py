"""A socket's open reads on the event loop's own connection (bloqueio_site/loop_db.py
`fetch_one`): its token's user (accounts/credentials.py `auser_for_key`) and its hello
(games/live/hello.py `aread`). What it reads there is what the worker-thread reads say,
and whatever needs more of the database (a private game, a chat history, an unknown
game) or cannot be read on the loop (writes off, a failed read) is decided on a thread."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import ProgrammingError, connections

from accounts import credentials
from bloqueio_site import loop_db
from bloqueio_site.asgi import application
from chat import services as chat_services
from games import services
from games.live import hello
from games.live.frames import CLOSE_UNAUTHORIZED
from tests.ws_helpers import LOCAL, receive_type, seat_four, token_headers

pytestmark = pytest.mark.django_db(transaction=True)


def _headers(user: Any | None) -> list[tuple[bytes, bytes]]:
    return LOCAL if user is None else [*LOCAL, *token_headers(user.auth_token.key)]


async def _hello(gid: int, user: Any | None = None,
                 path: str = "") -> tuple[WebsocketCommunicator, dict[str, Any]]:
    comm = WebsocketCommunicator(application, f"/ws/games/{gid}/{path}",
                                 headers=_headers(user))
    assert (await comm.connect())[0]
    return comm, await receive_type(comm, "hello")


def _as_thread_reads_it(gid: int, user: Any | None) -> hello.Hello:
    return hello.read(gid, user)


async def test_a_public_games_open_reads_only_on_the_loop() -> None:
    gid, users = await seat_four()
    reads, done = loop_db.counts["reads"], hello.counts.copy()
    comm, frame = await _hello(gid, users[2])
    # The token's user, then the hello and, beside it, the token again (after the socket
    # joined its account's topic: a revocation meanwhile is seen, accounts/ws_auth.py).
    assert loop_db.counts["reads"] == reads + 3
    assert hello.counts == {**done, "on_loop": done["on_loop"] + 1}
    assert frame["you"] == {"seat": 2}
    expected = await sync_to_async(_as_thread_reads_it)(gid, users[2])
    assert {k: v for k, v in frame["game"].items() if k != "presence"} == expected.game
    watcher, frame = await _hello(gid)  # a spectator: no token, one read
    assert loop_db.counts["reads"] == reads + 4
    assert frame["you"] == {"seat": None}
    for socket in (comm, watcher):
        await socket.disconnect()


async def test_the_token_read_on_the_loop_is_the_thread_reads_user() -> None:
    _, users = await seat_four()
    key = users[1].auth_token.key
    on_loop = await credentials.auser_for_key(key)
    on_thread = await sync_to_async(credentials.user_for_key)(key)
    assert on_loop is not None and on_thread is not None
    fields = [f.attname for f in type(on_loop)._meta.concrete_fields]
    assert [getattr(on_loop, f) for f in fields] == [getattr(on_thread, f) for f in fields]
    assert on_loop._state.db == on_thread._state.db and not on_loop._state.adding
    assert await credentials.auser_for_key("0" * 40) is None
    assert await credentials.auser_for_key("no\x00key") is None


async def test_an_unknown_token_is_refused_from_the_loop_read() -> None:
    gid, _ = await seat_four()
    reads = loop_db.counts["reads"]
    comm = WebsocketCommunicator(application, f"/ws/games/{gid}/",
                                 headers=[*LOCAL, *token_headers("f" * 40)])
    await comm.connect()
    assert (await comm.receive_json_from(timeout=3))["code"] == "authentication_failed"
    assert (await comm.receive_output(timeout=3))["code"] == CLOSE_UNAUTHORIZED
    assert loop_db.counts["reads"] == reads + 1  # the token's, on the loop; no hello


async def test_an_inactive_account_is_refused_by_the_loop_hello() -> None:
    gid, users = await seat_four()

    def _session_user() -> Any:
        from accounts.models import User

        user = User.objects.get(pk=users[3].pk)
        User.objects.filter(pk=user.pk).update(is_active=False)
        return user

    gone = await sync_to_async(_session_user)()
    assert await hello.aread(gid, gone) == hello.Hello(active=False)


async def test_a_private_game_is_decided_on_a_thread() -> None:
    _, users = await seat_four()
    private = await sync_to_async(services.create_game)(user=users[0], kind="bloqueio",
                                                         private=True)
    done = hello.counts.copy()
    # Not invited: no such game, as the thread read says.
    assert await hello.aread(private.pk, users[1]) == hello.Hello(active=True)
    # The creator sees it; with the invitation token, so does anyone.
    assert (await hello.aread(private.pk, users[0])).game["id"] == private.pk
    seen = await hello.aread(private.pk, users[2], [private.invite_token])
    assert seen.game["private"] is True
    assert hello.counts["on_thread"] == done["on_thread"] + 3
    assert hello.counts["on_loop"] == done["on_loop"]


async def test_a_game_with_chat_sends_its_history_read_on_a_thread() -> None:
    gid, users = await seat_four()
    await sync_to_async(chat_services.post_message)(game_id=gid, user=users[0],
                                                     text="good luck")
    done = hello.counts.copy()
    found = await hello.aread(gid, users[1])
    assert hello.counts["on_thread"] == done["on_thread"] + 1
    [(_, messages)] = found.histories
    assert [m["text"] for m in messages] == ["good luck"]
    assert found == await sync_to_async(_as_thread_reads_it)(gid, users[1])


async def test_an_unknown_game_reads_as_none() -> None:
    _, users = await seat_four()
    assert await hello.aread(987654321, users[0]) == hello.Hello(active=True)
    assert await hello.aread(987654321, None) == hello.Hello(active=True)


async def _opens_on_a_thread(gid: int, user: Any, seat: int) -> None:
    """`user`'s socket opens, token and hello read by the worker-thread path."""
    reads, done = loop_db.counts["reads"], hello.counts.copy()
    comm, frame = await _hello(gid, user)
    assert frame["you"] == {"seat": seat}
    assert loop_db.counts["reads"] == reads
    assert hello.counts["on_thread"] == done["on_thread"] + 1
    await comm.disconnect()


async def test_with_the_loops_connections_off_the_open_reads_on_threads(settings) -> None:
    gid, users = await seat_four()
    settings.LOOP_DB_CONNECTIONS = 0
    await _opens_on_a_thread(gid, users[1], 1)


async def test_a_statement_that_fails_on_a_sound_connection_raises_djangos_error() -> None:
    """As the thread's read would (a socket's open answers it `unavailable`); the
    connection is closed, not handed out again."""
    async with loop_db.connection() as conn:
        first = conn
    with pytest.raises(ProgrammingError):
        await loop_db.fetch_one("SELECT * FROM no_such_table", [])
    assert first.closed
    assert await loop_db.fetch_one("SELECT %s::int", [7]) == (7,)


async def test_a_read_whose_connection_dies_under_it_is_unusable() -> None:
    """The caller then reads again on a worker thread, through the pool."""
    with pytest.raises(loop_db.Unusable, match="failed under the read"):
        await loop_db.fetch_one("SELECT pg_terminate_backend(pg_backend_pid())", [])
    assert await loop_db.fetch_one("SELECT 1", []) == (1,)


async def test_reads_never_queue_behind_the_moves(settings) -> None:
    """With every loop connection borrowed (a move's commit in flight), an open's reads
    go to a worker thread at once instead of waiting their turn."""
    gid, users = await seat_four()
    settings.LOOP_DB_CONNECTIONS = 1
    held, release = asyncio.Event(), asyncio.Event()

    async def a_move() -> None:
        async with loop_db.connection():
            held.set()
            await release.wait()

    move = asyncio.ensure_future(a_move())
    await held.wait()
    try:
        with pytest.raises(loop_db.Unusable, match="busy"):
            await loop_db.fetch_one("SELECT 1", [])
        await _opens_on_a_thread(gid, users[2], 2)
    finally:
        release.set()
        await move
    assert await loop_db.fetch_one("SELECT 1", []) == (1,)


async def test_the_loops_sessions_read_datetimes_in_djangos_zone(monkeypatch) -> None:
    """Django's loaders label a timestamp with Django's zone (UTC) as the session wrote
    it: a loop connection whose server speaks another zone is set to Django's first, as
    Django's own are. (PGTZ: libpq asks the server for this zone at connect.)"""
    monkeypatch.setenv("PGTZ", "America/Sao_Paulo")
    loop_db.close_all()
    instant = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    assert await loop_db.fetch_one("SELECT %s::timestamptz", [instant]) == (instant,)
    assert await loop_db.fetch_one("SHOW TimeZone", []) == ("UTC",)
    gid, users = await seat_four()
    _, frame = await _hello(gid, users[0])
    expected = await sync_to_async(_as_thread_reads_it)(gid, users[0])
    assert frame["game"]["started_at"] == expected.game["started_at"]
    on_loop = await credentials.auser_for_key(users[0].auth_token.key)
    assert on_loop is not None and on_loop.date_joined == users[0].date_joined


async def test_when_the_loop_cannot_read_the_open_reads_on_a_thread() -> None:
    """A connect that failed a moment ago (`Unusable` at once, no try): the token and
    the hello are read by the worker-thread path, with the same answers."""
    gid, users = await seat_four()
    async with loop_db.connection():
        pass
    loop_db._loops[asyncio.get_running_loop()].down_until = time.monotonic() + 60
    loop_db.close_all()  # no idle connection left to read on
    await _opens_on_a_thread(gid, users[0], 0)


async def test_a_loop_connection_the_server_ended_is_not_read_on() -> None:
    async with loop_db.connection() as conn:
        pid = conn.info.backend_pid

    def _end() -> None:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])

    await sync_to_async(_end)()
    assert await loop_db.fetch_one("SELECT pg_backend_pid()", []) != (pid,)

