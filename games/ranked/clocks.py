"""Server clocks: Fischer time control, first-move deadlines, and downtime forgiveness.

The game row is the clock. `clock.remaining_ms` is each seat's time as of
`turn_started_at`; the seat to move is charged when its turn ends. `deadline` is the
moment the seat to move flags, kept on the row so the worker finds due games with an
index and every action can check it under the game lock.

Opening: a seat's first move is not charged, but must come within FIRST_MOVE_SECONDS of
its first turn, or the game is aborted unrated (nobody showed up).

Restarts: the worker beats `ClockHeartbeat` every tick. A gap longer than
DOWNTIME_GRACE means nobody was watching (restart, outage): the next tick pushes every
running turn forward by the unwatched part, so the player to move loses no time to it.
A write that meets a deadline nobody watched pass does the same for its own game and
goes on: it never waits for a worker that may not come. docs/ranked.md has the policy.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import engine
from games.engine import LEAVE_REASONS
from games.models import ClockHeartbeat, Game, Status

FIRST_MOVE_SECONDS = 30
DOWNTIME_GRACE = timedelta(seconds=10)
HEARTBEAT = "clocks"

def default_time_control(kind: str) -> dict[str, int]:
    """The clock ranked games of `kind` get: the engine's suggestion for the kind."""
    initial, increment = engine.get(kind).info.clock
    return {"initial": initial, "increment": increment}


def _ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)


def deadline_of(game: Game) -> datetime | None:
    """When the seat to move flags; None when no clock runs."""
    clock = game.clock
    turn = game.state.get("turn") if isinstance(game.state, dict) else None
    if clock is None or game.status != Status.ACTIVE or turn is None:
        return None
    if game.turn_started_at is None:
        return None
    if not clock["moved"][turn]:
        return game.turn_started_at + timedelta(seconds=FIRST_MOVE_SECONDS)
    return game.turn_started_at + timedelta(milliseconds=clock["remaining_ms"][turn])


def start(game: Game, now: datetime) -> None:
    """Set the clocks of a game that just started (no-op for untimed games)."""
    tc = game.time_control
    if tc is None:
        return
    game.clock = {"remaining_ms": [tc["initial"] * 1000] * game.seat_count,
                  "moved": [False] * game.seat_count}
    game.turn_started_at = now
    game.deadline = deadline_of(game)


def advance(
    game: Game, turn_before: int | None, pending: list[tuple[int, dict[str, Any]]],
    now: datetime,
) -> None:
    """Charge the seat whose turn just ended and start the next turn's clock.

    Called by services._append after the projection (state, status) was updated; it
    changes `clock`, `turn_started_at` and `deadline`, which `_store` writes with the rest.
    """
    clock = game.clock
    if clock is None or game.turn_started_at is None:
        return
    turn_after = game.state.get("turn")
    acted = [a for s, a in pending if s == turn_before and a.get("type") != "pass"]
    if turn_before is not None and (acted or turn_after != turn_before or turn_after is None):
        seat = turn_before
        kind = acted[0].get("type") if acted else None
        if kind == "timeout":
            clock["remaining_ms"][seat] = 0
        elif clock["moved"][seat]:
            left = clock["remaining_ms"][seat] - _ms(now - game.turn_started_at)
            bonus = game.time_control["increment"] * 1000 if kind not in LEAVE_REASONS else 0
            clock["remaining_ms"][seat] = max(0, left) + bonus
        elif kind is not None and kind not in LEAVE_REASONS:
            clock["moved"][seat] = True  # the opening move is free
        game.turn_started_at = now
    game.deadline = deadline_of(game)


# -- who watched the clock --------------------------------------------------------------


def last_beat() -> datetime | None:
    return ClockHeartbeat.objects.filter(name=HEARTBEAT).values_list("beat_at", flat=True).first()


def witnessed(deadline: datetime, beat: datetime | None) -> bool:
    """Was the worker alive when `deadline` passed? Only then may a flag fall."""
    return beat is not None and deadline <= beat + DOWNTIME_GRACE


def forgive_unwatched(game: Game, beat: datetime | None, now: datetime) -> None:
    """Under the game's lock, for a deadline no worker saw pass: give the turn the time
    nobody watched (since the last beat, or since the turn began), as `catch_up` does
    for every game when a worker comes back; the game's deadline moves on accordingly."""
    if game.turn_started_at is None:
        return
    since = game.turn_started_at if beat is None else max(beat, game.turn_started_at)
    unwatched = now - since
    if unwatched <= timedelta(0):
        return
    game.turn_started_at += unwatched
    game.deadline = deadline_of(game)
    game.save(update_fields=["turn_started_at", "deadline"])


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
            games = list(Game.objects.select_for_update().filter(
                status=Status.ACTIVE, deadline__isnull=False))
            for game in games:
                unwatched = now - max(beat.beat_at, game.turn_started_at)
                if unwatched > timedelta(0):
                    game.turn_started_at += unwatched
                    game.deadline = deadline_of(game)
            Game.objects.bulk_update(games, ["turn_started_at", "deadline"])
        if now > beat.beat_at:
            beat.beat_at = now
            beat.save(update_fields=["beat_at"])
    return gap if gap > DOWNTIME_GRACE else timedelta(0)


def tick(now: datetime | None = None) -> int:
    """The worker job: forgive downtime, then flag (or abort) every game past its deadline."""
    from games import services  # services imports this module

    now = now or timezone.now()
    catch_up(now)
    due = list(Game.objects.filter(deadline__lte=now, status=Status.ACTIVE)
               .order_by("deadline").values_list("pk", flat=True)[:500])
    flagged = 0
    for game_id in due:
        if services.expire_clock(game_id=game_id, now=now):
            flagged += 1
    return flagged
