"""Helpers for ranked-play tests: time travel and finishing games quickly."""

from __future__ import annotations

from datetime import datetime, timedelta

from accounts.models import User
from games import services
from games.models import Game
from games.ranked import clocks


def watched(start: datetime, end: datetime, step: float = 5.0) -> None:
    """The clock worker was alive from `start` to `end` (heartbeats every `step` s)."""
    moment = start
    while moment <= end:
        clocks.catch_up(moment)
        moment += timedelta(seconds=step)
    clocks.catch_up(end)


def finish_by_resignations(game: Game, users: list[User], order: list[int]) -> Game:
    """Seats in `order` resign one after another; the last one left wins."""
    for seat in order:
        services.resign(game_id=game.pk, user=users[seat])
    game.refresh_from_db()
    return game
