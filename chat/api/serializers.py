"""Input validation and (for the schema) output shapes of the chat API."""

from __future__ import annotations

from rest_framework import serializers

from bloqueio_site.strict_fields import StrictCharField
from games.api.serializers import AfterIn as GameAfterIn


class PostIn(serializers.Serializer):
    # As given: no trimming, "" allowed (the service cleans the text and says `invalid`
    # or `too_long` itself).
    text = StrictCharField(trim_whitespace=False, allow_blank=True,
                           help_text="up to 280 characters once cleaned (control "
                                     "characters removed, whitespace collapsed)")


class DeleteIn(serializers.Serializer):
    reason = StrictCharField(required=False, default="",
                             help_text="why, for the moderation log (up to 500 characters); "
                                       "without one: 400 `reason_required`")


class AfterIn(GameAfterIn):
    """`?after=N`: messages with an id greater than N."""


class MessageOut(serializers.Serializer):
    id = serializers.IntegerField()
    room = serializers.ChoiceField(choices=["players", "spectators"])
    username = serializers.CharField()
    text = serializers.CharField(help_text="empty when deleted (moderators still see it)")
    at = serializers.DateTimeField()
    deleted = serializers.BooleanField()


class HistoryOut(serializers.Serializer):
    messages = MessageOut(many=True, help_text="oldest first, at most 200")
    more = serializers.BooleanField(help_text="more messages follow: ask again with "
                                              "`after` = the last id")
    room = serializers.ChoiceField(
        choices=["players", "spectators"], allow_null=True,
        help_text="the room your messages go to now (null: not signed in, read only)")
    rooms = serializers.ListField(child=serializers.CharField(),
                                  help_text="the rooms you read now")
