"""Settings of autobahn (Daphne's WebSocket engine) that Daphne does not expose.

`close_with_code`: a protocol failure, such as a message over Daphne's
`--websocket-max-message-size` (1 MiB), closes with a close frame (1009 and a reason)
instead of autobahn's default "fail by drop", a bare TCP close the client cannot tell
from a crash; and the application may close with 1012 or 1013 as well.

`graceful_stop`: on SIGTERM sockets drain and close with 1012, as under uvicorn.

`quiet_autobahn`: stop autobahn from formatting a discarded debug line for every frame.

`WebSocketProtocol.sendData` and friends call `log.debug(..., func=hltype(...),
peer=hlval(...))`: the ANSI-coloured arguments are built before the logger drops the line,
for every frame on every socket. Profiled under load (docs/performance.md) that was ~5 %
of the server's interpreter time. Unless autobahn's debug logging is on, its protocol
module gets helpers that return the empty string (they only ever feed log arguments).
"""

from __future__ import annotations

from typing import Any


def _blank(*args: Any, **kwargs: Any) -> str:
    return ""


def quiet_autobahn() -> bool:
    """Patch autobahn's protocol module; False (and nothing done) if debug logs are on."""
    try:
        import txaio
        from autobahn.websocket import protocol
    except ImportError:  # not served by Daphne/autobahn
        return False
    if txaio.get_global_log_level() in ("debug", "trace"):
        return False
    protocol.hltype = _blank  # type: ignore[attr-defined]
    protocol.hlval = _blank  # type: ignore[attr-defined]
    return True


# Close codes a server may send (RFC 6455 7.4.1, IANA registry): autobahn's `sendClose`
# takes only 1000 and 3000-4999, so Daphne could not send 1012 (service restart) or 1013
# (try again later, games.live.outbox).
_SENDABLE = frozenset({1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014})


def close_with_code() -> bool:
    """Make Daphne fail connections with a close frame, and close a socket with any close
    code a server may send; False if Daphne is not installed."""
    try:
        from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
    except ImportError:
        return False
    if getattr(WebSocketFactory, "_closes_with_code", False):
        return True
    set_options, server_close = WebSocketFactory.setProtocolOptions, WebSocketProtocol.serverClose

    def set_protocol_options(self: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("failByDrop", False)
        set_options(self, *args, **kwargs)

    def close_any_code(self: Any, code: int | None = None) -> None:
        if code in _SENDABLE:
            self.sendCloseFrame(code=code, isReply=False)
        else:
            server_close(self, code)

    WebSocketFactory.setProtocolOptions = set_protocol_options  # type: ignore[method-assign]
    WebSocketProtocol.serverClose = close_any_code  # type: ignore[method-assign]
    WebSocketFactory._closes_with_code = True  # type: ignore[attr-defined]
    return True


def graceful_stop() -> bool:
    """Daphne's stop as uvicorn's (bloqueio_site.uvicorn_ws): on SIGTERM every socket stops
    reading, its application finishes what it was handed (bloqueio_site.drain), and it
    closes with 1012 (service restart); only then are the applications cancelled.
    Daphne alone cancels them at once and drops the sockets without a close frame."""
    try:
        from daphne.server import Server
        from daphne.ws_protocol import WebSocketProtocol
        from twisted.internet import defer
    except ImportError:
        return False
    if getattr(Server, "_graceful", False):
        return True
    import asyncio

    from bloqueio_site.drain import CLOSE_TIMEOUT, DRAIN_SECONDS, SCOPE_KEY, Drain

    create, on_message, kill = (Server.create_application, WebSocketProtocol.onMessage,
                                Server.kill_all_applications)

    def create_application(self: Any, protocol: Any, scope: dict[str, Any]) -> Any:
        if scope.get("type") == "websocket":
            protocol.drain = Drain()
            scope = {**scope, "extensions": {**scope.get("extensions", {}),
                                             SCOPE_KEY: protocol.drain}}
        return create(self, protocol, scope)

    def counted_on_message(self: Any, payload: bytes, is_binary: bool) -> None:
        drain = getattr(self, "drain", None)
        if drain is not None and not self.muted:
            drain.handed += 1
        on_message(self, payload, is_binary)

    async def close_sockets(server: Any) -> None:
        loop = asyncio.get_running_loop()
        sockets = [p for p in list(server.connections) if isinstance(p, WebSocketProtocol)
                   and p.state == WebSocketProtocol.STATE_OPEN]
        for protocol in sockets:
            protocol.transport.pauseProducing()  # nothing new from the clients
        deadline = loop.time() + DRAIN_SECONDS
        while loop.time() < deadline and any(  # noqa: ASYNC110 - no hook on a drain
                getattr(p, "drain", None) is not None and not p.drain.idle for p in sockets):
            await asyncio.sleep(0.02)
        for protocol in sockets:
            if protocol.state == WebSocketProtocol.STATE_OPEN:
                protocol.sendCloseFrame(code=1012, reasonUtf8=b"service restart",
                                        isReply=False)
            protocol.transport.resumeProducing()  # to read the client's close reply
        deadline = loop.time() + CLOSE_TIMEOUT
        while loop.time() < deadline and any(  # noqa: ASYNC110 - nor on autobahn's state
                p.state != WebSocketProtocol.STATE_CLOSED for p in sockets):
            await asyncio.sleep(0.02)
        for protocol in sockets:
            if protocol.state != WebSocketProtocol.STATE_CLOSED:
                protocol.transport.abortConnection()

    def kill_all_applications(self: Any) -> Any:
        closing = defer.Deferred.fromFuture(asyncio.ensure_future(close_sockets(self)))
        closing.addErrback(lambda failure: None)
        closing.addCallback(lambda _: kill(self))
        return closing

    Server.create_application = create_application  # type: ignore[method-assign]
    WebSocketProtocol.onMessage = counted_on_message  # type: ignore[method-assign]
    Server.kill_all_applications = kill_all_applications  # type: ignore[method-assign]
    Server._graceful = True  # type: ignore[attr-defined]
    return True
