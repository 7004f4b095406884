"""The chat REST API: thin views over chat.services and chat.selectors."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bloqueio_site.api_input import validated
from bloqueio_site.api_schema import ErrorOut, errors
from chat import rooms, selectors, services
from chat.api import serializers as io
from chat.errors import NotFound
from games import privacy
from games import selectors as game_selectors
from games.models import Game

TOO_FAST = {429: OpenApiResponse(ErrorOut, description="`rate_limited`: at most 5 messages "
                                 "in 10 s and 30 in 10 min")}


class GameChatView(APIView):
    """A game's chat as the caller may read it; post to the caller's room."""

    def get_permissions(self) -> list[permissions.BasePermission]:
        if self.request.method == "POST":
            return [permissions.IsAuthenticated()]
        return [permissions.AllowAny()]

    @extend_schema(operation_id="game_chat_list", parameters=[io.AfterIn],
                   responses={200: io.HistoryOut, **errors(400, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        after = validated(io.AfterIn, request.query_params)["after"]
        game = game_selectors.get_game(game_id)
        if game is None or not privacy.may_view(game, request.user,
                                                privacy.tokens_of(request)):
            raise NotFound(_("No game %(id)s.") % {"id": game_id})
        found = selectors.history(game=game, viewer=request.user, after_id=after,
                                  limit=selectors.HISTORY_CAP + 1)
        user_id = request.user.pk if request.user.is_authenticated else None
        seat = game_selectors.seat_of(game, user_id)
        in_game = game.state.get("in_game")
        return Response({
            "messages": found[:selectors.HISTORY_CAP],
            "more": len(found) > selectors.HISTORY_CAP,
            "room": rooms.writing_room(game.status, seat, in_game) if user_id else None,
            "rooms": sorted(selectors.viewer_rooms(game, request.user)),
        })

    @extend_schema(operation_id="game_chat_create", request=io.PostIn,
                   responses={201: io.MessageOut, **errors(400, 401, 403, 404), **TOO_FAST})
    def post(self, request: Request, game_id: int) -> Response:
        text = validated(io.PostIn, request.data)["text"]
        game = Game.objects.filter(pk=game_id).first()
        if game is not None and not privacy.may_view(game, request.user,
                                                     privacy.tokens_of(request)):
            raise NotFound(_("No game %(id)s.") % {"id": game_id})
        message = services.post_message(game_id=game_id, user=request.user, text=text)
        return Response(selectors.message_json(message), status=status.HTTP_201_CREATED)


class DeleteMessageView(APIView):
    """Moderators: hide a message from everyone else (kept, and logged)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="chat_message_delete", request=io.DeleteIn,
                   responses={200: io.MessageOut, **errors(400, 401, 403, 404)})
    def post(self, request: Request, message_id: int) -> Response:
        reason = validated(io.DeleteIn, request.data)["reason"]
        message = services.delete_message(actor=request.user, message_id=message_id,
                                          reason=reason)
        return Response(selectors.message_json(message, moderator=True))
