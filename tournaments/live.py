"""A tournament's changes, pushed live to its page's socket (`/ws/tournaments/{id}/`,
tournaments/socket.py).

Every service that changes what a tournament's page shows calls `changed` inside its
transaction, under the tournament's row lock: the tournament's version `v` goes up by
one there, and after the commit (never for a rolled-back change) one frame with the
whole tournament, as the API's detail shows it, goes to its socket through games' one
way of announcing (`games.announce.send_on_commit`).

A table's game ending moves the standings without any tournament service running:
games, below tournaments, cannot call up into it. The worker's tournaments step, which
already reads the playing round's games every 2 s, hears it instead: `note_game_ends`
compares how many of the tournament's games have ended with the count recorded at its
last change, and a difference is a change like any other. So a game's end reaches the
page within one step of the worker, in a transaction of the tournament's own.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from bloqueio_site.jsontext import iso
from games.announce import ToTopic, send_on_commit
from games.models import Game
from tournaments.models import GAME_ENDED, Pairing, System, Table, Tournament

FRAME = "tournament"


def topic(tournament_id: int) -> str:
    """The fan-out topic of a tournament's sockets."""
    return f"tournament:{tournament_id}"


def _games(tournament: Tournament) -> QuerySet[Game]:
    """Every game of the tournament: a Swiss's tables, an Arena's pairings."""
    if tournament.system == System.ARENA:
        return Game.objects.filter(pk__in=Pairing.objects.filter(tournament=tournament)
                                   .values("game"))
    return Game.objects.filter(pk__in=Table.objects.filter(round__tournament=tournament)
                               .values("game"))


def _ended(tournament: Tournament) -> int:
    return _games(tournament).filter(status__in=GAME_ENDED).count()


def changed(tournament: Tournament, *, ended: int | None = None) -> None:
    """Under the tournament's row lock, in the transaction of a change: one version
    more, and the tournament announced after the commit."""
    tournament.v += 1
    tournament.games_ended = _ended(tournament) if ended is None else ended
    tournament.save(update_fields=["v", "games_ended"])
    tournament_id = tournament.pk
    send_on_commit(ToTopic(topic(tournament_id), lambda: frame(tournament_id)))


def note_game_ends(tournament: Tournament) -> bool:
    """Under the tournament's row lock (the worker's step): if a table's game ended
    since the last change, that is a change (the standings moved). True if so."""
    ended = _ended(tournament)
    if ended == tournament.games_ended:
        return False
    changed(tournament, ended=ended)
    return True


def frame(tournament_id: int) -> dict[str, Any]:
    """The frame of the tournament as committed now: `{"type": "tournament", "v",
    "tournament"}` (read after the commit: if a later change committed meanwhile, this
    frame already carries it, at its version, and the later frame is dropped as old)."""
    from tournaments.services import detail  # services calls `changed`: import at use

    tournament = Tournament.objects.get(pk=tournament_id)
    # Moments as the API writes them (ISO 8601, UTC as Z), not as the frame's encoder would.
    shown = {key: iso(value) if isinstance(value, datetime) else value
             for key, value in detail(tournament).items()}
    return {"type": FRAME, "v": tournament.v, "tournament": shown}


def current(tournament_id: int) -> dict[str, Any] | None:
    """The frame of the tournament now, or None if there is no such tournament."""
    if not Tournament.objects.filter(pk=tournament_id).exists():
        return None
    return frame(tournament_id)


def version(tournament_id: int) -> int | None:
    """The tournament's version in the database (None: gone)."""
    return Tournament.objects.filter(pk=tournament_id).values_list("v", flat=True).first()
