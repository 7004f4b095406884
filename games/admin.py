"""Game events, invitations and rematch offers in Django admin, read-only (the event log
is append-only; invitations and rematches change only through their services). The games
themselves, with the moderator actions, are in `moderation.admin.games`."""

from __future__ import annotations

from django.contrib import admin

from bloqueio_site.read_only_admin import ReadOnly
from games.models import Event, Invitation, Rematch


@admin.register(Event)
class EventAdmin(ReadOnly, admin.ModelAdmin):
    """Read-only: the event log is append-only."""

    list_display = ("game", "ply", "seat", "action", "at")
    list_filter = ("at",)
    search_fields = ("game__id",)
    readonly_fields = ("game", "ply", "seat", "action", "at")





@admin.register(Invitation)
class InvitationAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("game", "invited", "invited_by", "status", "created_at")
    list_filter = ("status", "created_at")
    search_fields = ("game__id", "invited__username", "invited_by__username")
    list_select_related = ("invited", "invited_by")


@admin.register(Rematch)
class RematchAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("game", "offered_by", "new_game", "created_at")
    search_fields = ("game__id",)
    list_select_related = ("offered_by",)
