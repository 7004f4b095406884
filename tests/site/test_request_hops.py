"""An API call hops from the event loop to its request's thread once: `request_started`,
the middleware and view, and the response's close (`request_finished`) run in that one
call (bloqueio_site/asgi_http.py, `GuardedASGIHandler.handle`), where Django makes three
hops and the thread's return for reuse a fourth (docs/performance.md)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest
from django.core.signals import request_finished, request_started

from bloqueio_site import asgi_http
from bloqueio_site.asgi import application
from games import services
from tests.live.servers import ROOT
from tests.site.test_request_garbage import scope, serve
from tests.threads import closing
from tests.waiting import await_for

pytestmark = pytest.mark.django_db(transaction=True)


class CountingExecutor(ThreadPoolExecutor):
    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.calls = 0

    def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
        self.calls += 1
        return super().submit(*args, **kwargs)


class IdleList(list[ThreadPoolExecutor]):
    """`_Threads.idle`, telling the test when an executor comes back (from any thread)."""

    def __init__(self) -> None:
        super().__init__()
        self.back = threading.Event()

    def append(self, executor: ThreadPoolExecutor) -> None:
        super().append(executor)
        self.back.set()


class CountingThreads(asgi_http._Threads):
    def __init__(self) -> None:
        super().__init__()
        self.made: list[CountingExecutor] = []
        self.idle = IdleList()

    def take(self) -> ThreadPoolExecutor:
        executor = CountingExecutor()
        self.made.append(executor)
        return executor


@pytest.fixture
def threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[CountingThreads]:
    counting = CountingThreads()
    monkeypatch.setattr(asgi_http, "_THREADS", counting)
    yield counting
    for executor in counting.made:
        executor.shutdown(wait=True)


@pytest.fixture
def log() -> Iterator[list[str]]:
    """What happened, in order: the request's signals and what the server was sent."""
    seen: list[str] = []

    def started(sender: object, **_: Any) -> None:
        seen.append("started")

    def finished(sender: object, **_: Any) -> None:
        seen.append("finished")

    request_started.connect(started)
    request_finished.connect(finished)
    yield seen
    request_started.disconnect(started)
    request_finished.disconnect(finished)


async def test_a_read_runs_on_its_thread_in_one_hop(alice, bob, threads, log):
    game = await asyncio.to_thread(closing(services.create_game), user=alice, kind="bloqueio")
    log.clear()
    sent = await serve(scope("GET", f"/api/games/{game.id}/", bob.auth_token.key), b"", log=log)
    assert sent[0]["status"] == 200
    assert json.loads(sent[1]["body"])["id"] == game.id
    [executor] = threads.made
    assert executor.calls == 1
    # The response is closed (`request_finished`, its connection given back) before a
    # byte of it is written: docs/operations.md, "Thread hops".
    assert log == ["started", "finished", "http.response.start", "http.response.body"]
    assert threads.idle == [executor]  # back for reuse at once, nothing queued on it


async def test_a_refused_write_is_one_hop_too(alice, threads, log):
    sent = await serve(scope("POST", "/api/games/", alice.auth_token.key),
                       b'{"kind": "chess"}', log=log)
    assert sent[0]["status"] == 400
    assert json.loads(sent[1]["body"])["code"] == "invalid"
    assert [e.calls for e in threads.made] == [1]
    assert log == ["started", "finished", "http.response.start", "http.response.body"]


async def test_a_client_gone_before_its_answer_gets_none_and_one_hop(alice, threads, log):
    sent = await serve(scope("GET", "/api/kinds/", alice.auth_token.key), b"", log=log,
                       hang_up=True)
    assert sent == []  # the view finished after its client left: nothing written
    assert log == ["started", "finished"]  # once: the view's own close sent it
    assert [e.calls for e in threads.made] == [1]
    assert threads.idle == threads.made  # the handler waited for the view: free at once


# whitenoise 6 streams a synchronous iterator, which Django's ASGI handler reads whole on
# the request's thread, saying so (docs/operations.md, "Production checklist").
@pytest.mark.filterwarnings("ignore:StreamingHttpResponse must consume synchronous iterators")
async def test_a_static_file_streams_and_is_closed_once_sent(threads, log):
    """A streaming response (WhiteNoise's file) keeps Django's order: its bytes first,
    then its close (`request_finished`), on the request's own thread."""
    where: list[str] = []

    def thread(sender: object, **_: Any) -> None:
        where.append(threading.current_thread().name)

    request_started.connect(thread)
    request_finished.connect(thread)
    try:
        sent = await serve(scope("GET", "/static/js/socket.js", None), b"", log=log)
    finally:
        request_started.disconnect(thread)
        request_finished.disconnect(thread)
    assert sent[0]["status"] == 200
    assert b"".join(m.get("body", b"") for m in sent[1:]) == (
        ROOT / "static" / "js" / "socket.js").read_bytes()
    assert log[:2] == ["started", "http.response.start"]
    assert log[-1] == "finished" and log.count("finished") == 1
    [executor] = threads.made
    assert threads.idle == [executor]
    assert len(where) == 2 and where[0] == where[1]  # started and closed on one thread


async def test_a_call_cancelled_while_its_view_runs_sends_nothing(alice, threads, log):
    """A server stopping cancels the handler's call while the view still runs on its
    thread: the call ends at once with nothing sent, the view runs to its end (its
    response closed), and its thread is reused only after that."""
    view_may_go, view_runs = threading.Event(), threading.Event()

    def held(sender: object, **_: Any) -> None:
        view_runs.set()
        assert view_may_go.wait(10)

    pending = [{"type": "http.request", "body": b"", "more_body": False}]
    never = asyncio.Event()
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if pending:
            return pending.pop()
        await never.wait()  # the client stays
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    call: asyncio.Task[None] | None = None
    before = asyncio.all_tasks()
    request_started.connect(held)
    try:
        call = asyncio.create_task(application(
            scope("GET", "/api/kinds/", alice.auth_token.key), receive, send))
        assert await asyncio.to_thread(view_runs.wait, 10)
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(call, 5)
        [executor] = threads.made
        assert threads.idle == []  # its view still runs there
        view_may_go.set()
        assert await asyncio.to_thread(threads.idle.back.wait, 10)
        # Every task the call started has ended (a task left running could still send).
        await await_for(lambda: not asyncio.all_tasks() - before - {asyncio.current_task()},
                        "the call's tasks to end")
    finally:
        view_may_go.set()
        if call is not None:  # nothing for a call already ended; none left behind otherwise
            call.cancel()
        request_started.disconnect(held)
    assert threads.idle == [executor]  # back once the view was done
    assert sent == []
    assert log == ["started", "finished"]  # the view's own close ran on its thread
