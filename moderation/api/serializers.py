"""Input and output shapes of the reports API."""

from __future__ import annotations

from rest_framework import serializers

from bloqueio_site.api_schema import PageOut
from moderation.models import REASON_MAX, Category, ReportStatus, TargetType


class ReportIn(serializers.Serializer):
    target_type = serializers.ChoiceField(choices=TargetType.choices)
    target_id = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    category = serializers.ChoiceField(choices=Category.choices)
    reason = serializers.CharField(max_length=REASON_MAX, trim_whitespace=True)


class ReportOut(serializers.Serializer):
    id = serializers.IntegerField()
    target_type = serializers.ChoiceField(choices=TargetType.choices)
    target_id = serializers.IntegerField()
    category = serializers.ChoiceField(choices=Category.choices)
    reason = serializers.CharField()
    # A plain string in the schema: a `status` enum would collide with the games' one.
    status = serializers.CharField(help_text=" | ".join(ReportStatus.values))
    created_at = serializers.DateTimeField()
    handled_at = serializers.DateTimeField(allow_null=True)


class ReportPageOut(PageOut):
    results = ReportOut(many=True)
