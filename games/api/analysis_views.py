"""Replay analysis (docs/api.md, "Analysis"): thin views over `games.analysis`."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from redis.exceptions import RedisError
from rest_framework import exceptions, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from bloqueio_site.api_schema import ErrorOut, errors
from games import analysis, texts
from games.api.access import visible_row
from games.api.serializers import ExactValueOut

RANKED_LIVE = OpenApiResponse(
    ErrorOut, description="`no_analysis_in_ranked`: the game is ranked and not over yet")


class MeasureOut(serializers.Serializer):
    name = serializers.CharField(help_text='what is counted, e.g. "steps to goal", "score"')
    higher_is_better = serializers.BooleanField()


class AnalysisOut(serializers.Serializer):
    game = serializers.IntegerField()
    ply = serializers.IntegerField(help_text="the game's ply: series has ply + 1 rows")
    measure = MeasureOut()
    series = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(allow_null=True)),
        help_text="series[p][s]: seat s's measure after p plies; null where there is none",
    )


class BestMoveOut(ExactValueOut):
    game = serializers.IntegerField()
    ply = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="the seat to move after `ply` plies")
    level = serializers.CharField(help_text="the bot level that chose: `hard`, or `perfect` "
                                            "where the kind is solved")
    action = serializers.JSONField(
        help_text="one action object, see docs/api.md#actions-events-and-states")
    notation = serializers.CharField()
    reason = serializers.CharField(help_text="why, in one line (may be empty)")
    nodes = serializers.IntegerField(help_text="positions the search visited")
    depth = serializers.IntegerField(help_text="search depth completed (0: not a search)")
    ms = serializers.IntegerField(help_text="thinking time of the first computation")


class BestMoveThrottle(SimpleRateThrottle):
    """Bot searches per user (or per address when signed out); cached answers are free.

    The rate lives here, not in settings: the site configures no DRF throttles.
    """

    scope = "analysis_best"
    rate = "20/min"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        user = request.user
        ident = f"user-{user.pk}" if user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request: Request, view: APIView) -> bool:
        try:
            return super().allow_request(request, view)
        except (RedisError, OSError):  # the bot's budget still bounds each request
            return True


class AnalysisView(APIView):
    """Every seat's measure after each ply of a game, for the replay viewer's chart."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="games_analysis",
                   responses={200: AnalysisOut, 403: RANKED_LIVE, **errors(400, 401, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        visible_row(request, game_id)
        found = analysis.series(game_id=game_id)
        measure = {**found["measure"], "name": texts.words(found["measure"]["name"])}
        return Response({**found, "measure": measure})


class BestMoveView(APIView):
    """The `hard` bot's choice after `ply` plies, with a reason; throttled, cached."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [BestMoveThrottle]

    def check_throttles(self, request: Request) -> None:
        """Deferred to `get`: only a search costs, so only a cache miss is counted."""

    def throttled(self, request: Request, wait: float | None) -> None:
        raise exceptions.Throttled(
            wait, detail=_("Too many best-move requests; try again shortly."),
            code="rate_limited")

    @extend_schema(
        operation_id="games_analysis_best",
        responses={
            200: BestMoveOut,
            400: OpenApiResponse(ErrorOut, description="`ply_out_of_range`; `no_seat_to_move` "
                                 "(the game is over at that ply)"),
            403: RANKED_LIVE,
            429: OpenApiResponse(ErrorOut, description="`rate_limited`: over 20 searches a "
                                 "minute (cached answers do not count); see Retry-After"),
            **errors(401, 404),
        },
    )
    def get(self, request: Request, game_id: int, ply: int) -> Response:
        visible_row(request, game_id)
        game, key, found = analysis.cached_best_move(game_id=game_id, ply=ply)
        if found is None:
            super().check_throttles(request)
            found = analysis.best_move(game, ply, key)
        return Response({**found, "reason": texts.sentence(found["reason"])})

