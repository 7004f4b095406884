"""What a ban does to games: connected to accounts' ban signals in `games.apps`, so
accounts never imports games (docs/architecture.md, "Layers")."""

from __future__ import annotations

import logging
from typing import Any

from bloqueio_site.errors import ServiceError
from games import my_games, services
from games.errors import AlreadyLeft, AlreadyStarted, GameOver, NotAPlayer
from games.models import QueueEntry, Status
from games.ranked import matchmaking

log = logging.getLogger(__name__)


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
    for seat, game in my_games.held_seats(user.pk):
        game_id = game.pk
        try:
            if game.status == Status.WAITING:
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
