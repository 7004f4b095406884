"""The garbage collector of a web process, tuned for latency (bloqueio_site/asgi.py).

Under the continuous benchmark (docs/performance.md, "Live play") CPython's default
thresholds (700, 10, 10) ran a full collection every ~2.5 s, each a 100-150 ms pause of
the whole process with the GIL held: every move in flight waited for it, and those
pauses were the p99. Two changes, measured there (p99 251 -> 146 ms, server CPU a move
1.24 -> 1.10 ms): what the process imported at start is moved out of the collector's
sight (`gc.freeze()`: Django, the URL map, the engine tables never become garbage), and
the youngest generation is collected every 10,000 allocations instead of 700, so short-
lived cycles (a request's, a task's) die young and the older generations are visited
rarely. `GC_THRESHOLDS` ("10000,20,10" by default; "" keeps CPython's) overrides it.
"""

from __future__ import annotations

import gc
import os

DEFAULT = (10_000, 20, 10)


def thresholds() -> tuple[int, ...] | None:
    """The thresholds to set: GC_THRESHOLDS's three numbers, DEFAULT when unset, None
    (CPython's own) when set empty."""
    text = os.environ.get("GC_THRESHOLDS")
    if text is None:
        return DEFAULT
    if not text.strip():
        return None
    values = tuple(int(part) for part in text.split(","))
    if len(values) != 3 or min(values) < 1:
        raise ValueError(f"GC_THRESHOLDS must be three positive integers, not {text!r}")
    return values


def tune() -> None:
    """Freeze what is loaded so far and set the thresholds (call once, after start)."""
    chosen = thresholds()
    if chosen is None:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(*chosen)
