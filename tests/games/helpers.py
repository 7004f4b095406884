"""Helpers to set up games through the services (the API tests drive the HTTP side)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections

from accounts.models import User
from games import services
from games.models import Game


def started_game(users: list[User], kind: str = "bloqueio", **options: Any) -> Game:
    game = services.create_game(user=users[0], kind=kind, **options)
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


def play(game: Game, users: list[User], actions: list[dict[str, Any]]) -> Game:
    """Submit `actions` in order, each by the seat to move."""
    for action in actions:
        game.refresh_from_db()
        seat = game.state["turn"]
        services.submit_action(game_id=game.pk, user=users[seat], action=action, ply=game.ply)
    game.refresh_from_db()
    return game


def at_once(work: Callable[[], None], count: int) -> None:
    """Run `work` in `count` threads released together; each closes its database
    connections (back to the pool) when done. Returns when all have finished."""
    start = threading.Barrier(count)

    def run() -> None:
        try:
            start.wait()
            work()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
