"""Helpers to set up games through the services (the API tests drive the HTTP side)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import connections

from accounts.models import User
from games import services
from games.models import Game

T = TypeVar("T")


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


def race(jobs: Sequence[Callable[[], T]]) -> list[T | Exception]:
    """Run each job in a thread of its own, all released together; each closes its
    database connections (back to the pool) when done. Returns, once all have finished,
    their results in order, the exception in the place of a job that raised one."""
    start = threading.Barrier(len(jobs))
    results: list[T | Exception] = [RuntimeError("did not finish")] * len(jobs)

    def run(index: int, job: Callable[[], T]) -> None:
        try:
            start.wait()
            results[index] = job()
        except Exception as exc:  # returned: the caller asserts what it expects
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def at_once(work: Callable[[], None], count: int) -> None:
    """Run `work` in `count` threads released together (see `race`); raises the first
    exception one of them raised."""
    for result in race([work] * count):
        if isinstance(result, Exception):
            raise result
