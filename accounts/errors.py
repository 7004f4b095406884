"""Refusals of account writes that name the fields at fault."""

from __future__ import annotations

from bloqueio_site.errors import ServiceError


class FieldErrors(ServiceError):
    """400 `invalid` with `errors`, mapping a field to its messages (forms show them)."""

    code = "invalid"

    def __init__(self, errors: dict[str, list[str]]):
        field, messages = next(iter(errors.items()))
        super().__init__(f"{field}: {messages[0]}")
        self.errors = errors

    def as_dict(self) -> dict[str, object]:  # type: ignore[override]
        return {**super().as_dict(), "errors": self.errors}
