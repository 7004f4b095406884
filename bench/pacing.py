"""A fixed offered load for bench/load.py (`--rate R`): moves released at R a second
across all the games, for a latency below saturation instead of a closed loop's.

In the closed loop every player sends the moment it sees its turn, so with G slots the
server always has ~G moves queued and p99 follows from throughput (docs/performance.md,
"One hop an API call, and what a closed loop allows"). With a pacer a player that sees
its turn first takes the next free send time, spaced 1/R after the one before (or now,
if that is past), and waits for it; its move's latency still counts from its send. A
send time nobody asks for is not kept for later (a fixed timetable would send the
missed moves in a burst when players come back, timing the burst, not the load). The
offered load is then at most R moves/s; the measured rate falls short of R only where
the server (or the games' turn order) cannot keep up, which the report shows as
`moves_per_s` below `offered_moves_per_s`.
"""

from __future__ import annotations

import asyncio
import time


class Pacer:
    """Send times spaced `1 / rate` apart, handed out in the order they are asked for."""

    def __init__(self, rate: float) -> None:
        if rate <= 0:
            raise ValueError("a rate is moves a second, above 0")
        self.gap = 1 / rate
        self.last = float("-inf")

    async def wait(self) -> None:
        """Until this caller's send time (at once when the schedule is behind)."""
        now = time.perf_counter()
        at = self.last = max(now, self.last + self.gap)
        if at > now:
            await asyncio.sleep(at - now)
