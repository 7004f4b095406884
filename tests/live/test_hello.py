"""The game socket's one read as it opens (games/live/hello.py) says what the separate
reads it replaced said: the game, the seat, the chat (a sub-protocol chat registers),
whether the account may connect, and whether it moderates."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission

from accounts.models import User
from chat import selectors as chat_selectors
from chat import services as chat_services
from chat.socket import CHAT_ON_HELLO
from games import selectors, services
from games.live import hello
from tests.conftest import make_user, moderators_group
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


def _viewers() -> list[User | None]:
    """Nobody, a plain account, the moderators' group, the permission on its own, a
    superuser, and an inactive superuser."""
    plain = make_user("plain")
    grouped = make_user("grouped")
    grouped.groups.add(moderators_group())
    direct = make_user("direct")
    direct.user_permissions.add(Permission.objects.get(
        content_type__app_label="moderation", codename="delete_message"))
    root = User.objects.create_superuser("root", password="a-long-pass-phrase-7")
    gone = User.objects.create_superuser("gone", password="a-long-pass-phrase-7")
    gone.is_active = False
    gone.save()
    return [None, plain, grouped, direct, root, gone]


def _fresh(user: User | None) -> User | None:
    """The user as a socket's scope holds it: loaded afresh, no permission cache."""
    return None if user is None else User.objects.get(pk=user.pk)


def test_one_statement_without_chat(players: list[User],
                                    django_assert_num_queries: Any) -> None:
    game = started_game(players)
    with django_assert_num_queries(1):
        found = hello.read(game.pk, players[2])
    read = selectors.get_game(game.pk)
    assert found == hello.Hello(active=True, game=selectors.game_json(read), seat=2,
                                histories=(), moderator=False,
                                v=read.version)
    assert found.v == found.game["v"]  # the version orders the announcements that follow


def test_what_it_reads_agrees_with_the_separate_reads(players: list[User]) -> None:
    game = started_game(players)
    chat_services.post_message(game_id=game.pk, user=players[0], text="good luck all")
    chat_services.post_message(game_id=game.pk, user=players[1], text="you too")
    found_game = selectors.get_game(game.pk)
    viewers = _viewers()
    for viewer in [*viewers, *players]:
        found = hello.read(game.pk, _fresh(viewer))
        uid = None if viewer is None else viewer.pk
        active = viewer is None or viewer.is_active
        assert found.active == active
        if not active:
            continue
        assert found.game == selectors.game_json(found_game)
        assert found.seat == selectors.seat_of(found_game, uid)
        assert found.moderator == chat_selectors.is_moderator(_fresh(viewer)), viewer
        assert found.histories == (("chat_history", chat_selectors.history(
            game=found_game, viewer=_fresh(viewer), limit=CHAT_ON_HELLO, newest=True)),)
    assert {hello.read(game.pk, _fresh(v)).moderator for v in viewers[1:5]} \
        == {False, True}  # both answers occur


def test_a_banned_account_reads_nothing_and_no_game_is_none(alice: User, bob: User) -> None:
    game = services.create_game(user=alice, kind="bloqueio2")
    User.objects.filter(pk=bob.pk).update(is_active=False)
    assert hello.read(game.pk, bob) == hello.Hello(active=False)
    assert hello.read(987654321, bob) == hello.Hello(active=False)
    assert hello.read(987654321, alice) == hello.Hello(active=True)
    assert hello.read(987654321, None) == hello.Hello(active=True)
