"""Game chat: messages in a game's two rooms, and mutes that stop a user writing.

A message is never removed: a moderator's delete sets `deleted` (the text stays for
moderators and the moderation log); readers other than moderators see it as deleted.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Room(models.TextChoices):
    PLAYERS = "players"
    SPECTATORS = "spectators"


MAX_LENGTH = 280


class ChatMessage(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                               related_name="chat_messages")
    room = models.CharField(max_length=16, choices=Room.choices)
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    deleted = models.BooleanField(default=False)
    deleted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
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
                             related_name="mutes")
    until = models.DateTimeField(null=True, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                           related_name="+")
    reason = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["user", "until"], name="mute_user_until"),
        ]

    def __str__(self) -> str:
        return f"mute of user {self.user_id} until {self.until or 'unmuted'}"


def active_mutes(now: object) -> Q:
    """The filter for mutes in force at `now`."""
    return Q(until__isnull=True) | Q(until__gt=now)
