"""uvicorn's WebSocket protocol (the `websockets-sansio` one), with three changes of ours.

- **A frame written once for all of a game's sockets.** The fan-out hands every socket
  of a game the same text object (games/live/fanout.py encodes each frame once per
  process). `websockets` would UTF-8 encode it and build the frame again for each socket
  in pure Python (the largest single cost of a move in the profile, docs/performance.md);
  here an open, uncompressed socket writes the bytes framed for the previous socket when
  the text is that same object, and frames any other text with a few byte operations.
- **A close never waits for the peer.** uvicorn's `send` first waits until the transport
  is writable again; for a peer that stopped reading that is forever, so the server's
  own close (1013 for a socket that fell too far behind, games/live/outbox.py) would never
  go out and the connection would stay. Here a close is written at once, and if the
  peer has not finished the closing handshake `CLOSE_TIMEOUT` s later the connection is
  aborted (uvicorn's `transport.close()` would wait, again forever, to flush what the
  peer never reads).
- **A stop that finishes what was asked.** On SIGTERM uvicorn closes every socket with
  1012 at once; a move the socket had just sent would then commit with no one to ack it.
  Here the socket stops reading, the application gets `DRAIN_SECONDS` to finish the
  frames it has already been handed, and then the socket closes with 1012 (service restart)
  so the page reconnects to another process (bloqueio_site.drain).

- **A bounded kernel buffer.** Each socket's kernel send buffer is `SEND_BUFFER` (Linux
  grows it up to 4 MiB by default): what a peer that stopped reading holds of the
  server's memory is then this, the transport's 64 KiB and its outbox's bound.

A message over the 1 MiB cap (`--ws-max-size`) is closed with 1009 and a reason by
`websockets` itself. `bloqueio_site.serve` passes this class to uvicorn as `--ws`.
"""

from __future__ import annotations

import socket
from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from bloqueio_site.drain import CLOSE_TIMEOUT, DRAIN_SECONDS, SCOPE_KEY, SEND_NOW_KEY, Drain

_DRAIN_POLL = 0.02
SEND_BUFFER = 64 * 1024  # Linux doubles it for its own bookkeeping

# The last text framed and its frame: the fan-out sends one text object to every socket
# of a game in turn. Only the event loop's thread sends, so a module global is safe.
_last: tuple[str | None, bytes] = (None, b"")


def text_frame(text: str) -> bytes:
    """`text` as one unmasked, final WebSocket text frame (RFC 6455, 5.2): what a server
    sends for a text message with no extension."""
    global _last
    if text is _last[0]:
        return _last[1]
    data = text.encode()
    size = len(data)
    if size < 126:
        head = bytes((0x81, size))
    elif size < 1 << 16:
        head = b"\x81\x7e" + size.to_bytes(2, "big")
    else:
        head = b"\x81\x7f" + size.to_bytes(8, "big")
    framed = head + data
    _last = (text, framed)
    return framed


class BloqueioWebSocketProtocol(WebSocketsSansIOProtocol):
    drain: Drain | None = None
    draining = False

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # a handshake the server accepted: the app runs next
            self.drain = Drain()
            scope["extensions"][SCOPE_KEY] = self.drain
            scope["extensions"][SEND_NOW_KEY] = self.send_now

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # Nothing reads or parses for this connection any more: break the two cycles
        # that would leave it (~40 objects) to the garbage collector's next middle
        # collection instead of reference counting (docs/performance.md). The scope's
        # `send_now` is this protocol's own method (the outbox keeps its own reference
        # and sees `disconnected`), and websockets' parser is a generator whose frame
        # holds its connection.
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope.get("extensions", {}).pop(SEND_NOW_KEY, None)
        self.conn.parser.close()

    def send_now(self, text: str) -> bool:
        """Write `text` as one frame if the socket takes it without waiting; False (and
        nothing written) otherwise: the caller queues it for its writer task."""
        if self.writable.is_set() and not self.disconnected and self._plain_text_ok():
            self.transport.write(text_frame(text))
            return True
        return False

    async def receive(self) -> Any:
        message = await super().receive()
        if message["type"] == "websocket.receive" and self.drain is not None:
            self.drain.handed += 1
        return message

    async def send(self, message: Any) -> None:
        kind = message["type"]
        if kind == "websocket.send" and self._plain_text(message) and self._plain_text_ok():
            await self.writable.wait()
            if self.disconnected:
                raise ClientDisconnected()
            if self._plain_text_ok():  # still, after the wait
                self.transport.write(text_frame(message["text"]))
                return
        elif kind == "websocket.close" and self.handshake_complete and not self.close_sent \
                and self.initial_response is None and not self.disconnected:
            self._close_now(message.get("code", 1000), message.get("reason") or "")
            return
        await super().send(message)

    @staticmethod
    def _plain_text(message: Any) -> bool:
        return type(message.get("text")) is str and message.get("bytes") is None

    def _plain_text_ok(self) -> bool:
        """websockets' own send would write one plain frame: open, not closing, no
        extension, no fragmented message in progress."""
        return (self.handshake_complete and not self.close_sent
                and self.initial_response is None and self.conn.state is State.OPEN
                and not self.conn.extensions and not self.conn.expect_continuation_frame)

    def _close_now(self, code: int, reason: str) -> None:
        """What uvicorn does for `websocket.close`, without waiting for the transport to be
        writable, and aborting a peer that does not finish the handshake in time."""
        if self.transport.is_closing():
            return
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        self.conn.send_close(code, reason)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()
        self.close_timer = self.loop.call_later(CLOSE_TIMEOUT, self.transport.abort)

    def shutdown(self) -> None:
        """SIGTERM: stop reading, let the application finish the frames it was handed (at
        most DRAIN_SECONDS), then close with 1012 as uvicorn does."""
        if (self.drain is None or self.drain.idle or self.draining or self.close_sent
                or not self.handshake_complete or self.disconnected):
            self._shutdown_now()
            return
        self.draining = True
        self.stop_keepalive()
        self.transport.pause_reading()
        deadline = self.loop.time() + DRAIN_SECONDS

        def check() -> None:
            drain = self.drain
            if self.disconnected or drain is None or drain.idle or self.loop.time() > deadline:
                self._shutdown_now()
            else:
                self.loop.call_later(_DRAIN_POLL, check)

        self.loop.call_later(_DRAIN_POLL, check)

    def _shutdown_now(self) -> None:
        super().shutdown()
        # uvicorn's shutdown ends with transport.close(), which waits to flush a buffer a
        # peer that stopped reading never takes: abort it after the close timeout.
        if not self.disconnected:
            self.loop.call_later(CLOSE_TIMEOUT, self.transport.abort)
