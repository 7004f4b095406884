"""Tournaments in Django admin: watch them (players, rounds, an Arena's games); a
moderator cancels one or takes a player out, each with a reason, through
`moderation.services`, which logs it. Their rows are written by tournaments.services
alone: nothing is edited here."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy, ngettext_lazy

from bloqueio_site.read_only_admin import ReadOnly
from moderation import services as moderation
from moderation.admin.reason import with_reason
from tournaments.models import Entry, Pairing, Round, Tournament


class EntryInline(ReadOnly, admin.TabularInline):
    model = Entry
    fields = ("user", "joined_at", "withdrawn_at", "withdrawn_because")
    readonly_fields = fields
    extra = 0


class RoundInline(ReadOnly, admin.TabularInline):
    model = Round
    fields = ("number", "byes", "started_at", "finished_at")
    readonly_fields = fields
    extra = 0


class PairingInline(ReadOnly, admin.TabularInline):
    """An Arena's games (a Swiss has none: its games are its rounds' tables)."""

    model = Pairing
    fields = ("game", "seats", "started_at")
    readonly_fields = fields
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("id", "kind", "system", "status", "round_count", "minutes", "starts_at",
                    "created_by", "created_at")
    list_filter = ("status", "system", "kind")
    inlines = [EntryInline, RoundInline, PairingInline]
    actions = ["cancel_tournaments"]

    @admin.action(description=gettext_lazy("Cancel the selected tournaments…"),
                  permissions=["cancel"])
    def cancel_tournaments(self, request: HttpRequest,
                           queryset: QuerySet[Tournament]) -> TemplateResponse | None:
        return with_reason(
            self, request, queryset, title=gettext_lazy("Cancel tournaments"),
            verb=gettext_lazy("Cancel"),
            done=ngettext_lazy("Cancelled %(count)s tournament.",
                               "Cancelled %(count)s tournaments.", "count"),
            run=lambda t, reason: moderation.moderate_cancel_tournament(
                actor=request.user, tournament_id=t.pk, reason=reason) and None)

    def has_cancel_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.cancel_tournament")


@admin.register(Entry)
class EntryAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("tournament", "user", "joined_at", "withdrawn_at", "withdrawn_because")
    list_filter = ("withdrawn_at", "withdrawn_because")
    search_fields = ("user__username",)
    actions = ["remove_entrants"]

    @admin.action(description=gettext_lazy("Take the selected players out of their "
                                           "tournaments…"),
                  permissions=["cancel"])
    def remove_entrants(self, request: HttpRequest,
                        queryset: QuerySet[Entry]) -> TemplateResponse | None:
        return with_reason(
            self, request, queryset, title=gettext_lazy("Take players out of tournaments"),
            verb=gettext_lazy("Take out"),
            done=ngettext_lazy("Took %(count)s player out.", "Took %(count)s players out.",
                               "count"),
            run=lambda entry, reason: moderation.moderate_remove_entrant(
                actor=request.user, entry=entry, reason=reason) and None)

    def has_cancel_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.cancel_tournament")
