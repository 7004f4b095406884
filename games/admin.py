"""Game events, invitations and rematch offers in Django admin, read-only (the event log
is append-only; invitations and rematches change only through their services). The games
themselves, with the moderator actions, are in `moderation.admin.games`."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Event, Invitation, Rematch


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


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never changed here: the services keep these rows consistent."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    list_display = ("game", "invited", "invited_by", "status", "created_at")
    list_filter = ("status", "created_at")
    search_fields = ("game__id", "invited__username", "invited_by__username")
    list_select_related = ("invited", "invited_by")


@admin.register(Rematch)
class RematchAdmin(ReadOnlyAdmin):
    list_display = ("game", "offered_by", "new_game", "created_at")
    search_fields = ("game__id",)
    list_select_related = ("offered_by",)
