"""Game events in Django admin, read-only (the event log is append-only). The games
themselves, with the moderator actions, are in `moderation.admin.games`."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Event


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
