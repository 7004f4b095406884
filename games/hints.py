"""Hints: the `medium` bot's suggestion for the caller's seat, with a reason in words
(the bots' English, translated by `games.texts`); where the kind is solved, the
`perfect` bot's, with the position's exact value (`value`, `exact`, `plies`).

Casual games only (a hint in a ranked game would be a second player); computed from the
stored state, read-only. The suggestion is deterministic for a position (the seed is the
game and ply), so asking twice gives the same hint.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from games import bots, engine, privacy, texts
from games.analysis import exact_value
from games.errors import GameError, NotAPlayer, NotYourTurn
from games.models import Game, Status
from games.services import require_playing

LEVEL = "medium"
BUDGET_S = 0.2


class NoHintsInRanked(GameError):
    code = "no_hints_in_ranked"
    status = 403


@dataclass(frozen=True)
class Hint:
    action: dict[str, Any]
    notation: str
    reason: str
    exact: dict[str, Any] = field(default_factory=dict)  # analysis.exact_value's


def hint(*, game_id: int, user: AbstractBaseUser) -> Hint:
    """The suggestion for `user`'s seat on their turn; refusals have codes."""
    game = Game.objects.prefetch_related("seats").filter(pk=game_id).first()
    if game is None:
        raise privacy.not_found(game_id)
    privacy.hide_from_strangers(game, user, seats=game.seats.all())
    if game.ranked:
        raise NoHintsInRanked(_("Hints are for casual games; ranked games are played alone."))
    seat = next((s.seat for s in game.seats.all() if s.user_id == user.pk), None)
    if seat is None:
        raise NotAPlayer(_("Hints are for the players of the game."))
    require_playing(game)
    rules = engine.get(game.kind)
    state = rules.state_from_json(game.state)
    if state.turn != seat or game.status != Status.ACTIVE:
        raise NotYourTurn(_("A hint is for your own turn."))
    choice = bots.think(rules, state, bots.strongest(rules, LEVEL),
                        seed=game.pk * 100_003 + game.ply, budget_s=BUDGET_S)
    action = choice.action
    return Hint(action.to_json(), rules.format_action(action),
                texts.sentence(bots.explain(rules, state, action)),  # in the reader's language
                exact_value(rules, state, choice))
