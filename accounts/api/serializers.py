"""Input and output shapes of the account API."""

from __future__ import annotations

from rest_framework import serializers


class RegisterIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, write_only=True, trim_whitespace=False)
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class RegisterOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField()


class TokenIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class TokenOut(serializers.Serializer):
    token = serializers.CharField()


class RatingOut(serializers.Serializer):
    kind = serializers.CharField()
    rating = serializers.IntegerField(allow_null=True)
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


class MeOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    # Not an EmailField: "" (none given at registration) is not `format: email`.
    email = serializers.CharField(allow_blank=True, help_text="an e-mail address, or empty")
    date_joined = serializers.DateTimeField()
    ratings = RatingOut(many=True)


class GameSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    ranked = serializers.BooleanField()
    status = serializers.CharField()
    seat = serializers.IntegerField()
    ply = serializers.IntegerField()
    result = serializers.JSONField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class ProfileOut(serializers.Serializer):
    username = serializers.CharField()
    date_joined = serializers.DateTimeField()
    games_played = serializers.IntegerField()
    wins = serializers.IntegerField()
    ratings = RatingOut(many=True)
    recent_games = GameSummaryOut(many=True)
