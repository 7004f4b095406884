"""The rules of play around the engine, as one pure model: no Django, no I/O.

A `Round` is a game as its rules of play see it (engine state, seats, clock, status,
result); `play(round, seat, action, now)` returns the `Progress` one action makes
(events, round after, result) or raises a typed `refusals.Refusal`. The platform loads
a round, calls `play`, writes the progress once and announces it (games/round_store.py,
games/table.py; docs/architecture.md, "The round model and the one write path").

>>> from datetime import datetime, timezone
>>> from games import round as rnd
>>> now = datetime(2026, 1, 1, tzinfo=timezone.utc)
>>> game = rnd.start("bloqueio2", None, now)
>>> done = rnd.play(game, 0, rnd.Act({"type": "move", "to": [2, 5]}, ply=0), now)
>>> [e.action for e in done.events], done.round_after.ply, done.result
([{'type': 'move', 'to': [2, 5]}], 1, None)
"""

from __future__ import annotations

from games.round import refusals
from games.round.clock import (
    DOWNTIME_GRACE,
    FIRST_MOVE_SECONDS,
    PRIVATE_FIRST_MOVE_SECONDS,
    TURN_BASED_DAYS,
    Clock,
    default_time_control,
    first_move_seconds,
    turn_based,
)
from games.round.model import (
    Abort,
    Act,
    Action,
    Flag,
    Leave,
    Progress,
    Resume,
    Round,
    RoundEvent,
    SeatStatus,
    Status,
    start,
    waiting,
)
from games.round.play import play, replay

__all__ = [
    "DOWNTIME_GRACE",
    "FIRST_MOVE_SECONDS",
    "PRIVATE_FIRST_MOVE_SECONDS",
    "TURN_BASED_DAYS",
    "Abort",
    "Act",
    "Action",
    "Clock",
    "Flag",
    "Leave",
    "Progress",
    "Resume",
    "Round",
    "RoundEvent",
    "SeatStatus",
    "Status",
    "default_time_control",
    "first_move_seconds",
    "play",
    "refusals",
    "replay",
    "start",
    "turn_based",
    "waiting",
]
