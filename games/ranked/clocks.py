"""The clock worker: it beats a heartbeat, gives time back after downtime, and flags.

The clocks themselves (Fischer time, first-move deadlines, flags, downtime given back)
are part of the round model (games/round/clock.py, games/round/play.py); here is only
what the worker does with them. Every change to a game goes through the one write path
(games/table.py).

Restarts: the worker beats `ClockHeartbeat` every tick. A gap longer than
DOWNTIME_GRACE means nobody was watching (restart, outage): the next tick gives every
running turn the unwatched part back, so the player to move loses no time to it. A
write that meets a deadline nobody watched pass does the same for its own game and goes
on: it never waits for a worker that may not come. docs/ranked.md has the policy.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games import table
from games.models import ClockHeartbeat, Game, Status
from games.ranked.heartbeat import HEARTBEAT, last_beat
from games.round import (
    DOWNTIME_GRACE,
    FIRST_MOVE_SECONDS,
    PRIVATE_FIRST_MOVE_SECONDS,
    default_time_control,
)

__all__ = ["DOWNTIME_GRACE", "FIRST_MOVE_SECONDS", "PRIVATE_FIRST_MOVE_SECONDS", "catch_up",
           "default_time_control", "last_beat", "tick"]


def catch_up(now: datetime | None = None) -> timedelta:
    """Beat the heartbeat; after a gap, give every running turn the unwatched time back.

    Returns the downtime forgiven (zero normally). The heartbeat row lock makes one
    worker do it when several start together.
    """
    now = now or timezone.now()
    with transaction.atomic():
        beat, created = ClockHeartbeat.objects.select_for_update().get_or_create(
            name=HEARTBEAT, defaults={"beat_at": now})
        if created:
            return timedelta(0)
        gap = now - beat.beat_at
        if gap > DOWNTIME_GRACE:
            running = Game.objects.filter(status=Status.ACTIVE, deadline__isnull=False)
            for game_id in running.values_list("pk", flat=True):
                table.give_back_time(game_id=game_id, since=beat.beat_at, now=now)
        if now > beat.beat_at:
            beat.beat_at = now
            beat.save(update_fields=["beat_at"])
    return gap if gap > DOWNTIME_GRACE else timedelta(0)


def tick(now: datetime | None = None) -> int:
    """The worker job: give downtime back, then flag (or abort) every game past its
    deadline; returns how many."""
    now = now or timezone.now()
    catch_up(now)
    due = list(Game.objects.filter(deadline__lte=now, status=Status.ACTIVE)
               .order_by("deadline").values_list("pk", flat=True)[:500])
    return sum(table.expire_clock(game_id=game_id, now=now) for game_id in due)
