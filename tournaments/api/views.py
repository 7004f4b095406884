"""Tournaments API: list and create, one tournament, join, withdraw, start."""

from __future__ import annotations

from collections.abc import Callable

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bloqueio_site.api_input import validated
from bloqueio_site.api_schema import errors
from tournaments import services
from tournaments.api import serializers as io
from tournaments.models import Tournament


class TournamentsView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(operation_id="tournaments", responses={200: io.ListOut})
    def get(self, request: Request) -> Response:
        return Response(services.listing())

    @extend_schema(operation_id="tournament_create", request=io.CreateIn,
                   responses={201: io.DetailOut, **errors(400, 401, 409)})
    def post(self, request: Request) -> Response:
        data = validated(io.CreateIn, request.data)
        tournament = services.create(user=request.user, kind=data["kind"],
                                     system=data["system"], rounds=data["rounds"],
                                     minutes=data["minutes"],
                                     time_control=data["time_control"],
                                     starts_at=data["starts_at"], ranked=data["ranked"])
        return Response(services.detail(tournament), status=status.HTTP_201_CREATED)


class TournamentView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="tournament", responses={200: io.DetailOut, **errors(404)})
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(services.detail(services.get(tournament_id)))


def _action(run: Callable[..., Tournament], operation: str, codes: tuple[int, ...]
            ) -> type[APIView]:
    class Action(APIView):
        permission_classes = [permissions.IsAuthenticated]

        @extend_schema(operation_id=operation, request=None,
                       responses={200: io.DetailOut, **errors(*codes)})
        def post(self, request: Request, tournament_id: int) -> Response:
            return Response(services.detail(run(tournament_id=tournament_id,
                                                user=request.user)))

    Action.__name__ = Action.__qualname__ = f"{operation.title().replace('_', '')}View"
    return Action


JoinView = _action(services.join, "tournament_join", (400, 401, 403, 404, 409))
WithdrawView = _action(services.withdraw, "tournament_withdraw", (400, 401, 404, 409))
StartView = _action(services.start, "tournament_start", (401, 403, 404, 409))
