"""The request body limit for Daphne, whose HTTP layer (Twisted) reads a whole body
(into a temporary file past 100 KB) before it runs the application, so
`asgi_http.BodyLimit` alone came after the body was in.

`limit_daphne_bodies` patches Daphne's request class: a Content-Length over
`MAX_REQUEST_BYTES` is answered 413 as soon as the headers are in, a chunked body as soon
as the bytes received pass the limit (the same answer as `BodyLimit`'s); the connection
is then closed once the client has the answer (a lingering close, as
`uvicorn_http`'s), nothing of the body is kept and the application never runs. uvicorn
hands the body to the application as it arrives and needs none of this.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.conf import settings

from bloqueio_site.asgi_http import too_large_answer
from bloqueio_site.uvicorn_http import LINGER_BYTES, LINGER_SECONDS


def _refuse(request: Any) -> None:
    request._body_refused = True
    path = getattr(request.channel, "_path", b"").decode("latin-1").split("?", 1)[0]
    asked = [(name, value) for name, values in request.requestHeaders.getAllRawHeaders()
             for value in values]  # the request's, for the answer's language
    headers, body = too_large_answer(path, settings.DATA_UPLOAD_MAX_MEMORY_SIZE, asked)
    status = HTTPStatus.REQUEST_ENTITY_TOO_LARGE
    head = [f"HTTP/1.1 {status.value} {status.phrase}".encode()]
    head += [name + b": " + value for name, value in headers]
    transport = request.channel.transport
    transport.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
    _linger(transport)


def _linger(transport: Any) -> None:
    """Close only once the client has the answer (bloqueio_site.uvicorn_http says why):
    shut the writing side after the answer, keep reading (the chunks are thrown away
    below) until the client closes, LINGER_BYTES or LINGER_SECONDS."""
    from twisted.internet import reactor

    half_close = getattr(transport, "loseWriteConnection", None)
    if half_close is None:
        transport.loseConnection()
        return
    half_close()
    reactor.callLater(LINGER_SECONDS, transport.loseConnection)


def _gotLength(self: Any, length: int | None) -> None:  # Twisted names the hooks
    self._body_bytes = 0
    if length is not None and length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
        _refuse(self)
        length = 0  # nothing of it is kept: an empty in-memory body
    _ORIGINAL["gotLength"](self, length)


def _handleContentChunk(self: Any, data: bytes) -> None:
    if getattr(self, "_body_refused", False):  # answered: thrown away, up to a bound
        self._discarded = getattr(self, "_discarded", 0) + len(data)
        if self._discarded > LINGER_BYTES:
            self.channel.transport.loseConnection()
        return
    self._body_bytes = getattr(self, "_body_bytes", 0) + len(data)
    if self._body_bytes > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
        _refuse(self)
        return
    _ORIGINAL["handleContentChunk"](self, data)


def _process(self: Any) -> Any:
    return None if getattr(self, "_body_refused", False) else _ORIGINAL["process"](self)


PATCHES = {"gotLength": _gotLength, "handleContentChunk": _handleContentChunk,
           "process": _process}
_ORIGINAL: dict[str, Any] = {}


def limit_daphne_bodies() -> bool:
    """Patch Daphne's request class (once); False if Daphne is not installed."""
    try:
        from daphne.http_protocol import WebRequest
    except ImportError:
        return False
    for name, patch in PATCHES.items():
        if name not in _ORIGINAL:
            _ORIGINAL[name] = getattr(WebRequest, name)
            setattr(WebRequest, name, patch)
    return True
