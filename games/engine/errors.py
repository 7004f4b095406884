"""Narrow exception classes, so callers can map each failure to one reply code."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class UnknownKind(EngineError):
    """The game kind is not registered."""


class InvalidAction(EngineError):
    """The input is not an action (or notation) of this game kind at all."""


class IllegalAction(EngineError):
    """A well-formed action that the rules refuse in this position."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidState(EngineError):
    """The state JSON is malformed or describes an impossible position."""


def brief(value: object, limit: int = 40) -> str:
    """Describe untrusted input for an error message without ever failing.

    ``repr`` can recurse without bound on nested junk and ``str`` refuses huge ints,
    so only scalars are shown and containers are summarised by type.
    """
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if -(10**12) < value < 10**12 else "a huge int"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        text = value if len(value) <= limit else value[:limit] + "..."
        return repr(text)
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} of {len(value)} items"
    if isinstance(value, dict):
        return f"an object with {len(value)} keys"
    return f"a {type(value).__name__}"
