"""The moderation log (append-only, in the database too) and players' reports.

Every moderator action writes one `ModerationLog` row through `moderation.services.record`,
whether it was carried out or refused. A trigger (migration 0002) refuses UPDATE and
DELETE on the table for every client, not only Django.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from bloqueio_site.append_only import AppendOnlyModel

REASON_MAX = 1000


class Action(models.TextChoices):
    ABORT_GAME = "abort_game", _("abort game")
    ANNUL_GAME = "annul_game", _("annul game")
    REMOVE_SEAT = "remove_seat", _("remove seat")
    BAN_USER = "ban_user", _("ban user")
    UNBAN_USER = "unban_user", _("unban user")
    MUTE_USER = "mute_user", _("mute user")
    UNMUTE_USER = "unmute_user", _("unmute user")
    DELETE_MESSAGE = "delete_message", _("delete message")
    RESOLVE_REPORT = "resolve_report", _("resolve report")
    DISMISS_REPORT = "dismiss_report", _("dismiss report")
    CANCEL_TOURNAMENT = "cancel_tournament", _("cancel tournament")
    REMOVE_ENTRANT = "remove_entrant", _("remove from tournament")


DONE = "done"


class ModerationLog(AppendOnlyModel):
    """Who did what to which target, why, and whether it was carried out."""

    append_only_refusal = "the moderation log is append-only"

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.PROTECT, related_name="+",
                              help_text=_("empty: the system"), verbose_name=_("actor"))
    action = models.CharField(_("action"), max_length=32, choices=Action.choices)
    target_type = models.CharField(_("target type"), max_length=64)
    target_id = models.CharField(_("target id"), max_length=64)
    target_repr = models.TextField(_("target"))
    reason = models.TextField(_("reason"))
    outcome = models.TextField(_("outcome"),
                               default=DONE, help_text=_('"done", or why it was refused'))
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("moderation log entry")
        verbose_name_plural = _("moderation log")
        ordering = ["-at", "-id"]
        # No add/change/delete permissions exist to grant: rows come from the services.
        default_permissions = ("view",)
        permissions = [
            ("abort_game", "Can abort a live game"),
            ("annul_game", "Can annul a finished ranked game"),
            ("remove_seat", "Can remove a seat from a live game"),
            ("ban_user", "Can ban and unban users"),
            ("mute_user", "Can mute and unmute users in chat"),
            ("delete_message", "Can delete chat messages"),
            ("cancel_tournament", "Can cancel a tournament or remove a player from it"),
        ]
        indexes = [models.Index(fields=["target_type", "target_id"], name="modlog_target")]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="modlog_reason_required"),
        ]

    def __str__(self) -> str:
        return f"{self.action} {self.target_repr} ({self.outcome})"


class TargetType(models.TextChoices):
    USER = "user", _("user")
    GAME = "game", _("game")
    CHAT_MESSAGE = "chat_message", _("chat message")


class Category(models.TextChoices):
    CHEATING = "cheating", _("cheating")
    ABUSE = "abuse", _("abuse")
    SPAM = "spam", _("spam")
    OTHER = "other", _("other")


class ReportStatus(models.TextChoices):
    OPEN = "open", pgettext_lazy("report", "open")
    RESOLVED = "resolved", pgettext_lazy("report", "resolved")
    DISMISSED = "dismissed", pgettext_lazy("report", "dismissed")


class Report(models.Model):
    """A player's report of a user, a game or a chat message, queued for moderators."""

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="reports_filed", verbose_name=_("reporter"))
    target_type = models.CharField(_("target type"), max_length=16, choices=TargetType.choices)
    target_id = models.PositiveBigIntegerField(_("target id"))
    category = models.CharField(_("category"), max_length=16, choices=Category.choices)
    reason = models.TextField(_("reason"), max_length=REASON_MAX)
    status = models.CharField(_("status"), max_length=16, choices=ReportStatus.choices,
                              default=ReportStatus.OPEN)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+",
                                   verbose_name=_("handled by"))
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    resolution = models.TextField(_("resolution"), blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["status", "created_at"], name="report_queue"),
            # The rate limit counts one reporter's recent reports.
            models.Index(fields=["reporter", "created_at"], name="report_reporter_created"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["reporter", "target_type", "target_id"],
                                    condition=Q(status="open"), name="report_one_open"),
            models.CheckConstraint(condition=Q(target_type__in=TargetType.values),
                                   name="report_target_type"),
        ]

    def __str__(self) -> str:
        return f"report #{self.pk}: {self.target_type} {self.target_id} ({self.status})"
