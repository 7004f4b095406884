"""Invitations by name and rematches (docs/api.md, "Invitations and rematches"): thin
views over games.invitations and games.rematch."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bloqueio_site import limits
from bloqueio_site.api_input import validated
from bloqueio_site.api_schema import ErrorOut, errors
from games import invitations, rematch
from games.api import serializers as io
from games.api.views import _written_response

INVITE_REFUSALS = OpenApiResponse(
    ErrorOut, description="`cannot_invite_self`, `cannot_invite_bot`, `invitation_declined`")
JOIN_REFUSALS = OpenApiResponse(
    ErrorOut, description="`game_full`, `already_started`, `already_seated`, `game_over`, "
                          "`invitation_closed`")


class InvitationsView(APIView):
    """A seated player of a waiting game invites a user by name, or reads the game's
    invitations."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="games_invitations", responses={
        200: io.InvitationOut(many=True), **errors(401, 403, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        return Response(invitations.of_game(game_id=game_id, user=request.user))

    @extend_schema(operation_id="games_invite", request=io.InviteIn, responses={
        201: io.InvitationOut, 200: io.InvitationOut, 400: INVITE_REFUSALS,
        404: OpenApiResponse(ErrorOut, description="`not_found` (no such game) or "
                             "`unknown_user`"),
        409: OpenApiResponse(ErrorOut, description="`already_seated`, `game_full`, "
                             "`already_started`, `game_over`, `too_many_invitations` (10 "
                             "people invited to the game already; `INVITATIONS_PER_GAME`)"),
        429: OpenApiResponse(ErrorOut, description="`rate_limited`: over 20 invitations an "
                             "hour from your account, or 3 of one person; see Retry-After"),
        **errors(401, 403)})
    def post(self, request: Request, game_id: int) -> Response:
        data = validated(io.InviteIn, request.data)
        invitation, created = invitations.invite_user(game_id=game_id, user=request.user,
                                                      username=data["username"])
        return Response(invitations.invitation_json(invitation),
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class MyInvitationsView(APIView):
    """The caller's pending invitations to games still waiting for players."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="my_invitations",
                   responses={200: io.InvitationOut(many=True), **errors(401)})
    def get(self, request: Request) -> Response:
        return Response(invitations.pending_for(request.user))


class AcceptInvitationView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="invitation_accept", request=None,
                   responses={200: io.GameOut, 409: JOIN_REFUSALS, **errors(401, 404)})
    def post(self, request: Request, invitation_id: int) -> Response:
        game = invitations.accept(invitation_id=invitation_id, user=request.user,
                                  address=limits.address_of(request))
        return _written_response(request, game)


class DeclineInvitationView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="invitation_decline", request=None, responses={
        200: io.InvitationOut,
        409: OpenApiResponse(ErrorOut, description="`invitation_closed`"), **errors(401, 404)})
    def post(self, request: Request, invitation_id: int) -> Response:
        invitation = invitations.decline(invitation_id=invitation_id, user=request.user)
        return Response(invitations.invitation_json(invitation))


class RevokeInvitationView(APIView):
    """Take back a pending invitation: its inviter or a player seated in its game."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="invitation_revoke", request=None, responses={
        200: io.InvitationOut,
        409: OpenApiResponse(ErrorOut, description="`invitation_closed`"), **errors(401, 404)})
    def post(self, request: Request, invitation_id: int) -> Response:
        invitation = invitations.revoke(invitation_id=invitation_id, user=request.user)
        return Response(invitations.invitation_json(invitation))


REMATCH_REFUSALS = OpenApiResponse(
    ErrorOut, description="`not_finished`, `rematch_declined`, `rematch_started`")


class RematchView(APIView):
    """Offer a rematch of a finished game, or accept the one offered."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="games_rematch", request=None, responses={
        200: io.RematchOut, 409: REMATCH_REFUSALS, **errors(401, 403, 404)})
    def post(self, request: Request, game_id: int) -> Response:
        return Response(rematch.offer(game_id=game_id, user=request.user))


class RematchDeclineView(APIView):
    """Decline the rematch offered: it is cancelled for the whole table."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="games_rematch_decline", request=None, responses={
        200: io.RematchOut, 409: REMATCH_REFUSALS,
        404: OpenApiResponse(ErrorOut, description="`not_found` or `no_rematch`"),
        **errors(401, 403)})
    def post(self, request: Request, game_id: int) -> Response:
        return Response(rematch.decline(game_id=game_id, user=request.user))
