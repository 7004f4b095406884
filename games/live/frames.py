"""Frame handling shared by the WebSocket consumers: size limit, JSON, rate limit.

Every refusal is an `error` frame with a code; a connection is only closed (with a close
code, never silently) for persistent abuse or failed authentication.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from bloqueio_site import strict_json

MAX_FRAME_BYTES = 16 * 1024
RATE_PER_SECOND = 20.0
RATE_BURST = 40.0
# Refusals past this many in a row for flooding close the connection.
FLOOD_CLOSE_AFTER = 200

CLOSE_INVALID_OPTION = 4400  # a query parameter of the socket's URL it does not know
CLOSE_UNAUTHORIZED = 4401
CLOSE_BANNED = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_IDLE = 4408
CLOSE_FLOOD = 4429
CLOSE_UNAVAILABLE = 4503


Detail = str | Promise  # a text, or one marked with gettext_lazy, said in the socket's language


class FrameError(Exception):
    """A refused frame; ``ref`` is the client's, when the frame was an object that had one.
    `detail` is lazy (and `params` fill its placeholders): the socket says it in its own
    language (games.live.sockets, `BaseConsumer.error`)."""

    def __init__(self, code: str, detail: Detail, ref: Any = None,
                 params: dict[str, Any] | None = None):
        super().__init__(str(detail))
        self.code = code
        self.detail = detail
        self.ref = ref
        self.params = params or {}


@dataclass
class TokenBucket:
    """Allows `rate` messages a second with bursts up to `burst`."""

    rate: float = RATE_PER_SECOND
    burst: float = RATE_BURST
    tokens: float = RATE_BURST
    stamp: float = field(default_factory=time.monotonic)
    refused: int = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.refused = 0
            return True
        self.refused += 1
        return False


def decode_frame(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    """The frame as a JSON object with a string `type`, or a FrameError."""
    content = decode_json(text_data)
    if not isinstance(content, dict) or not isinstance(content.get("type"), str):
        raise FrameError("invalid_frame", _("A frame is a JSON object with a string `type`."),
                         ref_of(content) if isinstance(content, dict) else None)
    return content


def ref_of_text(text_data: str | None) -> Any:
    """The `ref` of a frame that was not otherwise read (one refused for the rate limit),
    if it is a JSON object within the size limit that has one."""
    try:
        content = decode_json(text_data)
    except FrameError:
        return None
    return ref_of(content) if isinstance(content, dict) else None


def decode_json(text_data: str | None) -> Any:
    """Any JSON value in a text frame within the size limit, or a FrameError."""
    if text_data is None:
        raise FrameError("invalid_frame", _("Frames must be JSON text, not binary."))
    # The limit is in bytes, as documented: counting characters let a frame of 3- or
    # 4-byte characters through at up to four times the limit. (The cheap length check
    # first: a character is at least one byte.)
    if len(text_data) > MAX_FRAME_BYTES or utf8_size(text_data) > MAX_FRAME_BYTES:
        raise FrameError("too_large", _("Frames are limited to %(bytes)s bytes."),
                         _ref_of_oversized(text_data), {"bytes": MAX_FRAME_BYTES})
    try:
        return strict_json.loads(text_data)
    except ValueError:
        raise FrameError("invalid_json", _("The frame is not valid JSON.")) from None


def _ref_of_oversized(text_data: str) -> Any:
    """The `ref` of a frame refused for its size, so the client can tell which request
    failed. Parsing it costs little: Daphne caps a message at 1 MiB and the rate limit
    bounds how often."""
    try:
        content = strict_json.loads(text_data)
    except ValueError:
        return None
    return ref_of(content) if isinstance(content, dict) else None


def utf8_size(text: str) -> int:
    """Bytes `text` takes on the wire (lone surrogates, which only an in-process client
    can send, count as the three bytes they would take)."""
    return len(text.encode("utf-8", "surrogatepass"))


def ref_of(content: dict[str, Any]) -> Any:
    """The client's `ref`, echoed back only if it is a short string or a number that
    round-trips through JSON: a `1e999` ref parses to infinity, which `json.dumps` would
    echo as the bare `Infinity`, a frame no strict JSON client can parse."""
    ref = content.get("ref")
    if isinstance(ref, str) and len(ref) <= 200:
        return ref
    if type(ref) is int:
        return ref
    if type(ref) is float and math.isfinite(ref):
        return ref
    return None


def error_frame(code: str, detail: str, ref: Any = None) -> dict[str, Any]:
    return {"type": "error", "code": code, "detail": detail, "ref": ref}


def said(detail: Detail, language: str, params: dict[str, Any] | None = None) -> str:
    """`detail` in `language`, its placeholders filled. Overriding here, in one step
    with no await, keeps the language to this socket: the fan-out calls many sockets'
    handlers from one task in turn."""
    with translation.override(language):
        text = str(detail)
    return text % params if params else text
