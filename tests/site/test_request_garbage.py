"""An API call, a socket's open read on a worker thread and a socket's hello are freed
by reference counting when they end, not left to the garbage collector, whose collections
pause every socket of the process (bloqueio_site/asgi_http.py, `_Made`;
bloqueio_site/api_input.py; bloqueio_site/off_loop.py; games/selectors.py,
`detach_seats`; docs/performance.md, "Pauses")."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import socket
import threading
import types
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
import websockets
from channels.testing import WebsocketCommunicator
from django.core.signals import request_finished, request_started
from rest_framework.exceptions import ValidationError

from accounts import credentials
from bloqueio_site.api_input import validated
from bloqueio_site.asgi import application
from bloqueio_site.uvicorn_ws import BloqueioWebSocketProtocol
from games import services
from games.api.serializers import CreateGameIn
from games.live import fanout, hello
from tests.threads import closing
from tests.waiting import await_for
from tests.ws_helpers import LOCAL, receive_type, token_headers

pytestmark = pytest.mark.django_db(transaction=True)

# What one API call built: Django's request, DRF's request, view and response, the
# handler's tasks and the frames a raised disconnect kept, the input serializer.
REQUEST_GRAPH = {"ASGIRequest", "Request", "Response", "JoinView", "Task", "frame",
                 "traceback", "RequestAborted", "JoinIn", "BindingDict"}


def scope(method: str, path: str, token: str | None) -> dict[str, Any]:
    headers = [(b"host", b"localhost"), (b"content-type", b"application/json")]
    if token:
        headers.append((b"authorization", f"Token {token}".encode()))
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
            "query_string": b"", "root_path": "", "headers": headers,
            "client": ("127.0.0.1", 1234), "server": ("localhost", 80)}


async def serve(request: dict[str, Any], body: bytes, *, hang_up: bool = False,
                log: list[str] | None = None) -> list[dict[str, Any]]:
    """One request through the site's ASGI application, the way uvicorn serves it: after
    the body, `receive` answers `http.disconnect` once the whole response is sent; what it
    sends also goes into `log`, if given. With `hang_up` the client is gone as soon as
    the body is read, and the view (held by a `request_started` receiver) goes on only
    once the handler has seen the disconnect: it always finishes after its client left."""
    sent: list[dict[str, Any]] = []
    answered = asyncio.Event()
    pending = [{"type": "http.request", "body": body, "more_body": False}]
    loop = asyncio.get_running_loop()
    hold = threading.Event()

    def held(sender: object, **_: Any) -> None:
        assert hold.wait(10), "the handler never saw the disconnect"

    async def receive() -> dict[str, Any]:
        if pending:
            return pending.pop()
        if hang_up:
            loop.call_later(0.05, hold.set)  # the listener returns, the answer is dropped
        else:
            await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if log is not None:
            log.append(message["type"])
        if message["type"] == "http.response.body" and not message.get("more_body"):
            answered.set()

    if hang_up:
        request_started.connect(held)
    try:
        await application(request, receive, send)
    finally:
        request_started.disconnect(held)
    return sent


class Garbage(set[str]):
    """The type names of what a collection found unreachable, and the objects."""

    objects: list[Any]


# Where a request's own frames run: Django's handler, DRF, asgiref's thread hop, ours;
# and a thread hop's (asgiref, the executor, ours, and this file's own blocks).
REQUEST_CODE = ("django/core/handlers/", "rest_framework/", "asgiref/",
                "bloqueio_site/asgi_http")
HOP_CODE = ("asgiref/", "concurrent/futures/", "bloqueio_site/", "accounts/", "games/",
            "tests/site/test_request_garbage")


def request_frames(objects: list[Any], code: tuple[str, ...] = REQUEST_CODE) -> list[str]:
    """The frames and tracebacks among `objects` that `code` made. The block's
    collection also finds what other threads left meanwhile (a pool's worker, a socket
    of an earlier test still closing): their frames are not the block's."""
    found = []
    for thing in objects:
        frame = thing.tb_frame if isinstance(thing, types.TracebackType) else thing
        if isinstance(frame, types.FrameType) and any(
                part in frame.f_code.co_filename for part in code):
            found.append(f"{type(thing).__name__} of {frame.f_code.co_name}")
    return found


