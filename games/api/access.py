"""The API's one check of who may read a game (games/privacy.py): a private game is
`not_found` to everyone but its table, its invited users and the token's holders."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request

from games import privacy, selectors
from games.models import Game


def visible_row(request: Request, game_id: int) -> Game:
    """The game's row (no seats) when the caller may see it; else GameNotFound."""
    game = Game.objects.filter(pk=game_id).first()
    return privacy.require_view(game, request.user, privacy.tokens_of(request),
                                game_id=game_id)


def visible_game(request: Request, game_id: int) -> Game:
    """The game with its seats (selectors.get_game) when the caller may see it."""
    game = selectors.get_game(game_id)
    return privacy.require_view(game, request.user, privacy.tokens_of(request),
                                game_id=game_id)


def for_viewer(request: Request, game: Game) -> dict[str, Any]:
    """The game's JSON as this caller reads it: with `invite_url` for its table and
    creator, never for spectators."""
    body = selectors.game_json(game)
    if privacy.sees_invite(game, request.user):
        body["invite_url"] = request.build_absolute_uri(privacy.invite_path(game))
    return body
