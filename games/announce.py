"""The one way a visible change is announced: queued inside its transaction, sent after
its commit, never before (zulip's ``send_event_on_commit``).

Every service that changes what someone sees calls ``send_on_commit`` with what to
announce, from inside the transaction that makes the change: a game's change (its
events, seats, status, result: ``broadcast.Committed``, built by ``announce_on_commit``),
a message to a game's sockets that is not an event (chat: ``ToGame``), or a personal
notice to users' ``/ws/me/`` sockets (notifications, rematches: ``ToUsers``), or a
message to the sockets of a topic an app above games owns (a tournament: ``ToTopic``). It runs
when the transaction commits (at once in autocommit), so a rolled-back write is never
announced, and it is the live layer's single entry point: game changes go to the
``games.live.broadcast`` listeners (the sockets' fan-out), the others
straight to the fan-out (``games.live.realtime``). The frames on the wire are the
fan-out's, unchanged (docs/realtime.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from django.db import transaction

from games.live import broadcast, realtime, writers
from games.models import Game, Seat
from games.selectors import game_json

log = logging.getLogger(__name__)

Message = dict[str, Any]


@dataclass(frozen=True)
class ToGame:
    """A message for a game's sockets that is not one of its events (a chat message,
    a deletion); ``message["type"]`` is the fan-out's (``game.chat``)."""

    game_id: int
    message: Message


@dataclass(frozen=True)
class ToUsers:
    """A personal ``notify`` message for each of ``user_ids`` (their ``/ws/me/``).

    ``message`` may be a function that builds it after the commit, for a notice that
    reads the committed database (the unread count)."""

    user_ids: Sequence[int]
    message: Message | Callable[[], Message]


@dataclass(frozen=True)
class ToTopic:
    """A message for the sockets of a fan-out topic that games does not name itself (an
    app above games: a tournament's page, ``tournament:{id}``). ``message`` may be a
    function that builds it after the commit, from the committed database."""

    topic: str
    message: Message | Callable[[], Message]


Announcement = broadcast.Committed | ToGame | ToUsers | ToTopic


def send_on_commit(*announcements: Announcement) -> None:
    """Queue ``announcements`` for the live layer; they go out, in order, after commit.
    The process holds a writer's lease first (games/live/writers.py): if it dies between
    the commit and the sending, the other processes' sockets learn it from the lease."""
    if announcements:
        writers.ensure()
        transaction.on_commit(partial(_send, announcements))


def _send(announcements: Sequence[Announcement]) -> None:
    for item in announcements:
        if isinstance(item, broadcast.Committed):
            broadcast.publish(item)
        elif isinstance(item, ToGame):
            realtime.send_to_game(item.game_id, item.message)
        elif isinstance(item, ToTopic):
            try:
                message = item.message() if callable(item.message) else item.message
            except Exception:
                # Committed anyway: the topic's sockets catch up from the database
                # (a tournament's at its heartbeat); the writer must not fail for it.
                log.warning("announce: the message for %s could not be built", item.topic,
                            exc_info=True)
                continue
            realtime.send_to_topic(item.topic, message)
        else:
            message = item.message() if callable(item.message) else item.message
            realtime.notify_users(list(item.user_ids), message)


class HasJson(Protocol):
    def as_json(self) -> dict[str, Any]: ...


def announce_on_commit(game: Game, seats: list[Seat], events: Sequence[HasJson],
                       change: str) -> dict[str, Any]:
    """``send_on_commit`` the change ``change`` to ``game``; returns the game's JSON.

    Every write to a game (seating, play, the clock, admin actions) ends here: the
    game's public JSON is built once. ``change`` is one of broadcast.Committed's words
    ("events", "finished", "started"...).
    """
    committed = _committed(game, seats, events, change)
    send_on_commit(committed)
    return committed.game


def announce_committed(game: Game, seats: list[Seat], events: Sequence[HasJson],
                       change: str) -> dict[str, Any]:
    """The same for a write already committed outside any Django transaction (a move the
    event loop wrote itself, games/table.py): sent at once."""
    committed = _committed(game, seats, events, change)
    _send([committed])
    return committed.game


def _committed(game: Game, seats: list[Seat], events: Sequence[HasJson],
               change: str) -> broadcast.Committed:
    seat_users: list[int | None] = [None] * game.seat_count
    for seat in seats:
        seat_users[seat.seat] = seat.user_id
    return broadcast.Committed(
        game_id=game.pk, events=[e.as_json() for e in events], game=game_json(game, seats),
        change=change, seat_users=seat_users, v=game.version,
    )
