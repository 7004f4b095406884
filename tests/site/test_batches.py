"""A group commit's queue (bloqueio_site/batches.py): items submitted while batches are
under way go together in the next; at most `in_flight` batches at once; each item gets
its own result or its own exception."""

from __future__ import annotations

import asyncio

import pytest

from bloqueio_site.batches import Batches


class Recorder:
    """A `run` that records each batch and holds it until released."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []
        self.running = 0
        self.most_running = 0
        self.release = asyncio.Event()

    async def run(self, items: list[int]) -> list[int | BaseException]:
        self.batches.append(items)
        self.running += 1
        self.most_running = max(self.most_running, self.running)
        try:
            await self.release.wait()
        finally:
            self.running -= 1
        return [ValueError(item) if item < 0 else item * 10 for item in items]


async def test_items_submitted_together_go_in_one_batch() -> None:
    recorder = Recorder()
    batches: Batches[int, int] = Batches(recorder.run, in_flight=2, most=64)
    recorder.release.set()
    assert await asyncio.gather(*(batches.submit(n) for n in range(5))) == [
        0, 10, 20, 30, 40]
    assert recorder.batches == [[0, 1, 2, 3, 4]]


async def test_items_waiting_for_a_batch_under_way_go_together_in_the_next() -> None:
    recorder = Recorder()
    batches: Batches[int, int] = Batches(recorder.run, in_flight=1, most=64)
    first = asyncio.ensure_future(batches.submit(1))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert recorder.batches == [[1]]  # under way, held
    later = [asyncio.ensure_future(batches.submit(n)) for n in (2, 3, 4)]
    await asyncio.sleep(0.01)
    assert recorder.batches == [[1]]  # one in flight at most: the others wait
    recorder.release.set()
    assert await asyncio.gather(first, *later) == [10, 20, 30, 40]
    assert recorder.batches == [[1], [2, 3, 4]]


async def test_at_most_in_flight_batches_at_once_and_at_most_most_items_each() -> None:
    recorder = Recorder()
    batches: Batches[int, int] = Batches(recorder.run, in_flight=2, most=3)
    tasks = []
    for n in range(10):
        tasks.append(asyncio.ensure_future(batches.submit(n)))
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)
    assert recorder.running == 2
    recorder.release.set()
    assert await asyncio.gather(*tasks) == [n * 10 for n in range(10)]
    assert recorder.most_running == 2
    assert all(len(batch) <= 3 for batch in recorder.batches)
    assert sorted(n for batch in recorder.batches for n in batch) == list(range(10))


async def test_each_item_gets_its_own_exception() -> None:
    recorder = Recorder()
    recorder.release.set()
    batches: Batches[int, int] = Batches(recorder.run, in_flight=1, most=64)
    results = await asyncio.gather(batches.submit(1), batches.submit(-2), batches.submit(3),
                                   return_exceptions=True)
    assert results[0] == 10 and results[2] == 30
    assert isinstance(results[1], ValueError) and results[1].args == (-2,)


async def test_a_run_that_raises_fails_every_item_of_its_batch_and_the_next_goes_on() -> None:
    calls: list[list[int]] = []

    async def run(items: list[int]) -> list[int]:
        calls.append(items)
        if len(calls) == 1:
            await asyncio.sleep(0.01)
            raise ConnectionError("down")
        return items

    batches: Batches[int, int] = Batches(run, in_flight=1, most=64)
    first = [asyncio.ensure_future(batches.submit(n)) for n in (1, 2)]
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    second = asyncio.ensure_future(batches.submit(3))
    results = await asyncio.gather(*first, second, return_exceptions=True)
    assert [type(r) for r in results[:2]] == [ConnectionError, ConnectionError]
    assert results[2] == 3
    assert calls == [[1, 2], [3]]


async def test_a_wrong_count_of_results_fails_the_batch_not_the_queue() -> None:
    async def run(items: list[int]) -> list[int]:
        return items[:1]

    batches: Batches[int, int] = Batches(run, in_flight=1, most=64)
    results = await asyncio.gather(batches.submit(1), batches.submit(2),
                                   return_exceptions=True)
    assert all(isinstance(r, RuntimeError) for r in results)
    assert await batches.submit(5) == 5


def test_bounds_must_be_positive() -> None:
    async def run(items: list[int]) -> list[int]:
        return items

    with pytest.raises(ValueError):
        Batches(run, in_flight=0, most=1)
    with pytest.raises(ValueError):
        Batches(run, in_flight=1, most=0)
