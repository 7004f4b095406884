"""uvicorn's WebSocket protocol (the `websockets` one) with a reason on every 1009 close.

A message over the 1 MiB cap (`--ws-max-size`) closes the socket with 1009 under both
servers; `websockets` sends that close frame without a reason, where Daphne (with
bloqueio_site.autobahn_tuning) says why. A client must be able to tell the two apart from
a crash and read what went wrong, whichever server it reached, so this protocol adds the
reason. `bloqueio_site.serve` passes it to uvicorn as `--ws` (an import path).
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_impl import WebSocketProtocol
from websockets.frames import CloseCode

TOO_BIG = "message too big (the limit is 1 MiB)"


class ReasonedWebSocketProtocol(WebSocketProtocol):
    def fail_connection(self, code: int = CloseCode.ABNORMAL_CLOSURE, reason: str = "") -> None:
        if code == CloseCode.MESSAGE_TOO_BIG and not reason:
            reason = TOO_BIG
        super().fail_connection(code, reason)
