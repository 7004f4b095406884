"""uvicorn's HTTP protocol (httptools) with a lingering close.

When the server answers before it has read the whole request body (the 413 of a body
over `MAX_REQUEST_BYTES`, `asgi_http.BodyLimit`, which answers from the Content-Length
alone) and then closes the connection, the kernel meets the rest of the body arriving on
a closed socket and answers it with a reset. A reset makes the client's kernel throw away
what it had received and not yet read: a client that sends its whole body before it reads
(every HTTP library; an async one every time) got "connection reset" instead of the 413.

Here a close asked for by a response (`Connection: close`) is a lingering close, as
nginx and Apache do: the answer is written, then only the writing side is shut
(`write_eof`: the client reads the answer and then the end of the stream), and what the
client still sends is read and thrown away, unparsed, until it closes its side, or
`LINGER_BYTES` were thrown away, or `LINGER_SECONDS` passed; then the connection closes.
A TLS transport cannot shut one side: it closes as before (TLS ends at the proxy here).
`bloqueio_site.serve` passes this class to uvicorn as `--http`; Daphne's answer does the
same in `daphne_body`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

LINGER_SECONDS = 5.0  # at most this long after the answer
LINGER_BYTES = 16 * 1024 * 1024  # at most this much thrown away


class _LingerOnClose:
    """The transport as a request's cycle sees it: its `close` lingers."""

    def __init__(self, protocol: LingeringHttpToolsProtocol, transport: Any) -> None:
        self._protocol = protocol
        self._transport = transport

    def close(self) -> None:
        self._protocol.linger()

    def is_closing(self) -> bool:
        return self._protocol.lingering or bool(self._transport.is_closing())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class LingeringHttpToolsProtocol(HttpToolsProtocol):
    lingering = False
    _discarded = 0
    _linger_timer: asyncio.TimerHandle | None = None

    def on_headers_complete(self) -> None:
        before = self.cycle
        super().on_headers_complete()
        if self.cycle is not None and self.cycle is not before:
            self.cycle.transport = _LingerOnClose(self, self.transport)  # type: ignore[assignment]

    def linger(self) -> None:
        """Shut the writing side once the answer is out, then read and discard."""
        transport = self.transport
        if self.lingering or transport.is_closing():
            return
        if not transport.can_write_eof():
            transport.close()
            return
        self.lingering = True
        self._unset_keepalive_if_required()
        transport.write_eof()
        self.flow.resume_reading()
        self._linger_timer = self.loop.call_later(LINGER_SECONDS, transport.close)

    def data_received(self, data: bytes) -> None:
        if not self.lingering:
            super().data_received(data)
            return
        self._discarded += len(data)
        if self._discarded > LINGER_BYTES:
            self.transport.close()

    def eof_received(self) -> bool | None:
        # The client is done sending (having read the answer, as a rule): close now.
        if self.lingering:
            self.transport.close()
        return None

    def on_response_complete(self) -> None:
        if self.lingering:  # no keep-alive, no next request: only the discarding
            self.server_state.total_requests += 1
            return
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._linger_timer is not None:
            self._linger_timer.cancel()
            self._linger_timer = None
        super().connection_lost(exc)
