"""Game events, invitations, rematch offers and the outbox in Django admin, read-only
(the event log is append-only; invitations and rematches change only through their
services, outbox rows only through the worker). The games themselves, with the moderator
actions, are in `moderation.admin.games`."""

from __future__ import annotations

from django.contrib import admin

from bloqueio_site.read_only_admin import ReadOnly
from games.models import Event, Invitation, Outbox, Rematch


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


@admin.register(Outbox)
class OutboxAdmin(ReadOnly, admin.ModelAdmin):
    """Read-only: what changes caused, and whether the worker carried it out (a row
    put off again and again shows its `last_error`)."""

    list_display = ("id", "kind", "game", "created_at", "done_at", "attempts", "due_at")
    list_filter = ("kind", "done_at")
    search_fields = ("game__id",)
    raw_id_fields = ("game",)
    ordering = ("-id",)
