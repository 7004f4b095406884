"""One strict JSON decoder for everything a client sends (REST bodies, socket frames, query
parameters): NaN/Infinity and nesting too deep for the parser are a `ValueError`, like
any other malformed input, never a `RecursionError` that escapes as a server error."""

from __future__ import annotations

import json
from typing import Any


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def loads(text: str | bytes) -> Any:
    try:
        return json.loads(text, parse_constant=_no_constants)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
