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
from games.models import LEAVING_ACTIONS, Event, Invitation, Seat, Status
from games.ranked import leaderboard

RECENT_GAMES = 20


def ratings_json(user: User) -> list[dict[str, Any]]:
    """Ratings per kind: [{kind, rating, games, provisional}] (none before a rated game)."""
    return leaderboard.ratings_json(user.pk)


def _visible_to(viewer: Any) -> Q:
    """The seats whose games `viewer` may see (games/privacy.may_view, in SQL): every
    public game, and a private one (an invitation, a rematch) only to its own table, its
    creator, the users invited to it and staff. So a player reads all of their own games
    on their profile, aborted rematches included, and others read the public ones."""
    public = Q(game__private=False)
    if viewer is None or not viewer.is_authenticated:
        return public
    if viewer.is_staff:
        return Q()
    sat = Exists(Seat.objects.filter(game_id=OuterRef("game_id"), user_id=viewer.pk))
    invited = Exists(Invitation.objects.filter(game_id=OuterRef("game_id"),
                                               invited_id=viewer.pk))
    return public | Q(game__created_by_id=viewer.pk) | Q(sat) | Q(invited)


def profile_json(user: User, viewer: Any = None) -> dict[str, Any]:
    """`user`'s profile as `viewer` (a user, anonymous or None: nobody signed in) reads
    it: the counts of every game, the recent games the viewer may see."""
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
    # Private games (by invitation, rematches) only for those who may see them.
    seats = (Seat.objects.filter(_visible_to(viewer), user=user).select_related("game")
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
