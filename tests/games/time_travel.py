"""An injected clock for turn-based play: days pass within a test.

`TimeTravel` stands in for `django.utils.timezone.now` (which the services, the clock
worker and the pages all read): the time stands still until `advance` moves it ahead,
and the clock worker's heartbeat with it, as if the worker had watched the whole time:
a deadline days away passes and is flagged, not given back as downtime.
`travel(monkeypatch)` starts it, in a test's fixture.

A server in another process (the browser tests' Daphne and worker) keeps the real
time; there `days_pass` moves one game's clock into the past instead, which is the same
to its deadline: the running worker flags it on its next tick.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.db.models import F
from django.utils import timezone

from games.models import ClockHeartbeat, Game
from games.ranked.heartbeat import HEARTBEAT


class TimeTravel:
    def __init__(self, start: datetime) -> None:
        self.at = start

    def now(self) -> datetime:
        return self.at

    def beat(self) -> datetime:
        """The clock worker beats now (it was alive until this moment)."""
        now = self.now()
        ClockHeartbeat.objects.update_or_create(name=HEARTBEAT, defaults={"beat_at": now})
        return now

    def advance(self, **delta: float) -> datetime:
        """`timedelta(**delta)` pass, watched by the clock worker; returns the new now."""
        self.at += timedelta(**delta)
        return self.beat()


def travel(monkeypatch: pytest.MonkeyPatch) -> TimeTravel:
    """From now on (until the test ends) the time is `TimeTravel`'s, standing still at
    the present; the clock worker beats once. Needs the database."""
    clock = TimeTravel(timezone.now())
    monkeypatch.setattr(timezone, "now", clock.now)
    clock.beat()
    return clock


def days_pass(game_id: int, **delta: float) -> None:
    """For game `game_id`, `timedelta(**delta)` pass: its turn began, and its deadline
    falls, that much earlier (and it started that much earlier). What the clock worker
    of another process then sees is what it would see that much later; a write of that
    process whose snapshot is older fails its guard and reads the row again."""
    earlier = timedelta(**delta)
    Game.objects.filter(pk=game_id, turn_started_at__isnull=False).update(
        turn_started_at=F("turn_started_at") - earlier, deadline=F("deadline") - earlier,
        started_at=F("started_at") - earlier)
