"""Moderation in Django admin: watch games, abort them, remove a seat; events are read-only."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from bloqueio_site.errors import ServiceError
from games import services
from games.models import Event, Game, Seat
from games.ranked import ratings


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    can_delete = False
    readonly_fields = ("seat", "user", "joined_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "ranked", "status", "ply", "created_at", "finished_at")
    list_filter = ("status", "kind", "ranked")
    search_fields = ("id", "seats__user__username")
    readonly_fields = [f.name for f in Game._meta.fields]
    inlines = [SeatInline]
    actions = ["abort_games", "annul_games"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # games keep their history; abort instead

    def _each(self, request: HttpRequest, games: QuerySet[Game], write: Any, done: str) -> None:
        """Apply a service to every selected game; a refusal is reported, not fatal."""
        count = 0
        for game in games:
            try:
                write(game_id=game.pk)
                count += 1
            except ServiceError as exc:
                self.message_user(request, f"Game {game.pk}: {exc.detail}", messages.WARNING)
        self.message_user(request, f"{done} {count} game(s).")

    @admin.action(description="Abort selected games (no result)")
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        self._each(request, queryset, services.abort_game, "Aborted")

    @admin.action(description="Annul selected ranked games (revert their rating changes)")
    def annul_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        # Oldest first: each annulment replays the later games of its players.
        self._each(request, queryset.order_by("finished_at"), ratings.annul_game, "Annulled")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Read-only: the event log is append-only."""

    list_display = ("game", "ply", "seat", "action", "at")
    list_filter = ("at",)
    search_fields = ("game__id",)
    readonly_fields = ("game", "ply", "seat", "action", "at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
