"""Errors as values with machine-readable codes.

Services raise a `ServiceError` subclass; the REST exception handler and the WebSocket
consumers each map it once to their reply (`{"code", "detail"}` with `status` over HTTP).
"""

from __future__ import annotations


class ServiceError(Exception):
    """A refusal a client can act on: `code` is stable, `detail` is for people."""

    code: str = "invalid"
    status: int = 400

    def __init__(self, detail: str = "", *, code: str | None = None, status: int | None = None):
        super().__init__(detail or self.code)
        self.detail = detail or self.code
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "detail": self.detail}


class Unavailable(ServiceError):
    """A backing service (database, channel layer) is down; retry later."""

    code = "unavailable"
    status = 503
