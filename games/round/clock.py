"""Fischer clocks as values: what a seat has left, when its turn began, when it flags.

The seat to move is charged when its turn ends (not while it thinks), so a clock is only
`remaining_ms` per seat as of `turn_started_at`; the deadline follows from it. A seat's
first move is free but must come within FIRST_MOVE_SECONDS of its first turn (else the
game is aborted: nobody showed up). Time nobody watched (the clock worker was down, its
last beat older than DOWNTIME_GRACE) is given back to the turn, never charged
(docs/ranked.md, "A game never traps its players").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from games import engine
from games.engine import LEAVE_REASONS

FIRST_MOVE_SECONDS = 30
DOWNTIME_GRACE = timedelta(seconds=10)
_FIRST_MOVE = timedelta(seconds=FIRST_MOVE_SECONDS)


@dataclass(frozen=True, slots=True)
class Clock:
    """Each seat's time as of `turn_started_at`; `moved[s]`: seat s made its free move."""

    remaining_ms: tuple[int, ...]
    moved: tuple[bool, ...]
    increment_ms: int
    turn_started_at: datetime

    def deadline(self, turn: int) -> datetime:
        """When seat `turn`, to move since `turn_started_at`, flags."""
        if not self.moved[turn]:
            return self.turn_started_at + _FIRST_MOVE
        return self.turn_started_at + timedelta(milliseconds=self.remaining_ms[turn])

    def to_json(self) -> dict[str, Any]:
        """The stored `clock` field (the row keeps `turn_started_at` beside it)."""
        return {"remaining_ms": list(self.remaining_ms), "moved": list(self.moved)}


def default_time_control(kind: str) -> dict[str, int]:
    """The clock ranked games of `kind` get: the engine's suggestion for the kind."""
    initial, increment = engine.get(kind).info.clock
    return {"initial": initial, "increment": increment}


def started(seats: int, time_control: dict[str, int], now: datetime) -> Clock:
    """The clock of a game starting at `now`: every seat's initial time, nobody moved."""
    return Clock(remaining_ms=(time_control["initial"] * 1000,) * seats,
                 moved=(False,) * seats, increment_ms=time_control["increment"] * 1000,
                 turn_started_at=now)


def _ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)


def charged(clock: Clock, turn_before: int | None, turn_after: int | None,
            pending: Sequence[tuple[int, dict[str, Any]]], now: datetime) -> Clock:
    """The clock after one step: `pending` (seat, action) were written at `now`, taking
    the turn from `turn_before` to `turn_after`.

    The seat whose turn ended is charged the time since its turn began, plus the
    increment for an action (none for leaving); a timeout leaves it nothing; its first
    action is free and only marks it as moved. A turn that did not end (someone else
    left) keeps running, uncharged. Forced passes are never charged.
    """
    acted = [a for s, a in pending if s == turn_before and a.get("type") != "pass"]
    if turn_before is None or not (acted or turn_after != turn_before or turn_after is None):
        return clock
    seat = turn_before
    kind = acted[0].get("type") if acted else None
    remaining, moved = clock.remaining_ms, clock.moved
    if kind == "timeout":
        remaining = _set(remaining, seat, 0)
    elif moved[seat]:
        left = remaining[seat] - _ms(now - clock.turn_started_at)
        bonus = clock.increment_ms if kind not in LEAVE_REASONS else 0
        remaining = _set(remaining, seat, max(0, left) + bonus)
    elif kind is not None and kind not in LEAVE_REASONS:
        moved = _set(moved, seat, True)  # the opening move is free
    return Clock(remaining, moved, clock.increment_ms, now)


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1:])


def witnessed(deadline: datetime, beat: datetime | None) -> bool:
    """Was the clock worker alive (its last beat `beat`) when `deadline` passed? Only
    then may a flag fall."""
    return beat is not None and deadline <= beat + DOWNTIME_GRACE


def forgiven(clock: Clock, beat: datetime | None, now: datetime) -> Clock:
    """The clock with the time nobody watched (since the last beat, or since the turn
    began if later) given back to the running turn."""
    since = clock.turn_started_at if beat is None else max(beat, clock.turn_started_at)
    unwatched = now - since
    if unwatched <= timedelta(0):
        return clock
    return replace(clock, turn_started_at=clock.turn_started_at + unwatched)
