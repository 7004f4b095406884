"""Rating reads: leaderboards, a player's rating history, a user's ratings per kind."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count, QuerySet
from django.utils import timezone

from bloqueio_site import soft_cache
from bloqueio_site.jsontext import iso
from games.models import Rating, RatingChange

# "Active": played a rated game of the kind within this many days.
ACTIVE_DAYS = 180
PAGE_SIZE = 20


def board(*, kind: str, now: datetime | None = None) -> QuerySet[Rating]:
    """Established, active players of `kind`, best first (ties by user id, stable); people
    only: the bots' ratings are shown on their profiles."""
    cutoff = (now or timezone.now()) - timedelta(days=ACTIVE_DAYS)
    return (Rating.objects.filter(kind=kind, provisional=False, last_played_at__gte=cutoff,
                                  user__is_active=True, user__bot_level="")
            .order_by("-rating", "user_id"))


@dataclass(frozen=True)
class Histogram:
    """How many listed players hold each rating, best first: total count and the rank
    of any rating are prefix sums, so pages need no COUNT over the whole board."""

    ratings: list[int]  # descending
    above: list[int]  # players strictly above ratings[i]
    total: int

    def rank(self, rating: int) -> int:
        """Competition rank of `rating`: 1 + players rated higher."""
        i = bisect.bisect_left(self.ratings, -rating, key=lambda r: -r)  # descending
        return 1 + (self.above[i] if i < len(self.ratings) else self.total)

    def locate(self, offset: int) -> tuple[int, int] | None:
        """(rating at position `offset`, how many with that rating come before it)."""
        if not self.ratings:
            return None
        for rating, above, nxt in zip(self.ratings, self.above, [*self.above[1:], self.total],
                                      strict=True):
            if offset < nxt:
                return rating, offset - above
        return None


def histogram(*, kind: str, now: datetime | None = None) -> Histogram:
    """The board's histogram, cached LEADERBOARD_CACHE_SECONDS (default 30): ranks and
    page boundaries may lag a finished game by that much; the rows themselves are fresh.
    With the cache unreachable it is counted from the database each time (never a 500)."""
    seconds = getattr(settings, "LEADERBOARD_CACHE_SECONDS", 30)
    key = f"leaderboard:{connection.settings_dict['NAME']}:{kind}"
    cached = soft_cache.get(key) if seconds else None
    if cached is not None:
        return cached
    rows = list(board(kind=kind, now=now).order_by("-rating").values("rating")
                .annotate(n=Count("id")).values_list("rating", "n"))
    above, seen = [], 0
    for _, n in rows:
        above.append(seen)
        seen += n
    found = Histogram([r for r, _ in rows], above, seen)
    if seconds:
        soft_cache.set(key, found, seconds)
    return found


def page(*, kind: str, number: int, size: int = PAGE_SIZE) -> tuple[int, list[dict[str, Any]]]:
    """(total, rows) of page `number` (1-based): rows [{rank, username, rating, games}].

    The page is fetched from the rating where it starts (index range scan), skipping
    only the ties before it, never OFFSET over the whole board.
    """
    hist = histogram(kind=kind)
    start = hist.locate((number - 1) * size)
    if start is None:
        return hist.total, []
    rating, skip = start
    rows = (board(kind=kind).filter(rating__lte=rating).select_related("user")
            .only("rating", "games", "user__username")[skip:skip + size])
    return hist.total, [{"rank": hist.rank(r.rating), "username": r.user.username,
                         "rating": r.rating, "games": r.games} for r in rows]


PROVISIONAL_LISTED = 50


def provisional(*, kind: str, now: datetime | None = None) -> list[dict[str, Any]]:
    """Active players of `kind` whose rating is still provisional (too few rated games,
    or too uncertain), best first: listed apart from the board, unranked, at most
    PROVISIONAL_LISTED of them."""
    cutoff = (now or timezone.now()) - timedelta(days=ACTIVE_DAYS)
    rows = (Rating.objects.filter(kind=kind, provisional=True, last_played_at__gte=cutoff,
                                  user__is_active=True, user__bot_level="", games__gt=0)
            .select_related("user").only("rating", "games", "user__username")
            .order_by("-rating", "user_id")[:PROVISIONAL_LISTED])
    return [{"username": r.user.username, "rating": r.rating, "games": r.games} for r in rows]


def history(*, user_id: int, kind: str) -> list[dict[str, Any]]:
    """[{game, at, rating}] oldest first: the rating after each rated game."""
    rows = (RatingChange.objects.filter(user_id=user_id, kind=kind)
            .order_by("at", "game_id").values_list("game_id", "at", "rating_after"))
    return [{"game": game, "at": iso(at), "rating": rating} for game, at, rating in rows]


def ratings_json(user_id: int) -> list[dict[str, Any]]:
    """[{kind, rating, games, provisional}] for every kind the user has a rating in."""
    rows = Rating.objects.filter(user_id=user_id).order_by("kind")
    return [{"kind": r.kind, "rating": r.rating, "games": r.games,
             "provisional": r.provisional} for r in rows]
