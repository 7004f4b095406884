"""Bots on the seats of casual games: add one to a waiting game, take one off, or hand
a running game's seat whose player left to one (games/leavers.py).

("Play the computer" is `POST /api/games/` with `bots`: the game starts at once.)
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bloqueio_site.api_input import validated
from bloqueio_site.api_schema import errors
from games import leavers, services
from games.api import serializers as io
from games.api.views import _game_response, _written_response


class BotsView(APIView):
    """A seated player puts the computer on an empty seat (casual games only)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="games_bots_add", request=io.AddBotIn,
                   responses={201: io.GameOut, **errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        data = validated(io.AddBotIn, request.data)
        game = services.add_bot(game_id=game_id, user=request.user, level=data["level"],
                                seat=data.get("seat"))
        return _written_response(request, game, status.HTTP_201_CREATED)


class BotSeatView(APIView):
    """A seated player takes a bot off its seat before the game starts."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="games_bots_remove", request=None,
                   responses={200: io.GameOut, **errors(401, 403, 404, 409)})
    def delete(self, request: Request, game_id: int, seat: int) -> Response:
        services.remove_bot(game_id=game_id, user=request.user, seat=seat)
        return _game_response(request, game_id)


class HandOverView(APIView):
    """Another player of a casual game hands a leaver's seat to a bot once its grace
    period is over (docs/ranked.md, "Leavers")."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="games_seat_to_bot", request=io.HandOverIn,
                   responses={200: io.GameOut, **errors(400, 401, 403, 404, 409, 503)})
    def post(self, request: Request, game_id: int, seat: int) -> Response:
        data = validated(io.HandOverIn, request.data)
        leavers.hand_to_bot(game_id=game_id, seat=seat, user=request.user,
                            **({"level": data["level"]} if "level" in data else {}))
        return _game_response(request, game_id)
