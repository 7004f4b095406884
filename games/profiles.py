"""What a user's public profile shows of their games: counts, ratings, recent games.

It lives in games, above accounts, because it reads games; the profile's page and API
(`games.views.profile`, `games.api.profile_views`) serve it, and `/api/me/` gets the
ratings through the part games adds to it (`accounts.selectors.add_me_part`, at ready).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, F, IntegerField, OuterRef, Q
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from accounts.models import User
from bloqueio_site.jsontext import iso
from games.models import LEAVING_ACTIONS, Event, Seat, Status
from games.ranked import leaderboard

RECENT_GAMES = 20


def ratings_json(user: User) -> list[dict[str, Any]]:
    """Ratings per kind: [{kind, rating, games, provisional}] (none before a rated game)."""
    return leaderboard.ratings_json(user.pk)


def profile_json(user: User) -> dict[str, Any]:
    finished = Q(game__status=Status.FINISHED)
    left_by_event = Exists(Event.objects.filter(
        game_id=OuterRef("game_id"), seat=OuterRef("seat"), action__type__in=LEAVING_ACTIONS))
    counts = (
        # Their seats, and those a bot took over from them (games/leavers.py).
        Seat.objects.filter(Q(user=user) | Q(replaced=user))
        .annotate(winner=Cast(KeyTextTransform("winner", "game__result"), IntegerField()),
                  left_by_event=left_by_event)
        .aggregate(
            # Games, not seats: a bot account may hold several seats of one game.
            played=Count("game", filter=finished, distinct=True),
            wins=Count("game", filter=finished & Q(user=user, winner=F("seat")),
                       distinct=True),
            # Finished games they did not see to the end: resigned, flagged, removed,
            # or their seat handed to a bot after they went.
            left=Count("game", filter=finished & (Q(replaced=user)
                                                  | Q(user=user, left_by_event=True)),
                       distinct=True),
        )
    )
    # A bot account holds up to 3 seats of a game: read enough seats for RECENT_GAMES games.
    # Private games (by invitation) are listed nowhere, a profile included.
    seats = (Seat.objects.filter(user=user, game__private=False).select_related("game")
             .order_by("-game__created_at", "-game_id", "seat")[:RECENT_GAMES * 3])
    recent = list({s.game_id: s for s in reversed(seats)}.values())[::-1][:RECENT_GAMES]
    return {
        "username": user.username,
        "bot": user.bot_level or None,
        "date_joined": iso(user.date_joined),
        "games_played": counts["played"],
        "games_finished": counts["played"],
        "games_left": counts["left"],
        "wins": counts["wins"],
        "ratings": ratings_json(user),
        "recent_games": [
            {
                "id": s.game.pk, "kind": s.game.kind, "ranked": s.game.ranked,
                "status": s.game.status, "seat": s.seat, "ply": s.game.ply,
                "result": s.game.result, "created_at": iso(s.game.created_at),
                "finished_at": iso(s.game.finished_at),
            }
            for s in recent
        ],
    }


def me_part(user: User) -> dict[str, Any]:
    """What `/api/me/` shows of the user's games: their ratings."""
    return {"ratings": ratings_json(user)}
