"""What a user is told (a notification) and how they want to be told it by e-mail."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from notifications import kinds

# The kinds of notification, as notifications/kinds.py registers them (its one list).
Kind = models.TextChoices("Kind", [(kind.value.upper(), (kind.value, kind.label))
                                   for kind in kinds.REGISTRY])
Kind.__module__ = __name__


KINDS = tuple(Kind.values)  # the API's enum (drf-spectacular's NotificationKindEnum)


class Mail(models.TextChoices):
    """Where a notification's e-mail stands. Only PENDING ones are sent (by the worker)."""

    NONE = "none", pgettext_lazy("e-mail", "not wanted")
    PENDING = "pending", pgettext_lazy("e-mail", "pending")
    SENDING = "sending", pgettext_lazy("e-mail", "sending")
    SENT = "sent", pgettext_lazy("e-mail", "sent")
    SKIPPED = "skipped", pgettext_lazy("e-mail", "skipped")
    FAILED = "failed", pgettext_lazy("e-mail", "failed")


class Notification(models.Model):
    """One thing a user is told. A "your turn" stays one unread row per game: a new turn
    in the same game refreshes it (a constraint, not a check, keeps it one)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notifications", verbose_name=_("user"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+", verbose_name=_("game"))
    data = models.JSONField(_("data"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)
    mail = models.CharField(_("e-mail"), max_length=8, choices=Mail.choices,
                            default=Mail.NONE)
    mail_claimed_at = models.DateTimeField(_("e-mail claimed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notification_user_recent"),
            models.Index(fields=["user"], condition=Q(read_at__isnull=True),
                         name="notification_user_unread"),
            models.Index(fields=["mail_claimed_at"], condition=Q(mail__in=["pending", "sending"]),
                         name="notification_mail_queue"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "kind"],
                condition=Q(read_at__isnull=True, kind="your_turn"),
                name="notification_one_unread_turn_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"


class EmailChoice(models.Model):
    """The kinds of notification a user wants by e-mail: none until they opt in."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="+", verbose_name=_("user"))
    your_turn = models.BooleanField(_("your turn"), default=False)
    game_over = models.BooleanField(_("game over"), default=False)
    invitation = models.BooleanField(_("invitation"), default=False)
    report_outcome = models.BooleanField(_("report outcome"), default=False)
    table_ready = models.BooleanField(_("your table is ready"), default=False)

    class Meta:
        verbose_name = _("e-mail choice")
        verbose_name_plural = _("e-mail choices")

    def __str__(self) -> str:
        return f"e-mail choices of {self.user_id}"

    def wants(self, kind: str) -> bool:
        found = kinds.BY_VALUE.get(kind)
        return found is not None and found.mails and bool(getattr(self, found.preference))


class TurnMail(models.Model):
    """When a user was last e-mailed "your turn" for a game: at most one a day each."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+", verbose_name=_("user"))
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+",
                             verbose_name=_("game"))
    sent_at = models.DateTimeField(_("sent at"))

    class Meta:
        verbose_name = _("turn e-mail")
        verbose_name_plural = _("turn e-mails")
        constraints = [models.UniqueConstraint(fields=["user", "game"],
                                               name="turnmail_one_per_user_game")]

    def __str__(self) -> str:
        return f"turn e-mail to {self.user_id} for game {self.game_id}"
