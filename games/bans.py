"""What a ban does to games: connected to accounts' ban signals in `games.apps`, so
accounts never imports games (docs/architecture.md, "Layers")."""

from __future__ import annotations

import logging
from typing import Any

from bloqueio_site.errors import ServiceError
from games import services
from games.errors import AlreadyLeft, AlreadyStarted, GameOver, NotAPlayer
from games.models import LIVE_STATUSES, QueueEntry, Seat, Status
from games.ranked import matchmaking

log = logging.getLogger(__name__)


def live_seats(user_id: int) -> list[tuple[int, int, bool]]:
    """(game id, seat, waiting?) of every seat the user still holds in a live game,
    oldest game first (seats already left, by resigning or timing out, are skipped)."""
    seats = (Seat.objects.filter(user_id=user_id, game__status__in=LIVE_STATUSES)
             .order_by("game_id").values_list("game_id", "seat", "game__status", "game__state"))
    return [(game_id, seat, status == Status.WAITING)
            for game_id, seat, status, state in seats
            if status == Status.WAITING or state["in_game"][seat]]


def leave_queue(sender: Any, *, user: Any, report: Any, **kwargs: Any) -> None:
    """`user_banning`, in the ban's transaction: out of the ranked queue. A matcher
    holding the entry (SKIP LOCKED) commits its game first, and `free_seats` then finds
    that game and leaves it."""
    report.queue_entries = QueueEntry.objects.filter(user_id=user.pk).count()
    matchmaking.leave_queue(user=user)


def free_seats(sender: Any, *, user: Any, report: Any, **kwargs: Any) -> None:
    """`user_banned_seats`, after the ban commits and the sockets close: leave the waiting
    games, be removed (`removed` event) from the active ones, each a game write of its
    own (a refusal there never undoes the ban); what happened goes into `report`."""
    for game_id, seat, waiting in live_seats(user.pk):
        try:
            if waiting:
                try:
                    services.leave_game(game_id=game_id, user=user)
                    report.left_waiting.append(game_id)
                    continue
                except AlreadyStarted:
                    pass  # it filled up meanwhile: remove the seat like any active one
            services.remove_seat(game_id=game_id, seat=seat, why="removed")
            report.removed_from.append(game_id)
        except (AlreadyLeft, GameOver, NotAPlayer):
            continue  # gone already (resigned, finished, or left meanwhile)
        except ServiceError as exc:
            # e.g. the database briefly unavailable: the seat stays; a repeated ban retries it.
            report.problems.append(f"game {game_id}: {exc.detail}")
            log.warning("ban of user %s: game %s refused: %s", user.pk, game_id, exc.detail)
