"""Input and output shapes of the account API."""

from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from bloqueio_site.strict_fields import StrictCharField


class RegisterIn(serializers.Serializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, write_only=True, trim_whitespace=False)
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class RegisterOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField()


class TokenIn(serializers.Serializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, trim_whitespace=False)


class TokenOut(serializers.Serializer):
    token = serializers.CharField()


class TokenInfoOut(serializers.Serializer):
    id = serializers.CharField(help_text="names the token in a revocation; not the key")
    name = serializers.CharField()
    created = serializers.DateTimeField()
    default = serializers.BooleanField(
        help_text="the token registration and POST auth/token/ hand out")


class NewTokenIn(serializers.Serializer):
    name = StrictCharField(max_length=50)


class NewTokenOut(TokenInfoOut):
    token = serializers.CharField(help_text="the key: shown this once")


class PasswordIn(serializers.Serializer):
    old_password = StrictCharField(max_length=128, trim_whitespace=False)
    new_password = StrictCharField(max_length=128, trim_whitespace=False)


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
    email_verified = serializers.BooleanField(
        help_text="whether the address's owner opened the link mailed to it (password "
                  "resets go only to a verified address)")
    date_joined = serializers.DateTimeField()
    ratings = RatingOut(many=True)
    language = serializers.CharField(
        allow_blank=True, help_text="the language chosen for pages and error details, "
        "a code of LANGUAGES (`en`, `pt-br`); empty: the browser's Accept-Language decides")


class MeIn(serializers.Serializer):
    language = serializers.ChoiceField(
        choices=["", *(code for code, _ in settings.LANGUAGES)], required=False,
        help_text="`en`, `pt-br`, or empty to follow the browser's Accept-Language")
    # Not an EmailField: "" (remove it) is not `format: email`; the address is checked
    # by accounts.addresses (400 `invalid_email`).
    email = StrictCharField(
        required=False, allow_blank=True, max_length=254,
        help_text="a new address is unverified until the link mailed to it is opened "
                  "(the same unverified address again: the link is sent again); empty "
                  "removes it. A change or removal needs `password`")
    password = StrictCharField(
        required=False, max_length=128, write_only=True, trim_whitespace=False,
        help_text="the account's current password: needed to change or remove `email` "
                  "(400 `password_required` without it, `invalid_credentials` when wrong)")


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
    games_played = serializers.IntegerField(help_text="finished games (the same as games_finished)")
    games_finished = serializers.IntegerField(
        help_text="finished games the user held a seat in (a seat a bot took over included)")
    games_left = serializers.IntegerField(
        help_text="of those, the ones the user left before the end: resigned, ran out of "
                  "time, removed, or the seat handed to a bot after they went")
    wins = serializers.IntegerField()
    ratings = RatingOut(many=True)
    recent_games = GameSummaryOut(many=True)
