"""Running Django code on a thread of a test's own, and giving its pooled connection back.

Django keeps a connection per thread. Under the pool (bloqueio_site/settings.py) a thread
that used the ORM and ends without closing it keeps its connection checked out for the
rest of the process: psycopg_pool never gets it back. Ten such threads in one pytest
worker and every later test there waits for a connection and fails
(`tests/conftest.py`, `pooled_connections_given_back`, names the module that leaked)."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from django.db import connections

P = ParamSpec("P")
T = TypeVar("T")


def closing(fn: Callable[P, T]) -> Callable[P, T]:
    """`fn`, then this thread's database connections closed (back to the pool): for a
    `threading.Thread` target or `asyncio.to_thread`."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return fn(*args, **kwargs)
        finally:
            connections.close_all()

    return run


def in_thread(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` on a new thread, waited for: its value, or its exception
    raised here. For Django's sync ORM where the calling thread may not use it (inside a
    Playwright scenario, whose thread runs an event loop)."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append((True, closing(fn)(*args, **kwargs)))
        except BaseException as exc:  # handed to the caller
            outcome.append((False, exc))

    thread = threading.Thread(target=run, name=f"in_thread:{getattr(fn, '__name__', fn)}")
    thread.start()
    thread.join()
    ok, value = outcome[0]
    if not ok:
        raise value
    return value
