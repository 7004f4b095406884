"""Input validation and (for the schema) output shapes of the games API.

Outputs are produced by `games.selectors.game_json`, the one place a game becomes JSON;
the output serializers here only describe that shape for OpenAPI.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from bloqueio_site.api_schema import PageOut
from games import bots, engine
from games.errors import InvalidRequest
from games.round import TURN_BASED_DAYS, turn_based
from games.services import validate_time_control


class StrictIntegerField(serializers.IntegerField):
    """An integer that must be a JSON number: no strings, no booleans, no floats."""

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data: Any) -> bool:
        if type(data) is not bool:
            self.fail("invalid", input=data)
        return data


class QueryIn(serializers.Serializer):
    """Query parameters, each given once. DRF reads `?ply=` (present but empty) as absent
    and `?ply=1&ply=2` as its last value, HTML-form habits; here both are malformed, as
    the schema says (one value, `minLength`, integers)."""

    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "getlist"):
            wrong = {}
            for name in self.fields:
                values = data.getlist(name)
                if len(values) > 1:
                    wrong[name] = [_("Give this parameter once.")]
                elif values == [""]:
                    wrong[name] = [_("This parameter may not be empty; leave it out instead.")]
            if wrong:
                raise serializers.ValidationError(wrong)
        return super().to_internal_value(data)


class QueryIntegerField(serializers.IntegerField):
    """A whole number in ASCII digits: DRF's IntegerField also takes `1.0`, and Python's
    int() takes other scripts' digits (`٣`), neither of them an integer to the schema."""

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not data.isascii() or not data.lstrip("-").isdigit():
            self.fail("invalid")
        return super().to_internal_value(data)


_LIVE_TIME_CONTROL = {
    "type": "object", "title": "Live clock",
    "description": "Fischer time: `initial` seconds, plus `increment` seconds a move",
    "properties": {
        "initial": {"type": "integer", "minimum": 10, "maximum": 86400,
                    "description": "seconds"},
        "increment": {"type": "integer", "minimum": 0, "maximum": 600,
                      "description": "seconds per move"}},
    "required": ["initial", "increment"], "additionalProperties": False,
}
_TURN_BASED_TIME_CONTROL = {
    "type": "object", "title": "Turn-based",
    "description": "`days` days for every move; the time does not accumulate",
    "properties": {"days": {"type": "integer", "enum": list(TURN_BASED_DAYS)}},
    "required": ["days"], "additionalProperties": False,
}


@extend_schema_field({"oneOf": [_LIVE_TIME_CONTROL, _TURN_BASED_TIME_CONTROL]})
class TimeControlField(serializers.Field):
    """A time control: live `{initial, increment}` or turn-based `{days}`, exactly one
    shape (services.validate_time_control decides, for the API and the pages alike)."""

    def to_internal_value(self, data: Any) -> dict[str, int] | None:
        try:
            return validate_time_control(data)
        except InvalidRequest as exc:
            raise serializers.ValidationError(exc.detail) from None

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(_TURN_BASED_TIME_CONTROL)
class TurnBasedTimeControlField(TimeControlField):
    """A turn-based `{days}` time control only (the ranked queue's option)."""

    def to_internal_value(self, data: Any) -> dict[str, int] | None:
        clean = super().to_internal_value(data)
        if clean is not None and not turn_based(clean):
            raise serializers.ValidationError(
                _("Ranked queues play the kind's own clock, or {days} per move for a "
                  "turn-based game."))
        return clean


BOT_LEVEL_HELP = "easy, medium or hard"


