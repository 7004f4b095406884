"""Django's ASGI handler, minus ways a malformed or oversized request cost the server,
with each request's middleware and view run in one hop to a reused thread, and each
request freed by reference counting when it ends (`_Made`), not by the garbage collector.

`GuardedASGIHandler`: a request whose Content-Type names a charset makes
`ASGIRequest.__init__` set its encoding, whose setter parses the query string at once;
more than `DATA_UPLOAD_MAX_NUMBER_FIELDS` parameters then raise `TooManyFieldsSent` (a
SuspiciousOperation) out of `create_request`, where nothing catches it. Here it is
refused like the same request without a charset: 400, `invalid` for the API.

`BodyLimit`: Django reads a whole body into a temporary file (on disk past 2.5 MB)
before it looks at its size, and a chunked body (no Content-Length) was read whole and
then seen as empty by the API. In front of Django, a body over `MAX_REQUEST_BYTES` is
refused with 413 (`too_large` for the API) and the connection closed: at once when its
Content-Length says so, without reading a byte of it, and as soon as a chunked body
passes the limit, without keeping it. A body within the limit is handed on in memory,
with the Content-Length a chunked one lacked. Daphne reads a body before it runs the
application: `daphne_body` gives it the same limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted, SuspiciousOperation
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import (
    FileResponse,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
)
from django.urls import set_script_prefix
from django.utils import translation
from django.utils.translation import gettext as _

from bloqueio_site import languages

Scope = dict[str, Any]
Receive = Any
Send = Any


class _Threads:
    """Single-thread executors for requests, reused: Django gives each request's
    thread-sensitive work a thread of its own (`ThreadSensitiveContext`), and by default
    starts it for the request and starts another to join it afterwards. An executor goes
    back for reuse only once it is idle (a view a client hung up on still runs there)."""

    KEEP = 64  # idle executors kept; more than that are let go

    def __init__(self) -> None:
        self.idle: list[ThreadPoolExecutor] = []
        self.lock = threading.Lock()

    def take(self) -> ThreadPoolExecutor:
        with self.lock:
            if self.idle:
                return self.idle.pop()
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def give(self, executor: ThreadPoolExecutor, *, idle: bool = False) -> None:
        """Back for reuse: at once when the caller knows nothing runs or waits on it
        (`idle`), else once what is queued there has run."""
        def back(_: object = None) -> None:
            with self.lock:
                if len(self.idle) < self.KEEP:
                    self.idle.append(executor)
                    return
            executor.shutdown(wait=False)

        if idle:
            back()
        else:
            executor.submit(lambda: None).add_done_callback(back)


_THREADS = _Threads()


class _Made:
    """The request and response of one handler call, taken apart once it is over.

    Django's request and DRF's view, request and response point at each other (the
    messages storage and the lazy user hold the request, the view holds the response
    whose renderer context holds the view, ...), so none of them was freed when the
    call ended: every API call left ~200 objects to the garbage collector, most of the
    young garbage of a busy web process, and each collection is a pause of every socket
    on it (docs/performance.md, "Pauses"). Emptying them once the call is over (its
    view has returned and its response is closed, whether the client stayed for the
    answer or not) frees the rest by reference counting."""

    def __init__(self) -> None:
        self.request: HttpRequest | None = None
        self.response: HttpResponse | None = None

    def release(self) -> None:
        request, response = self.request, self.response
        self.request = self.response = None
        if request is None or response is None:
            return
        context = getattr(response, "renderer_context", None)
        if isinstance(context, dict):  # DRF's: the view and its Request
            for part in (context.get("view"), context.get("request")):
                if part is not None:
                    vars(part).clear()
            context.clear()
        vars(response).clear()
        vars(request).clear()


_made: ContextVar[_Made | None] = ContextVar("bloqueio_handler_call", default=None)


def _view_done(body_file: Any, hop: asyncio.Future[HttpResponse]) -> None:
    """Whatever became of the call, the body is closed once its view is done with it,
    and a failure of its thread is marked seen (`handle` raises it when it waits for the
    answer; a call cancelled meanwhile has nobody left to tell)."""
    body_file.close()
    if not hop.cancelled():
        hop.exception()


class GuardedASGIHandler(ASGIHandler):
    """Django's handler, with each request's middleware and view in ONE call on the
    request's thread, and that thread reused.

    Over ASGI Django loads the middleware for an asynchronous handler, and every
    middleware here but django-axes' is synchronous: each `process_request` and
    `process_response` of each then ran in a hop of its own between the event loop and
    the request's thread (about a dozen a request, ~2 ms of CPU before any view ran,
    docs/performance.md). Loaded as a synchronous chain, as under WSGI, the hop is one.
    Asynchronous views (/healthz, /livez) still work: Django runs them on the loop."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    def __init__(self) -> None:
        super().__init__()
        self._respond_async = sync_to_async(self._respond, thread_sensitive=True)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = _THREADS.take()
        made = _Made()
        token = _made.set(made)
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        except BaseException:
            _THREADS.give(executor)  # a view cancelled on its way may still run there
            raise
        else:
            _THREADS.give(executor, idle=True)  # `handle` waited for all it ran there
            made.release()  # the view has returned and its response is closed
        finally:
            _made.reset(token)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Django 5.2's `handle`, with the request's thread work in one hop.

        Django hops to the request's thread three times: for `request_started`'s
        receivers, for the middleware and view, and after the answer is sent, to close
        the response (which sends `request_finished`). A hop costs ~130 us of CPU
        (docs/performance.md), a third of a cheap API call's. Here `_respond` does all
        three in one, closing a response whose content is already built before it is
        sent: `request_finished` (which gives the database connection back) then comes
        before the answer's bytes rather than after. A streaming response is closed
        after it is sent, as Django does. As in Django, a client that hangs up before
        its answer gets none, and the view runs on to its end on its thread: this waits
        for it (the request's thread is then free for the next request)."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        hop = asyncio.ensure_future(self._respond_async(scope, body_file))
        hop.add_done_callback(functools.partial(_view_done, body_file))

        async def process_request() -> None:
            response = await asyncio.shield(hop)
            with contextlib.suppress(asyncio.CancelledError):  # the client hung up
                await self.send_response(response, send)

        tasks = [asyncio.create_task(self.listen_for_disconnect(receive)),
                 asyncio.create_task(process_request())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:  # this call cancelled too (a server stopping): stop both before leaving
            for task in tasks:
                task.cancel()  # nothing for one that is done
            outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        failed = [o for o in outcomes if isinstance(o, BaseException)
                  and not isinstance(o, asyncio.CancelledError)]
        del outcomes, tasks
        if failed:
            raise failed[0]  # Django's too: a message after the body that is no disconnect
        response = await asyncio.shield(hop)  # the view's thread has finished, answered or not
        if not response.closed:  # a streaming response: closed once sent (or dropped)
            await sync_to_async(response.close)()

    def _respond(self, scope: Scope, body_file: Any) -> HttpResponse:
        """On the request's thread: `request_started`, the request, the middleware and
        view, and the response closed unless it streams."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            made = _made.get()
            if made is not None:
                made.response = response
        assert response is not None
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        if not response.streaming:
            try:
                response.close()
            except Exception:  # a `request_finished` receiver: the answer still goes out
                logging.getLogger("django.request").exception(
                    "Closing the response of %s failed", scope.get("path"))
        return response

    async def listen_for_disconnect(self, receive: Receive) -> None:
        """Django's, but a disconnect returns instead of raising `RequestAborted`.

        Django 5.2's `handle` runs this beside the request and cancels the request when
        this finishes first, and it ignores `RequestAborted` from here: returning is the
        same to it. Raised, the exception was re-raised in `handle`'s frame by
        `task.result()`, so its traceback held that frame, whose `tasks` held the task
        that held the exception: a cycle through the whole request that only the
        garbage collector could free (Django ticket #36700)."""
        message = await receive()
        if message["type"] != "http.disconnect":
            raise AssertionError(f"Invalid ASGI message after request body: {message['type']}")

    def create_request(self, scope: dict[str, Any], body_file: Any
                       ) -> tuple[Any, HttpResponse | None]:
        try:
            request, error = super().create_request(scope, body_file)
            made = _made.get()
            if made is not None:
                made.request = request
            return request, error
        except SuspiciousOperation as exc:
            logging.getLogger(f"django.security.{type(exc).__name__}").warning("%s", exc)
            if scope.get("path", "").startswith("/api/"):
                # No middleware has run: the language comes from the request's headers.
                with translation.override(languages.from_headers(scope.get("headers", []))):
                    detail = _("The request is malformed: %(error)s") % {"error": exc}
                return None, JsonResponse({"code": "invalid", "detail": detail}, status=400)
            return None, HttpResponseBadRequest()


def declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The request's Content-Length, or None when it has none (or none the server would
    frame the body by: the server refuses those itself)."""
    for name, value in headers:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimit:
    """ASGI middleware: a body over `MAX_REQUEST_BYTES` never reaches the application
    (see the module docstring). Server-neutral: it sees only ASGI messages."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE  # MAX_REQUEST_BYTES
        declared = declared_length(scope.get("headers", []))
        if declared is not None and declared > limit:
            await too_large(scope, send, limit)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # http.disconnect: nobody to answer
                return
            body += message.get("body", b"")
            if len(body) > limit:
                await too_large(scope, send, limit)
                return
            more = message.get("more_body", False)
        if declared is None and body:
            # Chunked: tell Django (and DRF, which reads no body without it) its length.
            scope = dict(scope, headers=[*scope["headers"],
                                         (b"content-length", str(len(body)).encode())])
        pending: list[dict[str, Any]] = [
            {"type": "http.request", "body": bytes(body), "more_body": False}]

        async def replay() -> dict[str, Any]:
            # The body once, then the server's own messages (http.disconnect).
            return pending.pop() if pending else await receive()

        await self.app(scope, replay, send)


def too_large_answer(path: str, limit: int, headers: Iterable[tuple[bytes, bytes]] = ()
                     ) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The 413's headers and body: `too_large` JSON for the API, text elsewhere, and
    `Connection: close` so the server stops reading the rest of the body. Its words are
    in the language the request's cookie or Accept-Language asks for (`headers`: no
    Django middleware has run, so no language is active yet)."""
    language = languages.from_headers(headers)
    with translation.override(language):
        detail = _("The request body is too large (at most %(limit)s bytes).") % {
            "limit": limit}
    if path.startswith("/api/"):
        body = json.dumps({"code": "too_large", "detail": detail}).encode()
        kind = b"application/json"
    else:
        body, kind = detail.encode(), b"text/plain; charset=utf-8"
    return [(b"content-type", kind), (b"content-length", str(len(body)).encode()),
            (b"content-language", language.encode()), (b"vary", b"Accept-Language, Cookie"),
            (b"connection", b"close")], body


async def too_large(scope: Scope, send: Send, limit: int) -> None:
    headers, body = too_large_answer(scope.get("path", ""), limit, scope.get("headers", []))
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})
