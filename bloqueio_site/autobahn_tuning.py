"""Stop autobahn from formatting a discarded debug line for every frame it sends.

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