class KindField(serializers.ChoiceField):
    """A game kind: one of those registered when the serializer is made (a field is
    rebuilt for every serializer instance), so a family registered later is accepted
    and one unregistered is refused again (drf-spectacular's ``KindEnum``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=list(engine.KINDS), **kwargs)


class CreateGameIn(serializers.Serializer):
    kind = KindField()
    ranked = StrictBooleanField(default=False)
    time_control = TimeControlField(
        required=False, allow_null=True, default=None,
        help_text="live `{initial, increment}`, turn-based `{days}`, or null (untimed; a "
                  "ranked game then gets the kind's clock)")
    bots = serializers.ListField(
        child=serializers.ChoiceField(choices=list(bots.LEVELS), help_text=BOT_LEVEL_HELP),
        required=False, default=list, max_length=3,
        help_text="bot levels for the seats after yours, in order (casual games only); "
                  "with every other seat a bot's, the game starts at once",
    )
    private = StrictBooleanField(
        default=False, help_text="listed nowhere, seen and joined by invitation only; "
                                 "never ranked")


class AddBotIn(serializers.Serializer):
    level = serializers.ChoiceField(choices=list(bots.LEVELS), help_text=BOT_LEVEL_HELP)
    seat = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=3,
                              help_text="the empty seat to fill (default: the lowest)")


class HandOverIn(serializers.Serializer):
    level = serializers.ChoiceField(choices=list(bots.LEVELS), required=False,
                                    help_text=BOT_LEVEL_HELP + " (default medium)")


class JoinIn(serializers.Serializer):
    seat = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=3)
    invite = serializers.CharField(required=False, max_length=64,
                                   help_text="the invitation token of a private game "
                                             "(the last part of its invite_url)")


class InviteIn(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="the user to invite")


class ActionIn(serializers.Serializer):
    action = serializers.DictField(
        help_text="one action object, see docs/api.md#actions-events-and-states")
    ply = StrictIntegerField(min_value=0, help_text="the game's current ply")


# A game's status, one enum in the schema (drf-spectacular's StatusEnum).
GAME_STATUSES = ["waiting", "active", "finished", "aborted"]


class AfterIn(QueryIn):
    after = QueryIntegerField(min_value=0, default=0)


class ReplayIn(QueryIn):
    ply = QueryIntegerField(min_value=0, required=False)


class GameListIn(QueryIn):
    status = serializers.ChoiceField(
        choices=GAME_STATUSES, required=False
    )
    kind = KindField(required=False)


# -- output shapes (documentation) -----------------------------------------------------


class SeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    rating = serializers.IntegerField(allow_null=True)
    bot = serializers.ChoiceField(choices=list(bots.LEVELS), allow_null=True,
                                  help_text="the bot's level when the computer holds the seat")
    replaced = serializers.CharField(
        allow_null=True, required=False,
        help_text="the username of the player a bot took the seat over from, else null")


class ColourOut(serializers.Serializer):
    name = serializers.CharField()
    colour = serializers.CharField(help_text="#rrggbb")
    initial = serializers.CharField(help_text="the letter drawn on its pieces")


class ClockOut(serializers.Serializer):
    initial = serializers.IntegerField(help_text="seconds")
    increment = serializers.IntegerField(help_text="seconds a move")


class KindOut(serializers.Serializer):
    kind = serializers.CharField()
    family = serializers.CharField(help_text="`barrier`, `blockade` or `blokus`")
    title = serializers.CharField()
    summary = serializers.CharField()
    seats = serializers.IntegerField()
    rows = serializers.IntegerField()
    cols = serializers.IntegerField()
    colours = ColourOut(many=True, help_text="a seat's colour, or in Blokus every colour")
    colour_seats = serializers.ListField(child=serializers.IntegerField(),
                                         help_text="the seat playing each colour")
    move_limit = serializers.IntegerField(help_text="plies after which the game ends")
    measure_name = serializers.CharField(help_text="what analysis charts count per seat")
    measure_higher_is_better = serializers.BooleanField()
    clock = ClockOut(help_text="the default clock of a ranked game")


class ResultOut(serializers.Serializer):
    winner = serializers.IntegerField(allow_null=True)
    ranking = serializers.ListField(child=serializers.IntegerField())
    reason = serializers.ChoiceField(
        choices=["goal", "last_standing", "blocked", "move_limit", "stalemate", "score", "aborted"]
    )
    scores = serializers.ListField(child=serializers.IntegerField(), required=False,
                                   help_text="per seat, in kinds that score (Blokus)")
    rating_changes = serializers.ListField(
        child=serializers.IntegerField(allow_null=True), required=False,
        help_text="ranked games: each seat's change of rating, null where not rated "
                  "(gone once annulled)")
    rated = serializers.BooleanField(
        required=False, help_text="ranked games: whether any seat's rating moved")
    unrated = serializers.ListField(
        child=serializers.ChoiceField(choices=["too_short", "same_address",
                                               "repeated_pairing", "newcomer_opponents",
                                               "annulled"],
                                      allow_null=True),
        required=False, help_text="ranked games, per seat: null where rated, else why not "
                                  "(docs/ranked.md)")


class GameOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    ranked = serializers.BooleanField()
    private = serializers.BooleanField(help_text="by invitation only, listed nowhere")
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    seats = SeatOut(many=True)
    ply = serializers.IntegerField()
    v = serializers.IntegerField(
        help_text="the game's version: one more with every change to it (a move, a seat "
                  "taken or handed over, the start, the end...); a copy with a higher `v` "
                  "is newer (docs/realtime.md)")
    state = serializers.JSONField(
        help_text="the kind's state JSON, see docs/api.md#actions-events-and-states")
    time_control = TimeControlField(allow_null=True)
    clocks = serializers.JSONField(allow_null=True)
    result = ResultOut(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    invite_url = serializers.URLField(
        required=False, help_text="the invitation link; only for the game's seated "
                                  "players and its creator")


class GamePageOut(PageOut):
    """`GET /api/games/`: one page of games, newest first."""

    results = GameOut(many=True)


class PresenceOut(serializers.Serializer):
    online = serializers.ListField(child=serializers.BooleanField(),
                                   help_text="per seat: has an open WebSocket")
    spectators = serializers.IntegerField()
    away = serializers.ListField(
        child=serializers.DateTimeField(allow_null=True),
        help_text="per seat: when the grace of a player whose sockets all closed ends "
                  "(a live game's person still in it), else null (docs/ranked.md, Leavers)")


class RematchOut(serializers.Serializer):
    status = serializers.ChoiceField(choices=["pending", "declined", "started"])
    offered_by = serializers.CharField(allow_null=True)
    accepted = serializers.ListField(child=serializers.CharField())
    declined = serializers.ListField(child=serializers.CharField())
    waiting = serializers.ListField(child=serializers.CharField(),
                                    help_text="who has not answered yet")
    game_id = serializers.IntegerField(allow_null=True, help_text="the new game, once made")


class GameDetailOut(GameOut):
    presence = PresenceOut()
    rematch = RematchOut(allow_null=True, help_text="a finished game's rematch offer")


class InvitationOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    kind = serializers.CharField()
    game_status = serializers.CharField()
    private = serializers.BooleanField()
    invited = serializers.CharField()
    invited_by = serializers.CharField()
    status = serializers.ChoiceField(choices=["pending", "accepted", "declined", "revoked"])
    created_at = serializers.DateTimeField()


class EventOut(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    action = serializers.JSONField()
    at = serializers.DateTimeField()


class SubmittedOut(serializers.Serializer):
    event = EventOut()
    game = GameOut()


class EventsOut(serializers.Serializer):
    events = EventOut(many=True)


class ReplayOut(serializers.Serializer):
    ply = serializers.IntegerField()
    state = serializers.JSONField()


class LegalActionsOut(serializers.Serializer):
    seat = serializers.IntegerField(allow_null=True)
    actions = serializers.ListField(child=serializers.JSONField())


class ExactValueOut(serializers.Serializer):
    """The exact value of a position, present only where the kind is solved (Blockade,
    Blockade Run: docs/bots.md) and the proof fit in the budget."""

    value = serializers.ChoiceField(choices=["win", "loss"], required=False,
                                    help_text="for the seat to move, with best play")
    exact = serializers.BooleanField(required=False, help_text="always true when present")
    plies = serializers.IntegerField(required=False, allow_null=True,
                                     help_text="plies to the end with best play (the winner "
                                               "hurries, the loser delays); null: not "
                                               "computed within the budget")


class HintOut(ExactValueOut):
    action = serializers.JSONField(help_text="the suggested action, as you would send it")
    notation = serializers.CharField()
    reason = serializers.CharField(help_text="one line, in words")


class ExportOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    notation = serializers.CharField(help_text="the whole game on one line, see docs/engine.md")


# -- ranked play -----------------------------------------------------------------------


class QueueIn(serializers.Serializer):
    kind = KindField()
    time_control = TurnBasedTimeControlField(
        required=False, allow_null=True, default=None,
        help_text="null: a live game on the kind's clock; `{days}`: a turn-based game, "
                  "matched only with players who asked for the same days")


class QueueOut(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=["idle", "queued", "playing"],
        help_text="queued: waiting; playing: in the live ranked game `game_id`")
    game_id = serializers.IntegerField(required=False)
    kind = serializers.CharField(required=False)
    time_control = TurnBasedTimeControlField(
        required=False, allow_null=True,
        help_text="queued: null for the kind's live clock, or the turn-based `{days}`")
    rating = serializers.IntegerField(required=False, help_text="the skill matchmaking compares")
    joined_at = serializers.DateTimeField(required=False)
    expires_at = serializers.DateTimeField(
        required=False, help_text="poll GET before this, or the entry lapses")
    spread = serializers.IntegerField(required=False,
                                      help_text="rating range accepted now; widens with time")


class LeaderboardRowOut(serializers.Serializer):
    rank = serializers.IntegerField(help_text="competition ranking: 1, 2, 2, 4")
    username = serializers.CharField()
    rating = serializers.IntegerField()
    games = serializers.IntegerField()


class ProvisionalRowOut(serializers.Serializer):
    username = serializers.CharField()
    rating = serializers.IntegerField(help_text="provisional: not ranked yet")
    games = serializers.IntegerField()


class PageIn(QueryIn):
    page = QueryIntegerField(min_value=1, default=1)


class LeaderboardPageOut(PageOut):
    results = LeaderboardRowOut(many=True)


class RatingPointOut(serializers.Serializer):
    game = serializers.IntegerField()
    at = serializers.DateTimeField()
    rating = serializers.IntegerField(help_text="the displayed rating after that game")


class MyGameOut(serializers.Serializer):
    """One of the caller's live games (`GET /api/me/games/`)."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    ranked = serializers.BooleanField()
    status = serializers.CharField(help_text="`waiting` or `active`")
    seat = serializers.IntegerField(help_text="the caller's seat")
    your_turn = serializers.BooleanField()
    turn = serializers.IntegerField(allow_null=True,
                                    help_text="the seat to move; null while waiting")
    ply = serializers.IntegerField()
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="when the seat to move runs out of time; null untimed")
    time_control = TimeControlField(allow_null=True)
    created_at = serializers.DateTimeField()