@contextmanager
def collected() -> Iterator[Garbage]:
    """The type names (and the objects) of what the garbage collector finds unreachable
    among what the block makes (what came before is collected first, as usual)."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    found = Garbage()
    try:
        yield found
        gc.collect()
        found.update(type(thing).__name__ for thing in gc.garbage)
        found.objects = list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


async def test_a_join_leaves_its_request_to_reference_counting(alice, bob):
    game = await asyncio.to_thread(closing(services.create_game), user=alice, kind="bloqueio")
    with collected() as found:
        sent = await serve(scope("POST", f"/api/games/{game.id}/join/",
                                 bob.auth_token.key), b"{}")
    assert sent[0]["status"] == 200
    answer = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
    assert [s["username"] for s in answer["seats"]][:2] == ["alice", "bob"]
    left = sorted(found & (REQUEST_GRAPH - {"frame", "traceback"}))
    left += request_frames(found.objects)
    assert not left, f"an API call left {left} to the garbage collector"


async def test_a_client_gone_before_its_answer_gets_none_and_the_request_finishes(alice):
    finished: list[object] = []

    def note(sender: object, **_: Any) -> None:
        finished.append(sender)

    request_finished.connect(note)
    try:
        sent = await serve(scope("GET", "/api/kinds/", alice.auth_token.key), b"",
                           hang_up=True)
    finally:
        request_finished.disconnect(note)
    assert sent == []  # the answer of a view whose client left is dropped, not written
    assert finished  # and Django still said the request finished (connections closed)


@pytest.mark.parametrize("data", [{"kind": "bloqueio", "bots": ["easy", "hard"]},
                                  {"kind": "bloqueio", "bots": ["nobody"]}])
def test_validated_input_leaves_no_serializer_behind(data):
    with collected() as found:
        try:
            assert validated(CreateGameIn, data)["bots"] == data["bots"]
        except ValidationError as refused:
            assert "bots" in refused.detail
    fields = found & {"CreateGameIn", "BindingDict", "KindField", "StrictBooleanField",
                      "TimeControlField", "ListField", "ChoiceField"}
    assert not fields, f"fields left to the collector: {sorted(fields)}"


async def test_an_open_read_on_a_worker_thread_leaves_nothing_behind(alice, bob, settings):
    """The loop cannot read (its connections off): the token's user and the hello are
    read on a worker thread, and neither the loop's `Unusable` nor the thread hop it was
    once carried into is left in a cycle."""
    game = await asyncio.to_thread(closing(services.create_game), user=alice, kind="bloqueio")
    settings.LOOP_DB_CONNECTIONS = 0
    before = hello.counts["on_thread"]
    with collected() as found:
        user = await credentials.auser_for_key(bob.auth_token.key)
        read = await hello.aread(game.id, user)
    assert user is not None and user.pk == bob.pk
    assert read.game is not None and read.game["id"] == game.id
    assert hello.counts["on_thread"] == before + 1  # it did take the thread path
    left = sorted(found & {"Unusable", "_WorkItem", "Task", "Game", "Seat"})
    left += request_frames(found.objects, HOP_CODE)
    assert not left, f"a read on a thread left {left} to the garbage collector"


async def test_a_hello_read_on_the_loop_leaves_no_game_behind(alice, bob):
    """A game read with its seats (every socket's hello) is plain data once the hello is
    made: the game and its seats, which point at each other, are let go."""
    game = await asyncio.to_thread(closing(services.create_game), user=alice, kind="bloqueio")
    await asyncio.to_thread(closing(services.join_game), game_id=game.id, user=bob)
    await hello.aread(game.id, bob)  # the loop's connection is opened outside the count
    before = hello.counts["on_loop"]
    with collected() as found:
        read = await hello.aread(game.id, bob)
    assert hello.counts["on_loop"] == before + 1
    assert read.seat == 1 and [s["username"] for s in read.game["seats"]][:2] == [
        "alice", "bob"]
    left = found & {"Game", "Seat", "User", "QuerySet"}
    assert not left, f"a hello left {sorted(left)} to the garbage collector"


async def test_off_loop_inside_an_except_carries_no_exception_into_its_thread():
    """asgiref hands the exception being handled to the worker thread and raises it there
    again, so that the function sees it in `sys.exc_info()`; its traceback then held the
    thread hop's frames, work item and futures in a cycle (~140 objects a call). No
    function run off the loop reads the caller's exception: `off_loop` hands none over."""
    import sys

    from bloqueio_site.off_loop import off_loop

    def seen() -> bool:  # (not the exception itself: the test would then hold it)
        return sys.exc_info()[1] is not None

    await off_loop(seen)()  # the pool's thread is started outside the count
    with collected() as found:
        try:
            raise LookupError("handled here")
        except LookupError:
            inside = await off_loop(seen)()
    assert inside is False
    left = sorted(found & {"LookupError", "_WorkItem", "Future", "Task"})
    left += request_frames(found.objects, HOP_CODE)
    assert not left, f"off_loop inside an except left {left} to the collector"


async def _game_socket_session(port: int | None, game_id: int, token: str,
                               while_open: Callable[[], None] = lambda: None) -> None:
    """Open a player's socket on `game_id`, read its hello, call `while_open`, close it;
    through uvicorn on `port` (a real connection), else through `WebsocketCommunicator`."""
    if port is None:
        comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/",
                                     headers=[*LOCAL, *token_headers(token)])
        assert (await comm.connect())[0]
        await receive_type(comm, "hello")
        while_open()
        await comm.disconnect()
        return
    async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/games/{game_id}/", open_timeout=10,
            additional_headers={"Origin": f"http://127.0.0.1:{port}",
                                "Authorization": f"Token {token}"}) as ws:
        assert json.loads(await ws.recv())["type"] == "hello"
        while_open()


