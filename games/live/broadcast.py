"""Where committed events go next: a registry of listeners called after commit.

Services never talk to sockets. After a transaction that appended events commits, they
call `publish`, which hands the batch to every registered listener (the real-time layer
registers one; tests register a recorder). A failing listener is logged and never undoes
or blocks the write: the event log in the database is the truth, and clients that miss
a notification catch up with `sync`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Committed:
    """A committed change to one game: its new events (maybe none) and the game after it.

    `change` names what happened: "created", "joined", "left", "started", "aborted",
    "handover", "clock" (time given back after the clock worker's downtime; no
    events), "events" (play went on) or "finished" (these events ended the game).
    `seat_users` maps each seat to its user id, for per-user notifications.
    `v` is the game's version after the change (`Game.version`): it orders changes
    that arrive out of order.
    """

    game_id: int
    events: list[dict[str, Any]]
    game: dict[str, Any]
    change: str = "events"
    seat_users: list[int | None] = field(default_factory=list)
    v: int = 0


Listener = Callable[[Committed], None]
_listeners: list[Listener] = []


def subscribe(listener: Listener) -> Listener:
    if listener not in _listeners:
        _listeners.append(listener)
    return listener


def unsubscribe(listener: Listener) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def publish(message: Committed) -> None:
    for listener in list(_listeners):
        try:
            listener(message)
        except Exception:
            log.exception("broadcast listener %r failed for game %s", listener, message.game_id)
