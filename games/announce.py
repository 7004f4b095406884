"""The one way a change to a game is announced: after its commit, never before.

Every write (seating, play, the clock, admin actions) ends here: the game's public JSON
is built once, and `broadcast.publish` runs when the transaction commits (at once in
autocommit), so a rolled-back write is never announced.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, Protocol

from django.db import transaction

from games.live import broadcast
from games.models import Game, Seat
from games.selectors import game_json


class HasJson(Protocol):
    def as_json(self) -> dict[str, Any]: ...


def announce_on_commit(game: Game, seats: list[Seat], events: Sequence[HasJson],
                       change: str) -> dict[str, Any]:
    """Queue the after-commit broadcast of `change` to `game`; returns the game's JSON.

    `change` is one of broadcast.Committed's words ("events", "finished", "started"...).
    """
    payload = game_json(game, seats)
    seat_users: list[int | None] = [None] * game.seat_count
    for seat in seats:
        seat_users[seat.seat] = seat.user_id
    message = broadcast.Committed(
        game_id=game.pk, events=[e.as_json() for e in events], game=payload,
        change=change, seat_users=seat_users,
    )
    transaction.on_commit(partial(broadcast.publish, message))
    return payload
