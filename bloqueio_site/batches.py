"""Work that waits together goes together: a group commit's queue, per event loop.

Callers `submit` items one at a time; a drain task takes every item waiting and hands
them to `run` as one batch, so under load many callers share one round trip (and one
commit) while with no load an item goes at once, alone (its task starts in the next
turn of the loop: whatever else was submitted in the same turn joins it). At most
`in_flight` batches are under way at once; items submitted meanwhile wait for the next
drain, which takes all of them (at most `most` a batch).

`run` answers one result per item, in order: a value, or an exception for that item
alone. If `run` itself raises, every item of the batch gets that exception. An item's
caller being cancelled does not take it out of a batch already sent: callers that must
see their write through shield it (games/table.py does).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

Run = Callable[[list[T]], Awaitable[Sequence[R | BaseException]]]


class Batches(Generic[T, R]):
    """One loop's queue of items for `run` (make one per event loop)."""

    def __init__(self, run: Run[T, R], *, in_flight: int, most: int) -> None:
        if in_flight < 1 or most < 1:
            raise ValueError("in_flight and most must be at least 1")
        self._run = run
        self._in_flight = in_flight
        self._most = most
        self._waiting: list[tuple[T, asyncio.Future[R]]] = []
        self._drains = 0  # drain tasks alive
        self._starting = False  # a drain task was started and has not taken its batch yet
        self._tasks: set[asyncio.Task[None]] = set()  # the loop keeps weak references only
        self.sent: list[int] = []  # each batch's size, the last few (tests, benchmarks)

    async def submit(self, item: T) -> R:
        """`item`'s result, once the batch it went in has been run."""
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._drains < self._in_flight and not self._starting:
            self._starting = True
            self._drains += 1
            task = asyncio.get_running_loop().create_task(self._drain())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return await future

    async def _drain(self) -> None:
        try:
            while self._waiting:
                self._starting = False
                batch, self._waiting = (self._waiting[:self._most],
                                        self._waiting[self._most:])
                self.sent = [*self.sent[-63:], len(batch)]
                try:
                    results = await self._run([item for item, _ in batch])
                except BaseException as exc:
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    if not isinstance(exc, Exception):
                        raise  # cancelled (the loop is closing): no more batches
                    continue
                if len(results) != len(batch):
                    error = RuntimeError(f"{len(results)} results for {len(batch)} items")
                    results = [error] * len(batch)
                for (_, future), result in zip(batch, results, strict=True):
                    if future.done():
                        continue
                    if isinstance(result, BaseException):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
        finally:
            self._starting = False
            self._drains -= 1
            if self._waiting and self._drains == 0:
                # Cancelled with items left and no drain to take them: fail them.
                for _, future in self._waiting:
                    if not future.done():
                        future.cancel()
                self._waiting = []
