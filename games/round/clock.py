"""Clocks as values: what a seat has left, when its turn began, when it flags.

Two kinds of time control (docs/ranked.md, "Clocks"):

- **live** `{initial, increment}` (seconds): Fischer time. The seat to move is charged
  when its turn ends (not while it thinks), so a clock is only `remaining_ms` per seat
  as of `turn_started_at`; the deadline follows from it. A seat's first move is free but
  must come within a window counted from the start of that seat's first turn:
  FIRST_MOVE_SECONDS at an open table (else the game is aborted: nobody showed up),
  PRIVATE_FIRST_MOVE_SECONDS at a private one (an invitation or a rematch: people who
  chose each other, maybe still finding the page), where a miss aborts only while
  nobody has moved and otherwise flags that seat like any missed deadline.
- **absence forfeits** (a game decided so at its start: an organiser's table, where a
  seat that never plays must lose rather than cancel everyone's game): a seat's first
  move gets the longer PRIVATE_FIRST_MOVE_SECONDS when live, its days when turn-based,
  and missing it never aborts: the seat flags like any missed deadline (the others play
  on; in a duel the opponent wins), whoever moved before.
- **turn-based** `{days}` (one of TURN_BASED_DAYS): every turn gets `days` days, time
  does not accumulate; the deadline is `turn_started_at` plus that. First moves have the
  same deadline; missing it flags the seat like any other turn, unless nobody at the
  table has moved yet: then the game is aborted, as in live play.

Either way a missed deadline is a flag (docs/rules.md#leaving), and time nobody watched
(the clock worker was down, its last beat older than DOWNTIME_GRACE) is given back to
the turn, never charged (docs/ranked.md, "A game never traps its players").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from games import engine
from games.engine import LEAVE_REASONS

FIRST_MOVE_SECONDS = 30
PRIVATE_FIRST_MOVE_SECONDS = 120
DOWNTIME_GRACE = timedelta(seconds=10)
# The days a turn-based game may give each move (`{"days": N}`).
TURN_BASED_DAYS = (1, 2, 3, 5, 7, 14)
_DAY_MS = 24 * 3600 * 1000


def turn_based(time_control: Mapping[str, Any] | None) -> bool:
    """A turn-based (days per move) time control, as opposed to a live clock or none:
    players are not expected to be at the table together."""
    return time_control is not None and "days" in time_control


@dataclass(frozen=True, slots=True)
class Clock:
    """Each seat's time as of `turn_started_at`; `moved[s]`: seat s made its first move.

    `per_move_ms` is set for a turn-based clock: each turn gets exactly that much (and
    `remaining_ms` is that much for every seat still playing, 0 for a flagged one).
    `private`: the game's table was chosen (invitation, rematch), which gives live first
    moves PRIVATE_FIRST_MOVE_SECONDS and aborts only while nobody has moved.
    `absence_forfeits`: a missed first move never aborts, it flags the seat (and a live
    first move gets PRIVATE_FIRST_MOVE_SECONDS, as a chosen table's)."""

    remaining_ms: tuple[int, ...]
    moved: tuple[bool, ...]
    increment_ms: int
    turn_started_at: datetime
    per_move_ms: int | None = None
    private: bool = False
    absence_forfeits: bool = False

    def deadline(self, turn: int) -> datetime:
        """When seat `turn`, to move since `turn_started_at`, flags."""
        if self.per_move_ms is not None:
            return self.turn_started_at + timedelta(milliseconds=self.per_move_ms)
        if not self.moved[turn]:
            return self.turn_started_at + timedelta(
                seconds=first_move_seconds(self.private or self.absence_forfeits))
        return self.turn_started_at + timedelta(milliseconds=self.remaining_ms[turn])

    def missed_first_move_aborts(self, turn: int) -> bool:
        """Does seat `turn` missing this deadline abort the game (rather than flag)?
        Live at an open table: when it is that seat's first move. Turn-based or at a
        private table: only when nobody at the table has moved yet (the game never got
        going); later a missed first move flags the seat. Never when absence forfeits:
        the absent seat flags."""
        if self.absence_forfeits:
            return False
        if self.per_move_ms is not None or self.private:
            return not any(self.moved)
        return not self.moved[turn]

    def to_json(self) -> dict[str, Any]:
        """The stored `clock` field (the row keeps `turn_started_at` beside it)."""
        return {"remaining_ms": list(self.remaining_ms), "moved": list(self.moved)}


def first_move_seconds(private: bool) -> int:
    """The live first-move window of a seat, from the start of its first turn: the
    longer one at a chosen table (`private`: an invitation, a rematch, or a game where
    absence forfeits)."""
    return PRIVATE_FIRST_MOVE_SECONDS if private else FIRST_MOVE_SECONDS


def default_time_control(kind: str) -> dict[str, int]:
    """The clock ranked games of `kind` get: the engine's suggestion for the kind."""
    initial, increment = engine.get(kind).info.clock
    return {"initial": initial, "increment": increment}


def started(seats: int, time_control: Mapping[str, int], now: datetime, *,
            private: bool = False, absence_forfeits: bool = False) -> Clock:
    """The clock of a game starting at `now`: every seat's initial time, nobody moved."""
    return restored(time_control, None, now, seats=seats, private=private,
                    absence_forfeits=absence_forfeits)


def restored(time_control: Mapping[str, int], stored: Mapping[str, Any] | None,
             turn_started_at: datetime, *, seats: int = 0, private: bool = False,
             absence_forfeits: bool = False) -> Clock:
    """The clock of `time_control` as stored (`Clock.to_json`), or fresh for `seats`
    seats when `stored` is None; `private` and `absence_forfeits` as the game row says."""
    if turn_based(time_control):
        per_move = time_control["days"] * _DAY_MS
        initial, increment = per_move, 0
    else:
        per_move, initial = None, time_control["initial"] * 1000
        increment = time_control["increment"] * 1000
    if stored is None:
        return Clock((initial,) * seats, (False,) * seats, increment, turn_started_at,
                     per_move, private, absence_forfeits)
    return Clock(tuple(stored["remaining_ms"]), tuple(stored["moved"]), increment,
                 turn_started_at, per_move, private, absence_forfeits)


def _ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)


