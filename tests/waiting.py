"""Waiting on a condition with a deadline, never for a fixed time: a slow machine only
takes longer, and a condition that never comes fails the test saying what it waited for."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

DEADLINE_S = 30.0
STEP_S = 0.02


def wait_for(condition: Callable[[], Any], what: str, seconds: float = DEADLINE_S) -> Any:
    """`condition()`'s first true value, polled until `seconds` pass (then a failure)."""
    deadline = time.monotonic() + seconds
    while True:
        if found := condition():
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds:g} s waiting for {what}")
        time.sleep(STEP_S)


async def await_for(condition: Callable[[], Any], what: str,
                    seconds: float = DEADLINE_S) -> Any:
    """`wait_for` on the event loop: it keeps running while the condition is polled."""
    deadline = time.monotonic() + seconds
    while True:
        if found := condition():
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds:g} s waiting for {what}")
        await asyncio.sleep(STEP_S)
