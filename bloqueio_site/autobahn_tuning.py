"""Two settings of autobahn (Daphne's WebSocket engine) that Daphne does not expose.

`close_with_code`: a protocol failure, such as a message over Daphne's
`--websocket-max-message-size` (1 MiB), closes with a close frame (1009 and a reason)
instead of autobahn's default "fail by drop", a bare TCP close the client cannot tell
from a crash.

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


def close_with_code() -> bool:
    """Make Daphne's WebSocket factory fail connections with a close frame; False if
    Daphne is not installed."""
    try:
        from daphne.ws_protocol import WebSocketFactory
    except ImportError:
        return False
    if getattr(WebSocketFactory, "_closes_with_code", False):
        return True
    original = WebSocketFactory.setProtocolOptions

    def set_protocol_options(self: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("failByDrop", False)
        original(self, *args, **kwargs)

    WebSocketFactory.setProtocolOptions = set_protocol_options  # type: ignore[method-assign]
    WebSocketFactory._closes_with_code = True  # type: ignore[attr-defined]
    return True
