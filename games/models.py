"""Games, their seats, and the append-only event log every game is derived from.

`Event` rows are the source of truth. `Game.state`, `Game.ply` and `Game.result` are a
projection of them, kept in the same transaction as each append for cheap reads and
rebuildable at any time (`manage.py rebuild_games`).
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q


class Status(models.TextChoices):
    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


LIVE_STATUSES = (Status.WAITING, Status.ACTIVE)


class Game(models.Model):
    kind = models.CharField(max_length=32)
    ranked = models.BooleanField(default=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    seat_count = models.PositiveSmallIntegerField()
    # {"initial": seconds, "increment": seconds} or null for untimed games.
    time_control = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The projection: derived from the events, rebuilt by `rebuild_games`.
    ply = models.PositiveIntegerField(default=0)
    state = models.JSONField()
    result = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="game_status_created"),
            models.Index(fields=["kind", "status", "-created_at"], name="game_kind_status_created"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=2) & Q(seat_count__lte=4), name="game_seat_count"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.status})"

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_STATUSES


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_index"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]
        indexes = [models.Index(fields=["user", "-joined_at"], name="seat_user_recent")]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat}: {self.user_id}"


class AppendOnlyError(RuntimeError):
    """Raised on any attempt to change or remove a recorded event."""


class EventQuerySet(models.QuerySet["Event"]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("events are append-only")

    def delete(self) -> NoReturn:  # type: ignore[override]
        raise AppendOnlyError("events are append-only")


class Event(models.Model):
    """One entry of a game's history: an action, a pass, or a seat leaving."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    at = models.DateTimeField()

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="event_unique_ply"),
            models.CheckConstraint(condition=Q(ply__gte=1), name="event_ply_positive"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} ply {self.ply}: {self.action.get('type')}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise AppendOnlyError("events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError("events are append-only")

    def as_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "seat": self.seat, "action": self.action,
                "at": self.at.isoformat().replace("+00:00", "Z")}
