"""Helpers for ranked-play tests: time travel and finishing games quickly."""

from __future__ import annotations

from datetime import datetime, timedelta

from accounts.models import User
from games import engine, services
from games.models import Game
from games.ranked import clocks, fair_play


def watched(start: datetime, end: datetime, step: float = 5.0) -> None:
    """The clock worker was alive from `start` to `end` (heartbeats every `step` s)."""
    moment = start
    while moment <= end:
        clocks.catch_up(moment)
        moment += timedelta(seconds=step)
    clocks.catch_up(end)


def play_opening(game: Game, users: list[User], rounds: int = fair_play.MIN_ACTIONS) -> Game:
    """Every seat (users[i] holds seat i) makes `rounds` actions, none of them winning:
    enough for the game to be rated (fair_play.MIN_ACTIONS)."""
    rules = engine.get(game.kind)
    for _ in range(rounds * game.seat_count):
        game.refresh_from_db()
        state = rules.state_from_json(game.state)
        action = next(a for a in rules.legal_actions(state)
                      if rules.result(rules.apply(state, a)) is None)
        services.submit_action(game_id=game.pk, user=users[state.turn],
                               action=action.to_json(), ply=game.ply)
    game.refresh_from_db()
    return game


def finish_by_resignations(game: Game, users: list[User], order: list[int],
                           *, opening: bool = True) -> Game:
    """Seats in `order` resign one after another (a ranked game after `play_opening`,
    unless `opening` is False: then too short to rate); the last one left wins."""
    if opening and game.ranked:
        play_opening(game, users)
    for seat in order:
        services.resign(game_id=game.pk, user=users[seat])
    game.refresh_from_db()
    return game
