"""`off_loop`: blocking database work from the event loop, on a worker thread, with the
pooled connection returned when it ends."""

from __future__ import annotations

from typing import Any

from asgiref.sync import SyncToAsync
from django.db import close_old_connections

_NO_EXCEPTION = (None, None, None)


class _OffLoop(SyncToAsync):
    # Channels' `database_sync_to_async` does the same through `channels.db`'s name for
    # close_old_connections, which its test communicators patch to a no-op: pooled
    # connections then stayed checked out by threads of finished event loops until the
    # pool ran dry. This module's own reference is never patched.
    #
    # asgiref hands the thread the exception its caller is handling (`exc_info`) and
    # raises it there again, so that the function sees it in `sys.exc_info()`; its
    # traceback then holds the hop's frames, work item and futures in a reference cycle
    # (~140 objects a call, left to the garbage collector, whose collections pause every
    # socket: docs/performance.md, "Pauses"). No function run here reads its caller's
    # exception, so none is handed over, and an `off_loop` call inside an `except`
    # (a read that falls back to a thread) leaves nothing behind.
    def thread_handler(self, loop: Any, exc_info: Any, *args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        try:
            return super().thread_handler(loop, _NO_EXCEPTION, *args, **kwargs)
        finally:
            close_old_connections()


def off_loop(func: Any) -> Any:
    """Run blocking database work on a worker thread, borrowing a pooled connection.

    Not thread-sensitive: Channels' default funnels every consumer's database calls
    through ONE shared thread, which serializes all games behind each other's commits.
    Each service call is self-contained (its own transaction), so any thread will do;
    the connection goes back to the pool as the call ends (CONN_MAX_AGE is 0).
    """
    return _OffLoop(func, thread_sensitive=False)
