"""One strict JSON decoder for everything a client sends (REST bodies, socket frames, query
parameters): NaN/Infinity, numbers too large for a float (`1e999`, which Python reads as
infinity and would echo back as the non-JSON `Infinity`) and nesting too deep for the
parser are a `ValueError`, like any other malformed input, never a `RecursionError` that
escapes as a server error."""

from __future__ import annotations

import json
import math
from typing import Any


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is out of range")
    return value


def loads(text: str | bytes) -> Any:
    try:
        return json.loads(text, parse_constant=_no_constants, parse_float=_finite)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
