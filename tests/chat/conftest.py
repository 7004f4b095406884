"""Chat fixtures: a started two-seat game, a moderator, and recorders for what the chat
services fan out and write to the moderation log."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Permission

from accounts.models import User
from chat import services as chat_services
from games.models import Game
from moderation import services as moderation
from moderation.models import ModerationLog
from tests.conftest import make_user
from tests.games.helpers import started_game


@pytest.fixture
def game(alice: User, bob: User) -> Game:
    """alice (seat 0) and bob (seat 1) in a running two-seat game."""
    return started_game([alice, bob], kind="bloqueio2")


def grant(user: User, *codenames: str) -> User:
    """Give `user` these moderation permissions (the moderation app defines them: a
    permission missing fails the test rather than making anyone a superuser)."""
    perms = list(Permission.objects.filter(content_type__app_label="moderation",
                                           codename__in=codenames))
    assert sorted(p.codename for p in perms) == sorted(codenames), "missing permissions"
    user.user_permissions.add(*perms)
    return User.objects.get(pk=user.pk)  # a fresh permission cache


@pytest.fixture
def moderator(db: Any) -> User:
    return grant(make_user("mia"), "delete_message", "mute_user")


@pytest.fixture
def mod_log(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every entry the chat services wrote to the moderation log, as the arguments of its
    `moderation.services.record` call (the real one, which writes it, runs first)."""
    calls: list[dict[str, Any]] = []
    real = moderation.record

    def record(**kwargs: Any) -> ModerationLog:
        entry = real(**kwargs)
        assert ModerationLog.objects.filter(pk=entry.pk).exists()
        calls.append(kwargs)
        return entry

    monkeypatch.setattr(moderation, "record", record)
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
