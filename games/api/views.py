"""The games REST API (docs/api.md): thin views over games.services and selectors."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bloqueio_site import limits
from bloqueio_site.api_input import validated
from bloqueio_site.api_schema import ErrorOut, errors
from games import engine, hints, leavers, my_games, rematch, selectors, services
from games.api import serializers as io
from games.api.access import for_viewer, visible_game, visible_row
from games.errors import GameNotFound, InvalidRequest
from games.live import presence
from games.models import Game


def _written_response(request: Request, game: Game, code: int = status.HTTP_200_OK
                      ) -> Response:
    """The game as the caller's own write left it, from the service's answer (its seats
    attached): no second read of what the transaction just wrote."""
    return Response(for_viewer(request, game), status=code)


def _game_response(request: Request, game_id: int, code: int = status.HTTP_200_OK) -> Response:
    """The game after the caller's own successful write to it (so no privacy check:
    a player who just left a private game still reads its answer)."""
    game = selectors.get_game(game_id)
    if game is None:
        raise GameNotFound(_("No game %(id)s.") % {"id": game_id})
    return Response(for_viewer(request, game), status=code)


class KindsView(APIView):
    """Every game kind the server hosts, with what a client needs to show it."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="kinds_list", responses={200: io.KindOut(many=True)})
    def get(self, request: Request) -> Response:
        return Response([engine.get(kind).info.to_json() for kind in engine.KINDS])


class GamesView(APIView):
    @extend_schema(
        operation_id="games_list",
        parameters=[io.GameListIn, io.PageIn],
        responses={200: io.GamePageOut, **errors(400, 401, 404)},
    )
    def get(self, request: Request) -> Response:
        filters = validated(io.GameListIn, request.query_params)
        validated(io.PageIn, request.query_params)  # a malformed page is a 400; past the end, 404
        games = selectors.game_list(**filters)
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response([selectors.game_json(g) for g in page or []])

    @extend_schema(request=io.CreateGameIn, responses={
        201: io.GameOut, **errors(400, 401),
        409: OpenApiResponse(ErrorOut, description="`too_many_open_games` (3 of yours wait "
                             "for players already), `in_ranked_game`, `ranked_humans_only`"),
        429: OpenApiResponse(ErrorOut, description="`rate_limited`: over 20 new games in 10 "
                             "minutes from your address; see Retry-After")})
    def post(self, request: Request) -> Response:
        data = validated(io.CreateGameIn, request.data)
        game = services.create_game(user=request.user, address=limits.address_of(request),
                                    **data)
        return _written_response(request, game, status.HTTP_201_CREATED)


class GameView(APIView):
    @extend_schema(responses={200: io.GameDetailOut, **errors(401, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        game = visible_game(request, game_id)
        body = for_viewer(request, game)
        body["rematch"] = rematch.rematch_json(game)
        body["presence"] = leavers.public_presence(
            presence.snapshot_sync(game.pk, game.seat_count), body)
        return Response(body)


class MyGamesView(APIView):
    """The caller's live games: theirs to move first, soonest deadline first."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="my_games", responses={200: io.MyGameOut(many=True),
                                                       **errors(401)})
    def get(self, request: Request) -> Response:
        return Response(my_games.active_games(request.user.pk))


class JoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=io.JoinIn, responses={200: io.GameOut, **errors(400, 401, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        data = validated(io.JoinIn, request.data)
        game = services.join_game(game_id=game_id, user=request.user, seat=data.get("seat"),
                                  invite=data.get("invite"), address=limits.address_of(request))
        return _written_response(request, game)


# No docstring on purpose: drf-spectacular would give it to both operations.
class _SeatWriteView(APIView):
    # A player's bodiless write to their own seat (`write`): the game after it.
    permission_classes = [permissions.IsAuthenticated]
    write: ClassVar[Callable[..., object]]

    @extend_schema(request=None, responses={200: io.GameOut, **errors(401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        type(self).write(game_id=game_id, user=request.user)
        return _game_response(request, game_id)


class LeaveView(_SeatWriteView):
    """Give up a seat before the game starts (after it starts, resign)."""

    write = services.leave_game


class ActionsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=io.ActionIn, responses={201: io.SubmittedOut, **errors(400, 401, 403, 404, 409)}
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = validated(io.ActionIn, request.data)
        done = services.submit_action(
            game_id=game_id, user=request.user, action=data["action"], ply=data["ply"]
        )
        return Response(
            {"event": done.event.as_json(), "game": done.payload}, status=status.HTTP_201_CREATED
        )


class ResignView(_SeatWriteView):
    write = services.resign


class EventsView(APIView):
    @extend_schema(
        parameters=[io.AfterIn], responses={200: io.EventsOut, **errors(400, 401, 404)}
    )
    def get(self, request: Request, game_id: int) -> Response:
        after = validated(io.AfterIn, request.query_params)["after"]
        visible_row(request, game_id)
        return Response({"events": selectors.events_after(game_id, after)})


class ReplayView(APIView):
    @extend_schema(
        parameters=[io.ReplayIn], responses={200: io.ReplayOut, **errors(400, 401, 404)}
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = visible_row(request, game_id)
        ply = validated(io.ReplayIn, request.query_params).get("ply", game.ply)
        if ply > game.ply:
            raise InvalidRequest(ngettext(
                "The game has %(last)s ply; ply must be 0 to %(last)s.",
                "The game has %(last)s plies; ply must be 0 to %(last)s.",
                game.ply) % {"last": game.ply})
        return Response({"ply": ply, "state": selectors.state_at(game, ply).to_json()})


class LegalActionsView(APIView):
    @extend_schema(responses={200: io.LegalActionsOut, **errors(401, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        game = visible_row(request, game_id)
        rules = engine.get(game.kind)
        state = rules.state_from_json(game.state)
        if game.status != "active" or state.turn is None:
            return Response({"seat": None, "actions": []})
        actions = [a.to_json() for a in rules.legal_actions(state)]
        return Response({"seat": state.turn, "actions": actions})


class HintView(APIView):
    """A suggestion for your own turn in a casual game (the `medium` bot), with why."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: io.HintOut, **errors(401, 403, 404, 409)})
    def get(self, request: Request, game_id: int) -> Response:
        found = hints.hint(game_id=game_id, user=request.user)
        return Response({"action": found.action, "notation": found.notation,
                         "reason": found.reason, **found.exact})


class ExportView(APIView):
    @extend_schema(responses={200: io.ExportOut, **errors(401, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        game = visible_row(request, game_id)
        rules = engine.get(game.kind)
        events = [rules.parse_event(e) for e in selectors.engine_events(game.pk)]
        return Response({"id": game.pk, "kind": game.kind, "notation": rules.format_game(events)})