def consumer_of(game_id: int) -> weakref.ref[Any]:
    """The one socket consumer on `game_id`'s topic in this process, weakly."""
    [consumer] = fanout.hub().listeners[fanout.game_topic(game_id)]
    return weakref.ref(consumer)


async def all_freed(refs: list[weakref.ref[Any]]) -> None:
    """Wait until every one of `refs` is freed (by reference counting: the collector is
    off in `collected`), or a deadline passes: then the collector's findings say why."""
    with contextlib.suppress(AssertionError):
        await await_for(lambda: all(ref() is None for ref in refs), "the socket to be freed",
                        seconds=10)


async def test_a_closed_socket_leaves_its_consumer_to_reference_counting(alice, bob):
    """A game socket's consumer, its outbox and its cancelled heartbeat are freed when the
    socket ends (games/live/sockets.py `_let_go`, games/live/outbox.py `stop`): left in
    cycles, every socket closed since a process's last middle collection was walked by
    it (~60 objects each, docs/performance.md)."""
    game = await asyncio.to_thread(closing(services.create_game), user=alice, kind="bloqueio")
    await asyncio.to_thread(closing(services.join_game), game_id=game.id, user=bob)
    token = bob.auth_token.key
    await _game_socket_session(None, game.id, token)  # the loop's connection, the hub
    refs: list[weakref.ref[Any]] = []
    with collected() as found:
        await _game_socket_session(None, game.id, token,
                                   lambda: refs.append(consumer_of(game.id)))
        await all_freed(refs)  # its cancelled heartbeat's last step, say
    left = sorted(found & {"GameConsumer", "Outbox", "TokenBucket", "CancelledError"})
    left += request_frames(found.objects, ("games/live/",))
    assert not left, f"a closed socket left {left} to the garbage collector"
    assert refs and refs[0]() is None  # it was freed, so nothing of it is still to come


async def test_a_closed_connection_leaves_uvicorns_protocol_to_reference_counting(
        alice, bob):
    """Through uvicorn itself, as production serves (bloqueio_site/uvicorn_ws.py): the
    protocol, websockets' connection and its parser are freed when the connection goes,
    the consumer with them."""
    game = await asyncio.to_thread(closing(services.create_game), user=alice, kind="bloqueio")
    await asyncio.to_thread(closing(services.join_game), game_id=game.id, user=bob)
    listening = socket.socket()  # bound here: no other process can take the port
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(
        application, ws=BloqueioWebSocketProtocol, ws_per_message_deflate=False,
        lifespan="off", log_config=None, log_level="warning"))
    serving = asyncio.create_task(server.serve(sockets=[listening]))
    try:
        for _ in range(500):
            if server.started:
                break
            await asyncio.sleep(0.01)
        assert server.started
        token = bob.auth_token.key
        await _game_socket_session(port, game.id, token)
        refs: list[weakref.ref[Any]] = []

        def note() -> None:  # the connection's protocol and the socket's consumer
            refs.extend(weakref.ref(c) for c in server.server_state.connections)
            refs.append(consumer_of(game.id))

        with collected() as found:
            await _game_socket_session(port, game.id, token, note)
            await all_freed(refs)
        assert not server.server_state.connections and not server.server_state.tasks
        left = sorted(found & {"BloqueioWebSocketProtocol", "ServerProtocol", "GameConsumer",
                               "Outbox"})
        assert not left, f"a closed connection left {left} to the garbage collector"
        assert len(refs) == 2 and all(ref() is None for ref in refs)  # both were freed
    finally:
        server.should_exit = True
        await serving
