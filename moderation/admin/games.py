"""Games in Django admin: watch them (board, seats, events); the moderator actions (abort,
annul, remove a seat) ask for a reason and go through `moderation.services`, which log
them. (The game's chat inline is added by `chat.admin`, which sits above moderation.)"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from bloqueio_site.errors import ServiceError
from games.models import Game, Seat
from moderation import services as moderation
from moderation.admin.links import board
from moderation.admin.reason import ReasonForm, reason_page, with_reason


class SeatInline(admin.TabularInline):
    """The seats, to watch. Who sits where changes only through the services (a seat's
    removal below; joins, leaves, hand-overs), which count every change
    (one more `Game.version`), announce it and guard the game's writes with it: a seat's
    `bot` or `replaced` edited here, even by a superuser, would do none of that."""

    model = Seat
    extra = 0
    can_delete = False
    fields = ("seat", "user", "bot", "replaced", "joined_at", "remove")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=gettext_lazy("moderation"))
    def remove(self, seat: Seat) -> SafeString:
        if seat.pk is None or not seat.game.is_live:
            return mark_safe("")
        url = reverse("admin:games_game_remove_seat", args=[seat.game_id])
        return format_html('<a href="{}?seat={}">{}</a>', url, seat.seat,
                           _("Remove this seat…"))


class RemoveSeatForm(ReasonForm):
    seat = forms.TypedChoiceField(coerce=int)
    field_order = ["seat", "reason"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "ranked", "status", "ply", "created_at", "finished_at")
    list_filter = ("kind", "status", "ranked", "created_at")
    search_fields = ("id__exact", "seats__user__username")
    readonly_fields = ["board", "events", *(f.name for f in Game._meta.fields)]
    inlines = [SeatInline]
    actions = ["abort_games", "annul_games"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # games keep their history; abort instead

    def has_abort_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.abort_game")

    def has_annul_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.annul_game")

    def has_remove_seat_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.remove_seat")

    @admin.display(description=gettext_lazy("board (current ply)"))
    def board(self, game: Game) -> SafeString:
        return board(game)

    @admin.display(description=gettext_lazy("events"))
    def events(self, game: Game) -> SafeString:
        url = reverse("admin:games_event_changelist")
        return format_html('<a href="{}?game__id__exact={}">{}</a> · <a href="{}">{}</a>',
                           url, game.pk, ngettext_lazy("%(count)s event", "%(count)s events",
                                                       "count") % {"count": game.ply},
                           reverse("game", args=[game.pk]), _("game page"))

    @admin.action(description=gettext_lazy("Abort selected games (no result)…"),
                  permissions=["abort"])
    def abort_games(self, request: HttpRequest,
                    queryset: QuerySet[Game]) -> TemplateResponse | None:
        return with_reason(
            self, request, queryset, title=_("Abort games (no result)"), verb=_("Abort"),
            done=ngettext_lazy("Aborted %(count)s game.", "Aborted %(count)s games.", "count"),
            run=lambda game, reason: moderation.moderate_abort(
                actor=request.user, game_id=game.pk, reason=reason) and None)

    @admin.action(description=gettext_lazy(
        "Annul selected ranked games (revert their rating changes)…"),
                  permissions=["annul"])
    def annul_games(self, request: HttpRequest,
                    queryset: QuerySet[Game]) -> TemplateResponse | None:
        # Oldest first: each annulment replays the later games of its players.
        return with_reason(
            self, request, queryset.order_by("finished_at"), title=_("Annul ranked games"),
            verb=_("Annul"),
            done=ngettext_lazy("Annulled %(count)s game.", "Annulled %(count)s games.", "count"),
            run=lambda game, reason: moderation.moderate_annul(
                actor=request.user, game_id=game.pk, reason=reason) and None)

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view(self.remove_seat_view)
        return [path("<int:game_id>/remove-seat/", view, name="games_game_remove_seat"),
                *super().get_urls()]

    def remove_seat_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        """Take one seat out of a live game: a seat choice and a reason, then the service."""
        if not self.has_remove_seat_permission(request):
            raise PermissionDenied
        game = get_object_or_404(Game, pk=game_id)
        form = RemoveSeatForm(request.POST if request.method == "POST" else None,
                              initial={"seat": request.GET.get("seat")})
        form.fields["seat"].choices = [(s.seat, _("seat %(seat)s: %(user)s")
                                        % {"seat": s.seat, "user": s.user})
                                       for s in game.seats.select_related("user")]
        change = reverse("admin:games_game_change", args=[game.pk])
        if form.is_valid():
            seat = form.cleaned_data["seat"]
            try:
                moderation.moderate_remove_seat(actor=request.user, game_id=game.pk,
                                                seat=seat, reason=form.cleaned_data["reason"])
            except ServiceError as exc:
                self.message_user(request, _("Seat %(seat)s: %(detail)s")
                                  % {"seat": seat, "detail": exc.detail}, messages.WARNING)
            else:
                self.message_user(request, _("Seat %(seat)s removed from game %(game)s.")
                                  % {"seat": seat, "game": game.pk})
            return HttpResponseRedirect(change)
        return reason_page(self, request,
                           title=_("Remove a seat from game %(game)s") % {"game": game.pk},
                           form=form, objects=[game], verb=_("Remove seat"),
                           extra={"board": board(game)})
