"""The reports queue: open first, oldest first; resolve or dismiss with a note (logged)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.db.models import Case, IntegerField, Model, QuerySet, Value, When
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from bloqueio_site.read_only_admin import ReadOnly
from games.models import Game
from moderation import services
from moderation.admin.links import admin_link, board, links
from moderation.admin.reason import with_reason
from moderation.models import Report, ReportStatus, TargetType


def _target(report: Report) -> Model | None:
    return services.report_target(report.target_type, report.target_id)


def _game_of(report: Report, target: Model | None) -> Game | None:
    if isinstance(target, Game):
        return target
    game_id = getattr(target, "game_id", None)
    return Game.objects.filter(pk=game_id).first() if game_id else None


def _note(report: Report) -> str:
    return _("Report #%(id)s %(status)s.") % {"id": report.pk,
                                              "status": services.REPORT_STATUS[report.status]}


@admin.register(Report)
class ReportAdmin(ReadOnly, admin.ModelAdmin):
    # Reports change only through resolve and dismiss (logged), never by hand.
    list_display = ("id", "status", "created_at", "category", "target_type", "target",
                    "reporter", "handled_by")
    list_filter = ("status", "category", "target_type", "created_at")
    search_fields = ("reporter__username", "reason", "resolution", "target_id")
    list_select_related = ("reporter", "handled_by")
    fields = ("reporter", "target_type", "target", "board", "category", "reason", "status",
              "created_at", "handled_by", "handled_at", "resolution")
    readonly_fields = fields
    actions = ["resolve_reports", "dismiss_reports"]

    def get_ordering(self, request: HttpRequest) -> tuple[Any, ...]:
        # The queue: open reports first, then oldest first.
        open_first = Case(When(status=ReportStatus.OPEN, then=Value(0)), default=Value(1),
                          output_field=IntegerField())
        return (open_first.asc(), "created_at", "id")

    def has_handle_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.change_report")

    @admin.display(description=gettext_lazy("target"))
    def target(self, report: Report) -> SafeString:
        target = _target(report)
        if target is None:
            return format_html("{} {} ({})", report.target_type, report.target_id,
                               _("gone"))
        pairs = []
        if report.target_type == TargetType.USER:
            pairs.append((reverse("profile", args=[target.get_username()]), _("profile")))
        game = _game_of(report, target)
        if game is not None:
            pairs.append((reverse("game", args=[game.pk]), _("game page")))
        return admin_link(target) + (mark_safe(" · ") + links(pairs) if pairs else "")

    @admin.display(description=gettext_lazy("board"))
    def board(self, report: Report) -> SafeString:
        return board(_game_of(report, _target(report)))

    @admin.action(description=gettext_lazy("Resolve selected reports (with a note)"),
                  permissions=["handle"])
    def resolve_reports(self, request: HttpRequest,
                        queryset: QuerySet[Report]) -> TemplateResponse | None:
        return self._close(
            request, queryset, services.resolve_report, title=_("Resolve reports"),
            verb=_("Resolve"), done=ngettext_lazy(
                "Resolved %(count)s report.", "Resolved %(count)s reports.", "count"))

    @admin.action(description=gettext_lazy("Dismiss selected reports (with a note)"),
                  permissions=["handle"])
    def dismiss_reports(self, request: HttpRequest,
                        queryset: QuerySet[Report]) -> TemplateResponse | None:
        return self._close(
            request, queryset, services.dismiss_report, title=_("Dismiss reports"),
            verb=_("Dismiss"), done=ngettext_lazy(
                "Dismissed %(count)s report.", "Dismissed %(count)s reports.", "count"))

    def _close(self, request: HttpRequest, queryset: QuerySet[Report],
               close: Callable[..., Report], *, title: str, verb: str,
               done: Promise) -> TemplateResponse | None:
        """Ask for the moderator's note, then `close` (resolve or dismiss) each report."""
        return with_reason(
            self, request, queryset, title=title, verb=verb, done=done, label=_("Note"),
            run=lambda r, note: _note(close(moderator=request.user, report_id=r.pk,
                                            note=note)))
