"""uvicorn's WebSocket protocol (the `websockets` one), with two changes of ours.

- **A reason on every 1009 close.** A message over the 1 MiB cap (`--ws-max-size`) closes
  the socket with 1009 under both servers; `websockets` sends that close frame without a
  reason, where Daphne (with bloqueio_site.autobahn_tuning) says why. A client must be
  able to tell the two apart from a crash and read what went wrong, whichever server it
  reached, so this protocol adds the reason.
- **A frame written once for all of a game's sockets.** The fan-out hands every socket
  of a game the same text object (games/live/fanout.py encodes each frame once per
  process). `websockets` would UTF-8 encode it and build the frame again for each socket
  in pure Python (the largest single cost of a move in the profile, docs/performance.md);
  here an open, uncompressed socket writes the bytes framed for the previous socket when
  the text is that same object, and frames any other text with a few byte operations.
  Everything else (closing, flow control, control frames, fragmented or binary
  messages) stays with `websockets`.

`bloqueio_site.serve` passes this class to uvicorn as `--ws` (an import path).
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_impl import WebSocketProtocol
from websockets.frames import CloseCode
from websockets.protocol import State

TOO_BIG = "message too big (the limit is 1 MiB)"

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


class ReasonedWebSocketProtocol(WebSocketProtocol):
    def fail_connection(self, code: int = CloseCode.ABNORMAL_CLOSURE, reason: str = "") -> None:
        if code == CloseCode.MESSAGE_TOO_BIG and not reason:
            reason = TOO_BIG
        super().fail_connection(code, reason)

    async def send(self, message: Any) -> None:
        # The conditions under which websockets' own send would write one plain frame
        # at once: open (and not closing underneath), no extension, no fragmented
        # message in progress. Then the same flow control (drain) as websockets'.
        if (type(message) is str and self.state is State.OPEN and not self.extensions
                and self._fragmented_message_waiter is None
                and not self.transfer_data_task.done()):
            self.transport.write(text_frame(message))
            await self.drain()
            return
        await super().send(message)
