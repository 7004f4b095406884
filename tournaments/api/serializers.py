"""Input and output shapes of the tournaments API (docs/api.md)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.serializers import (
    KindField,
    StrictBooleanField,
    StrictIntegerField,
    TimeControlField,
)
from tournaments.arenas import MINUTES
from tournaments.models import State, System
from tournaments.services import ROUNDS


class CreateIn(serializers.Serializer):
    kind = KindField()
    system = serializers.ChoiceField(
        choices=System.choices, default=System.SWISS,
        help_text="swiss: rounds at tables of the kind's size; arena: games paired as "
                  "players come free for `minutes`, two-seat kinds and live clocks only")
    rounds = StrictIntegerField(min_value=ROUNDS[0], max_value=ROUNDS[1], required=False,
                                allow_null=True, default=None,
                                help_text="a Swiss's rounds (required for a Swiss; an "
                                          "Arena refuses it: `rounds_swiss_only`)")
    minutes = StrictIntegerField(min_value=MINUTES[0], max_value=MINUTES[1], required=False,
                                 allow_null=True, default=None,
                                 help_text="an Arena's length (required for an Arena; a "
                                           "Swiss refuses it: `minutes_arena_only`)")
    time_control = TimeControlField(
        required=False, allow_null=True, default=None,
        help_text="every table's: live `{initial, increment}`, turn-based `{days}`, or "
                  "null (the kind's clock)")
    starts_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None,
        help_text="the worker starts it then (within 30 days); null: its creator does")
    ranked = StrictBooleanField(default=True, help_text="tables rated in the kind's rating "
                                                        "(a table with a bot never is)")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The length the system needs is present (the wrong one is the service's
        refusal, with its own code)."""
        needed = "minutes" if attrs.get("system") == System.ARENA else "rounds"
        if attrs.get(needed) is None:
            raise serializers.ValidationError(
                {needed: [serializers.Field.default_error_messages["required"]]})
        return attrs


class SummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    system = serializers.ChoiceField(choices=System.choices)
    status = serializers.ChoiceField(choices=State.choices)
    round_count = serializers.IntegerField(allow_null=True,
                                           help_text="the rounds a Swiss plays (an Arena: null)")
    minutes = serializers.IntegerField(allow_null=True,
                                       help_text="how long an Arena lasts (a Swiss: null)")
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="a started Arena's end: no pairing after it, and only "
                                   "games ended by then count (a Swiss: null)")
    time_control = serializers.JSONField(allow_null=True)
    ranked = serializers.BooleanField()
    starts_at = serializers.DateTimeField(allow_null=True)
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    cancelled_because = serializers.CharField(
        allow_null=True, help_text="too_few_players (at its start time), moderator")
    v = serializers.IntegerField(help_text="its version: one more with every change (the "
                                           "socket's frames carry it; docs/realtime.md)")


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


class SheetOut(serializers.Serializer):
    game_id = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["win", "draw", "loss"])
    points = serializers.IntegerField(help_text="doubled while on fire")


class StandingOut(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    points = serializers.FloatField()
    tiebreak = serializers.FloatField(help_text="a Swiss: Buchholz (docs/tournaments.md#"
                                                "points); an Arena: wins")
    berger = serializers.FloatField(required=False, help_text="a Swiss only")
    wins = serializers.IntegerField()
    games = serializers.IntegerField()
    byes = serializers.IntegerField(required=False, help_text="a Swiss only")
    streak = serializers.IntegerField(required=False,
                                      help_text="an Arena only: wins in a row, last first")
    on_fire = serializers.BooleanField(
        required=False, help_text="an Arena only: two wins in a row, the next game counts "
                                  "double")
    sheet = SheetOut(many=True, required=False,
                     help_text="an Arena only: each scoring game, in the order they ended")


class ArenaGameOut(serializers.Serializer):
    game_id = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.CharField(),
                                  help_text="usernames in seat (turn) order")
    status = serializers.ChoiceField(choices=["active", "finished", "aborted"])
    counted = serializers.BooleanField(
        help_text="it scores: finished (not aborted) by the arena's end")
    ranking = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                    help_text="a finished game's rank per seat (1, 2; "
                                              "1, 1 a draw); null before")


class DetailOut(SummaryOut):
    players = PlayerOut(many=True)
    rounds = RoundOut(many=True, help_text="a Swiss's rounds (an Arena: empty)")
    standings = StandingOut(many=True)
    games = ArenaGameOut(many=True, help_text="an Arena's games, the latest first (a "
                                              "Swiss: empty; its tables are in rounds)")
