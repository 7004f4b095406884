"""Helpers for ranked-play tests: time travel and finishing games quickly."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from accounts.models import User
from games import computer, engine, services
from games.models import Event, Game
from games.ranked import clocks, fair_play


def watched(start: datetime, end: datetime, step: float = 5.0) -> None:
    """The clock worker was alive from `start` to `end` (heartbeats every `step` s)."""
    moment = start
    while moment <= end:
        clocks.catch_up(moment)
        moment += timedelta(seconds=step)
    clocks.catch_up(end)


# Submits one action for a seat: (game, seat, action JSON); services by default, the
# API in the tests that drive it.
Submit = Callable[[Game, int, dict[str, Any]], object]


def play_opening(game: Game, users: list[User], rounds: int = fair_play.MIN_ACTIONS,
                 *, submit: Submit | None = None) -> Game:
    """Every seat (users[i] holds seat i) makes `rounds` actions, none of them winning:
    enough for the game to be rated (fair_play.MIN_ACTIONS)."""
    for _ in range(rounds * game.seat_count):
        game.refresh_from_db()
        seat, action = harmless_action(game)
        if submit is None:
            services.submit_action(game_id=game.pk, user=users[seat], action=action,
                                   ply=game.ply)
        else:
            submit(game, seat, action)
    game.refresh_from_db()
    return game


def harmless_action(game: Game) -> tuple[int, dict[str, Any]]:
    """The seat to move in `game` and a legal action of it that does not end the game,
    nor let the next seat end it at once where another action avoids that (a bot's
    reply would otherwise end the game before it has moved enough: in Blockade Run,
    walking into a corner lets the opponent block the runner in)."""
    rules = engine.get(game.kind)
    state = rules.state_from_json(game.state)
    calm = [a for a in rules.legal_actions(state) if rules.result(rules.apply(state, a)) is None]

    def safe(action: Any) -> bool:
        after = rules.apply(state, action)
        return all(rules.result(rules.apply(after, reply)) is None
                   for reply in rules.legal_actions(after))

    action = next((a for a in calm if safe(a)), calm[0])
    return state.turn, action.to_json()


def resign_after_bots_moved(game: Game, user: User) -> Game:
    """`user` (seat 0, the only person) and the computer's seats make
    fair_play.MIN_ACTIONS actions each, none of them winning, then `user` resigns: the
    shortest game with the computer that rates its bots."""
    while True:
        game.refresh_from_db()
        seat, action = harmless_action(game)
        if seat != 0:
            assert computer.tick(budget_s=10) > 0
        elif Event.objects.filter(game=game, seat=0).count() >= fair_play.MIN_ACTIONS:
            break
        else:
            services.submit_action(game_id=game.pk, user=user, action=action, ply=game.ply)
    services.resign(game_id=game.pk, user=user)
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
