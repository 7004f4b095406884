"""Tournaments in the admin, read-only: their rows are written by tournaments.services
alone (a moderator's cancel is not an admin action yet: docs/tournaments.md)."""

from __future__ import annotations

from django.contrib import admin

from bloqueio_site.read_only_admin import ReadOnly
from tournaments.models import Entry, Round, Tournament


class EntryInline(ReadOnly, admin.TabularInline):
    model = Entry
    fields = ("user", "joined_at", "withdrawn_at")
    readonly_fields = fields
    extra = 0


class RoundInline(ReadOnly, admin.TabularInline):
    model = Round
    fields = ("number", "byes", "started_at", "finished_at")
    readonly_fields = fields
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("id", "kind", "system", "status", "round_count", "starts_at",
                    "created_by", "created_at")
    list_filter = ("status", "kind")
    inlines = [EntryInline, RoundInline]
