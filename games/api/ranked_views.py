"""Ranked play over REST: the matchmaking queue, leaderboards and rating histories."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.selectors import active_user
from bloqueio_site import limits
from bloqueio_site.api_input import validated
from bloqueio_site.api_schema import errors
from games import engine
from games.api import serializers as io
from games.errors import GameNotFound
from games.ranked import leaderboard, matchmaking


def _kind(kind: str) -> str:
    if kind not in engine.KINDS:
        raise GameNotFound(_("No game kind %(kind)s.") % {"kind": repr(kind)})
    return kind


class MatchmakingView(APIView):
    """Your place in the ranked queue. Poll GET while waiting: it keeps the entry alive."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: io.QueueOut, **errors(401)})
    def get(self, request: Request) -> Response:
        return Response(matchmaking.poll(user=request.user))

    @extend_schema(request=io.QueueIn, responses={201: io.QueueOut, **errors(400, 401, 409)})
    def post(self, request: Request) -> Response:
        data = validated(io.QueueIn, request.data)
        body = matchmaking.join_queue(user=request.user, kind=data["kind"],
                                      time_control=data["time_control"],
                                      address=limits.address_of(request))
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None, **errors(401)})
    def delete(self, request: Request) -> Response:
        matchmaking.leave_queue(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeaderboardView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[io.PageIn],
                   responses={200: io.LeaderboardPageOut, **errors(400, 401, 404)})
    def get(self, request: Request, kind: str) -> Response:
        number = _valid_page(request)
        total, rows = leaderboard.page(kind=_kind(kind), number=number)
        last = max(1, -(-total // leaderboard.PAGE_SIZE))
        if number > last:
            raise GameNotFound(_("Invalid page."))
        base = request.build_absolute_uri(request.path)
        return Response({
            "count": total,
            "next": f"{base}?page={number + 1}" if number < last else None,
            "previous": f"{base}?page={number - 1}" if number > 1 else None,
            "results": rows,
        })


class ProvisionalView(APIView):
    """Players of a kind still provisional: shown apart from the ranked board."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: io.ProvisionalRowOut(many=True), **errors(401, 404)})
    def get(self, request: Request, kind: str) -> Response:
        return Response(leaderboard.provisional(kind=_kind(kind)))


def _valid_page(request: Request) -> int:
    return int(validated(io.PageIn, request.query_params)["page"])


class RatingHistoryView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: io.RatingPointOut(many=True), **errors(401, 404)})
    def get(self, request: Request, username: str, kind: str) -> Response:
        # No username holds a NUL, and PostgreSQL refuses to compare text with one.
        user = None if "\x00" in username else active_user(username)
        if user is None:
            raise Http404
        return Response(leaderboard.history(user_id=user.pk, kind=_kind(kind)))
