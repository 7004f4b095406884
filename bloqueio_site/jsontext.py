"""JSON text for the hot paths (a move's stored state, the frames every socket gets).

orjson is several times faster than the standard library on a game's JSON. It refuses a
few values the standard library takes (integers past 64 bits); those fall back to it, so
callers never see a difference but the speed. Output is compact and UTF-8 (not ASCII
escaped); both parse it alike.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS  # int keys become strings, as json.dumps does


def dumps(value: Any) -> str:
    """`value` as compact JSON text."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)


def iso(moment: datetime | None) -> str | None:
    """A moment as the API writes it: ISO 8601, UTC as `Z`."""
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")
