"""Input and output shapes of the notifications API."""

from __future__ import annotations

from rest_framework import serializers

from games.api.serializers import (
    QueryIn,
    QueryIntegerField,
    StrictBooleanField,
    StrictIntegerField,
)
from notifications.kinds import MAILED
from notifications.models import KINDS


class NotificationOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=KINDS, help_text="what it is about")
    game_id = serializers.IntegerField(allow_null=True)
    data = serializers.DictField(help_text="the kind's details: the game's kind, who invited "
                                           "you, a report's outcome")
    created_at = serializers.DateTimeField()
    read = serializers.BooleanField()
    text = serializers.CharField(help_text="the notification in the request's language")


class NotificationListOut(serializers.Serializer):
    unread = serializers.IntegerField()
    results = NotificationOut(many=True)


class ListQuery(QueryIn):
    unread = serializers.ChoiceField(choices=["true", "false"], required=False,
                                     help_text="true: only the unread ones")
    limit = QueryIntegerField(min_value=1, max_value=200, default=50,
                              help_text="at most this many")


class ReadIn(serializers.Serializer):
    ids = serializers.ListField(child=StrictIntegerField(min_value=1), required=False,
                                max_length=500)
    all = StrictBooleanField(required=False, default=False)

    def validate(self, attrs: dict) -> dict:
        if attrs.get("all") == ("ids" in attrs):
            raise serializers.ValidationError("Send either ids or all: true.", code="invalid")
        return attrs


class UnreadOut(serializers.Serializer):
    unread = serializers.IntegerField()


class _EmailChoices(serializers.Serializer):
    def to_internal_value(self, data: object) -> dict:
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {unknown[0]: "Unknown notification kind."}, code="unknown_kind")
        return super().to_internal_value(data)


# One switch per kind that mails (notifications/kinds.py); a kind we do not know is an
# error, not ignored.
EmailChoicesIO = type("EmailChoicesIO", (_EmailChoices,), {
    "__doc__": "One switch per kind; a kind we do not know is an error, not ignored.",
    "__module__": __name__,
    **{kind: StrictBooleanField(required=False) for kind in MAILED}})


class SettingsOut(serializers.Serializer):
    email = EmailChoicesIO(help_text="the kinds you get by e-mail (all off until you opt in)")
    email_address = serializers.CharField(allow_blank=True)
    email_verified = serializers.BooleanField(
        help_text="e-mail is sent only to a verified address")


class SettingsIn(serializers.Serializer):
    email = EmailChoicesIO()
