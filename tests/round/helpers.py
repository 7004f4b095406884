"""Helpers for the round model's tests: a fixed clock, scripted games, vector positions."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from games import engine
from games import round as rnd
from tests.conftest import VECTORS

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
TIMED = {"initial": 60, "increment": 2}

# bloqueio2: both pawns walk straight on; seat 0 then stands one step from its goal.
RACE = [action for row in range(2, 10) for action in (
    {"type": "move", "to": [row, 5]}, {"type": "move", "to": [11 - row, 4]})]
WIN = {"type": "move", "to": [10, 5]}  # seat 0's step into its goal row after RACE


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def moved(round_: rnd.Round, seat: int, action: dict[str, Any], now: datetime,
          **options: Any) -> rnd.Progress:
    return rnd.play(round_, seat, rnd.Act(action, round_.ply), now, **options)


def script(round_: rnd.Round, actions: list[dict[str, Any]], seconds: float = 0,
           step: float = 0) -> rnd.Round:
    """Play `actions`, each by the seat to move, from `seconds` after T0, `step` apart."""
    for n, action in enumerate(actions):
        round_ = moved(round_, round_.state.turn, action, at(seconds + n * step),
                       last_beat=at(seconds + n * step)).round_after
    return round_


def opened(kind: str = "bloqueio2", time_control: dict[str, int] | None = None
           ) -> rnd.Round:
    """A timed game where every seat made its free first move (at 1 s intervals)."""
    start = rnd.start(kind, time_control or TIMED, T0)
    rules = engine.get(kind)
    round_ = start
    for n in range(rules.seats):
        action = rules.legal_actions(round_.state)[0].to_json()
        round_ = moved(round_, round_.state.turn, action, at(n + 1)).round_after
    return round_


def vector(kind: str, case_id: str) -> dict[str, Any]:
    with (VECTORS / f"{kind}.jsonl").open() as f:
        return next(c for c in map(json.loads, f) if c["id"] == case_id)


def at_position(kind: str, state_json: dict[str, Any]) -> rnd.Round:
    """An untimed running round in the position `state_json` (a vector's start)."""
    start = rnd.start(kind, None, T0)
    return replace(start, state=engine.get(kind).state_from_json(state_json))


TURN_BASED = {"days": 2}
DAY = timedelta(days=1)


def day(days: float) -> datetime:
    """`days` days after T0."""
    return T0 + timedelta(days=days)
