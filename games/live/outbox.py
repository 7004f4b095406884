"""A socket's way out: frames queued, and written by the socket's own task.

Nothing that sends to a socket waits for that socket's peer. The fan-out delivers a move
to every socket of a game in turn, and one Redis reader delivers every game of a process:
if handing a frame to one socket waited for its peer (a closing handshake that never
finishes, a reader that stopped reading, a full TCP window), every other socket of that
game, and then of every game on the process, waited too. So a frame is put in the
socket's outbox and the call returns; the socket's writer task sends the outbox in order
and is the only thing that ever waits for this peer.

The outbox is bounded (`WEBSOCKET_SEND_QUEUE_BYTES`, 2 MiB, and `MAX_FRAMES`): a socket
whose peer reads slower than its game moves falls behind, and past the bound it is closed
with 1013 (try again later) and its queue dropped. The client reconnects and gets what it
missed with `sync`, as after any drop (docs/realtime.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

# A whole long game's event frames (with the game in each) stay well under the bytes
# bound (settings.WEBSOCKET_SEND_QUEUE_BYTES); a socket this far behind is not reading.
MAX_FRAMES = 2000
CLOSE_TOO_SLOW = 1013  # RFC 6455 "try again later"
TOO_SLOW_REASON = "not reading fast enough; reconnect and sync"

Send = Callable[[dict[str, Any]], Awaitable[None]]


async def _gone(message: dict[str, Any]) -> None:
    """A stopped outbox's way out: nowhere."""


def _nothing() -> None:
    pass


class Outbox:
    """The frames on their way to one socket, and the task that writes them."""

    def __init__(self, send: Send, on_overflow: Callable[[], None],
                 send_now: Callable[[str], bool] | None = None) -> None:
        self._send = send
        # The server's "write it now if the socket takes it" (bloqueio_site.uvicorn_ws),
        # used only when nothing is queued or being written, so the order holds.
        self._send_now = send_now
        self._busy = False  # the writer holds a frame it took from the queue
        self._on_overflow = on_overflow
        self._items: deque[str | tuple[int, str]] = deque()
        self._bytes = 0
        self._ready = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._max_bytes: int = settings.WEBSOCKET_SEND_QUEUE_BYTES
        self.closed = False  # a close is queued or sent: nothing more goes out

    def __len__(self) -> int:
        return len(self._items)

    def put(self, text: str) -> None:
        """Queue `text`; never waits. Past the bound the socket is closed instead."""
        if self.closed:
            return
        if (not self._items and not self._busy and self._send_now is not None
                and self._send_now(text)):
            return
        self._items.append(text)
        self._bytes += len(text)
        if self._bytes > self._max_bytes or len(self._items) > MAX_FRAMES:
            self.abandon(CLOSE_TOO_SLOW, TOO_SLOW_REASON)
            self._on_overflow()
            return
        self._wake()

    def close(self, code: int, reason: str = "") -> None:
        """Close after what is already queued; nothing queued later is sent."""
        if self.closed:
            return
        self.closed = True
        self._items.append((code, reason))
        self._wake()

    def abandon(self, code: int, reason: str = "") -> None:
        """Drop what is queued and close at once (the writer may be stuck on this peer)."""
        self.closed = True
        self._items.clear()
        self._bytes = 0
        if self._writer is not None:
            self._writer.cancel()
        self._writer = asyncio.get_running_loop().create_task(
            self._write_one({"type": "websocket.close", "code": code, "reason": reason}))

    def stop(self) -> None:
        """The socket is gone: stop writing, and let go of the socket's and the server's
        methods and of the writer task (whose cancelled frame points back here), so that
        reference counting frees the socket, not the garbage collector."""
        self.closed = True
        self._items.clear()
        self._bytes = 0
        if self._writer is not None and not self._writer.done():
            self._writer.cancel()
        self._writer = None
        self._send, self._send_now, self._on_overflow = _gone, None, _nothing

    def _wake(self) -> None:
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write_forever())
        self._ready.set()

    async def _write_one(self, message: dict[str, Any]) -> None:
        try:
            await self._send(message)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the peer is gone already
            log.debug("websocket close not sent (%r)", exc)

    async def _write_forever(self) -> None:
        items = self._items
        try:
            while True:
                if not items:
                    self._ready.clear()
                    await self._ready.wait()
                    continue
                item = items.popleft()
                self._busy = True
                if type(item) is str:
                    self._bytes -= len(item)
                    await self._send({"type": "websocket.send", "text": item})
                    self._busy = False
                else:
                    code, reason = item  # type: ignore[misc]
                    await self._send({"type": "websocket.close", "code": code,
                                      "reason": reason})
                    return
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # The peer went away under us (the server says so in its own words: uvicorn's
            # ClientDisconnected or RuntimeError after a close, autobahn's Disconnected).
            # Its disconnect follows and cleans up; nothing more can be written.
            log.debug("websocket writer stopped (%r)", exc)
            self.closed = True
            items.clear()
            self._bytes = 0
