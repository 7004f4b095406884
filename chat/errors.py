"""The refusals of chat services, each with its stable code and HTTP status."""

from __future__ import annotations

from datetime import datetime

from bloqueio_site.errors import ServiceError


class ChatError(ServiceError):
    """Base of every chat refusal."""


class InvalidMessage(ChatError):
    code = "invalid"
    status = 400


class TooLong(ChatError):
    code = "too_long"
    status = 400


class NotAuthenticated(ChatError):
    code = "not_authenticated"
    status = 401


class Forbidden(ChatError):
    code = "forbidden"
    status = 403


class NotFound(ChatError):
    code = "not_found"
    status = 404


class NotMuted(ChatError):
    code = "not_muted"
    status = 409


class RateLimited(ChatError):
    code = "rate_limited"
    status = 429


class Muted(ChatError):
    """The author is muted; `until` is when it ends (None: until a moderator unmutes)."""

    code = "muted"
    status = 403

    def __init__(self, detail: str, *, until: datetime | None):
        super().__init__(detail)
        self.until = until

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(),
                "until": None if self.until is None else self.until.isoformat()}
