"""Game chat: messages in a game's two rooms, and mutes that stop a user writing.

A message is never removed: a moderator's delete sets `deleted` (the text stays for
moderators and the moderation log); readers other than moderators see it as deleted.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class Room(models.TextChoices):
    PLAYERS = "players", pgettext_lazy("chat room", "players")
    SPECTATORS = "spectators", pgettext_lazy("chat room", "spectators")


MAX_LENGTH = 280


class ChatMessage(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat",
                             verbose_name=_("game"))
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="chat_messages", verbose_name=_("author"))
    room = models.CharField(_("room"), max_length=16, choices=Room.choices)
    text = models.CharField(_("text"), max_length=MAX_LENGTH)
    created_at = models.DateTimeField(_("sent at"), auto_now_add=True)
    deleted = models.BooleanField(_("deleted"), default=False)
    deleted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+",
                                   verbose_name=_("deleted by"))
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["id"]
        indexes = [
            models.Index(fields=["game", "room", "id"], name="chat_game_room_id"),
            # The rate limit counts one author's recent messages.
            models.Index(fields=["author", "created_at"], name="chat_author_created"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} in game {self.game_id} ({self.room})"


class Mute(models.Model):
    """The user may not write in any chat until `until` (null: until unmuted)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="mutes", verbose_name=_("user"))
    until = models.DateTimeField(_("until"), null=True, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+", verbose_name=_("muted by"))
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")
        indexes = [
            models.Index(fields=["user", "until"], name="mute_user_until"),
        ]

    def __str__(self) -> str:
        return f"mute of user {self.user_id} until {self.until or 'unmuted'}"


def active_mutes(now: object) -> Q:
    """The filter for mutes in force at `now`."""
    return Q(until__isnull=True) | Q(until__gt=now)
