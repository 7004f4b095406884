"""What a server's stop waits for on each socket: the frames its application was handed
and has not finished with, and the frames it has still to write.

Both servers (bloqueio_site.uvicorn_ws, bloqueio_site.autobahn_tuning) put one `Drain`
per socket in the scope as the extension `bloqueio.drain` and count `handed`; the game
socket (games.live.consumers) counts `done` and says through `pending` how many frames
its outbox still holds. On SIGTERM a socket stops reading and closes with 1012 once its
drain is idle (or `DRAIN_SECONDS` passed): an action that arrived before the stop is
committed and acked, or was never applied.
"""

from __future__ import annotations

from collections.abc import Callable

DRAIN_SECONDS = 5.0
# Then the peer has this long to answer the close before the connection is aborted.
CLOSE_TIMEOUT = 3.0
SCOPE_KEY = "bloqueio.drain"
# Beside it (uvicorn only): write a text frame at once when the socket can take it, so the
# outbox (games.live.outbox) needs no task for the common case.
SEND_NOW_KEY = "bloqueio.send_now"


class Drain:
    __slots__ = ("done", "handed", "pending")

    def __init__(self) -> None:
        self.handed = 0
        self.done = 0
        self.pending: Callable[[], int] | None = None

    @property
    def idle(self) -> bool:
        return self.done >= self.handed and not (self.pending and self.pending())
