"""Chat fixtures: a started two-seat game, a moderator, and recorders for what the chat
services fan out and write to the moderation log."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any

import pytest

from accounts.models import User
from chat import services as chat_services
from games.models import Game
from tests.conftest import make_user
from tests.games.helpers import started_game


@pytest.fixture
def game(alice: User, bob: User) -> Game:
    """alice (seat 0) and bob (seat 1) in a running two-seat game."""
    return started_game([alice, bob], kind="bloqueio2")


def grant(user: User, *codenames: str) -> User:
    """Give `user` these moderation permissions (a superuser when the moderation app,
    which defines them, is not installed)."""
    from django.contrib.auth.models import Permission

    perms = list(Permission.objects.filter(content_type__app_label="moderation",
                                           codename__in=codenames))
    if len(perms) == len(codenames):
        user.user_permissions.add(*perms)
    else:
        user.is_superuser = True
        user.save(update_fields=["is_superuser"])
    return User.objects.get(pk=user.pk)  # a fresh permission cache


@pytest.fixture
def moderator(db: Any) -> User:
    return grant(make_user("mia"), "delete_message", "mute_user")


@pytest.fixture
def mod_log(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every `moderation.services.record` call (passed on to the real one when present)."""
    calls: list[dict[str, Any]] = []
    try:
        from moderation import services as moderation
        real = moderation.record
    except ImportError:
        package = types.ModuleType("moderation")
        moderation = types.ModuleType("moderation.services")
        package.services = moderation  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "moderation", package)
        monkeypatch.setitem(sys.modules, "moderation.services", moderation)
        real = None

    def record(**kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(**kwargs) if real is not None else None

    monkeypatch.setattr(moderation, "record", record, raising=False)
    return calls


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, dict[str, Any]]]]:
    """What the chat services hand to the fan-out (after commit), in order."""
    from games.live import realtime

    seen: list[tuple[int, dict[str, Any]]] = []
    monkeypatch.setattr(realtime, "send_to_game", lambda gid, msg: seen.append((gid, msg)))
    yield seen


def post(game: Game, user: User, text: str) -> Any:
    return chat_services.post_message(game_id=game.pk, user=user, text=text)
