"""Input and output shapes of the tournaments API (docs/api.md)."""

from __future__ import annotations

from rest_framework import serializers

from games.api.serializers import (
    KindField,
    StrictBooleanField,
    StrictIntegerField,
    TimeControlField,
)
from tournaments.models import State, System
from tournaments.services import ROUNDS


class CreateIn(serializers.Serializer):
    kind = KindField()
    system = serializers.ChoiceField(choices=System.choices, default=System.SWISS,
                                     help_text="swiss: rounds at tables of the kind's size")
    rounds = StrictIntegerField(min_value=ROUNDS[0], max_value=ROUNDS[1])
    time_control = TimeControlField(
        required=False, allow_null=True, default=None,
        help_text="every table's: live `{initial, increment}`, turn-based `{days}`, or "
                  "null (the kind's clock)")
    starts_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None,
        help_text="the worker starts it then (within 30 days); null: its creator does")
    ranked = StrictBooleanField(default=True, help_text="tables rated in the kind's rating "
                                                        "(a table with a bot never is)")


class SummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    system = serializers.ChoiceField(choices=System.choices)
    status = serializers.ChoiceField(choices=State.choices)
    round_count = serializers.IntegerField(help_text="the rounds it plays")
    time_control = serializers.JSONField(allow_null=True)
    ranked = serializers.BooleanField()
    starts_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    cancelled_because = serializers.CharField(
        allow_null=True, help_text="too_few_players (at its start time), moderator")


class ListOut(serializers.Serializer):
    upcoming = SummaryOut(many=True)
    running = SummaryOut(many=True)
    finished = SummaryOut(many=True, help_text="the 20 last finished or cancelled")


class PlayerOut(serializers.Serializer):
    username = serializers.CharField()
    withdrawn = serializers.BooleanField()
    withdrawn_because = serializers.ChoiceField(
        choices=["withdrew", "removed", "absent"], allow_null=True,
        help_text="why withdrawn: their own withdrawal, a moderator's, or a second "
                  "absence (docs/tournaments.md); null while in")
    absences = serializers.IntegerField(
        help_text="tables where their seat ran out of time before its first move")


class TableOut(serializers.Serializer):
    game_id = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.CharField(allow_null=True),
                                  help_text="usernames in seat (turn) order; null: a bot")


class RoundOut(serializers.Serializer):
    number = serializers.IntegerField()
    finished = serializers.BooleanField()
    byes = serializers.ListField(child=serializers.CharField())
    tables = TableOut(many=True)


class StandingOut(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    points = serializers.FloatField()
    tiebreak = serializers.FloatField(help_text="Buchholz (docs/tournaments.md#points)")
    berger = serializers.FloatField()
    wins = serializers.IntegerField()
    games = serializers.IntegerField()
    byes = serializers.IntegerField()


class DetailOut(SummaryOut):
    players = PlayerOut(many=True)
    rounds = RoundOut(many=True)
    standings = StandingOut(many=True)