def charged(clock: Clock, turn_before: int | None, turn_after: int | None,
            pending: Sequence[tuple[int, dict[str, Any]]], now: datetime) -> Clock:
    """The clock after one step: `pending` (seat, action) were written at `now`, taking
    the turn from `turn_before` to `turn_after`.

    The seat whose turn ended is charged the time since its turn began, plus the
    increment for an action (none for leaving); a timeout leaves it nothing; its first
    action is free and only marks it as moved. Turn-based, nothing is charged (the next
    turn gets its days afresh): an action only marks the seat as moved. A turn that did
    not end (someone else left) keeps running, uncharged. Forced passes are never
    charged.
    """
    acted = [a for s, a in pending if s == turn_before and a.get("type") != "pass"]
    if turn_before is None or not (acted or turn_after != turn_before or turn_after is None):
        return clock
    seat = turn_before
    kind = acted[0].get("type") if acted else None
    remaining, moved = clock.remaining_ms, clock.moved
    if kind == "timeout":
        remaining = _set(remaining, seat, 0)
    elif clock.per_move_ms is not None:
        if kind is not None and kind not in LEAVE_REASONS:
            moved = _set(moved, seat, True)
    elif moved[seat]:
        left = remaining[seat] - _ms(now - clock.turn_started_at)
        bonus = clock.increment_ms if kind not in LEAVE_REASONS else 0
        remaining = _set(remaining, seat, max(0, left) + bonus)
    elif kind is not None and kind not in LEAVE_REASONS:
        moved = _set(moved, seat, True)  # the opening move is free
    return replace(clock, remaining_ms=remaining, moved=moved, turn_started_at=now)


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
