"""Leavers on the game socket: the others see a seat's grace counting down when its last
socket closes, its return cancels it, and the `bot` frame hands the seat over."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from bloqueio_site.asgi import application
from games import services
from games.models import Game, Seat
from tests.conftest import make_user
from tests.games.helpers import started_game
from tests.ws_helpers import game_socket, token_headers

pytestmark = pytest.mark.django_db(transaction=True)


async def next_of(comm: WebsocketCommunicator, kind: str, seen: list[str] | None = None
                  ) -> dict[str, Any]:
    """The next frame of type `kind`; the types read past go into `seen`."""
    while True:
        frame = await comm.receive_json_from(timeout=5)
        if frame["type"] == kind:
            return frame
        if seen is not None:
            seen.append(frame["type"])


@pytest.fixture
async def duel() -> tuple[Game, Any, Any]:
    alice = await sync_to_async(make_user)("alice")
    bob = await sync_to_async(make_user)("bob")
    game = await sync_to_async(started_game)([alice, bob], kind="bloqueio2")
    return game, alice, bob


async def opened_presence(game: Game, user: Any) -> dict[str, Any]:
    """The presence a socket opened now reads in its hello (from the shared store)."""
    late = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=token_headers(
        user.auth_token.key))
    assert (await late.connect())[0]
    hello = await late.receive_json_from(timeout=5)
    await late.disconnect()
    return hello["game"]["presence"]


async def test_the_others_see_the_countdown_only_when_the_last_socket_closes(duel):
    game, alice, bob = duel
    watcher = await game_socket(game.pk, alice)
    tab1, tab2 = await game_socket(game.pk, bob), await game_socket(game.pk, bob)
    # The communicator's disconnect returns once the socket's own disconnect (its
    # departure from the presence) has run: no waiting on the machine's speed.
    await tab1.disconnect()
    # One tab of two closing is not leaving: bob is still online, with no countdown.
    presence = await opened_presence(game, alice)
    assert (presence["online"], presence["away"]) == ([True, True], [None, None])
    last_closed = timezone.now()
    await tab2.disconnect()
    # The countdown the others see starts when the LAST socket closed: had the first
    # close started it, `until` would be a minute after that one (the first record
    # stays), earlier than this bound.
    away = await next_of(watcher, "away")
    assert (away["seat"], away["username"]) == (1, "bob")
    until = parse_datetime(away["until"])
    assert last_closed + timedelta(seconds=59.9) < until < timezone.now() + timedelta(seconds=61)
    while (presence := (await next_of(watcher, "presence"))["presence"])["online"][1]:
        pass
    assert presence["away"] == [None, away["until"]]
    # Whoever opens the game now reads the same countdown in its hello.
    assert (await opened_presence(game, alice))["away"] == [None, away["until"]]
    await watcher.disconnect()


async def test_coming_back_cancels_the_countdown_for_everyone(duel):
    game, alice, bob = duel
    watcher = await game_socket(game.pk, alice)
    tab = await game_socket(game.pk, bob)
    await tab.disconnect()
    assert (await next_of(watcher, "away"))["until"] is not None
    back = await game_socket(game.pk, bob)
    returned = await next_of(watcher, "away")
    assert returned == {"type": "away", "seat": 1, "username": "bob", "until": None}
    while not (presence := (await next_of(watcher, "presence"))["presence"])["online"][1]:
        pass
    assert presence["away"] == [None, None]
    await back.disconnect()
    await watcher.disconnect()


async def test_a_turn_based_game_shows_no_countdown(duel):
    game, alice, bob = duel
    await sync_to_async(Game.objects.filter(pk=game.pk).update)(time_control={"days": 3})
    watcher = await game_socket(game.pk, alice)
    tab = await game_socket(game.pk, bob)
    await tab.disconnect()
    seen: list[str] = []
    while (presence := (await next_of(watcher, "presence", seen))["presence"])["online"][1]:
        pass
    assert "away" not in seen  # the away frame would have come before the presence
    assert presence["away"] == [None, None]
    await watcher.disconnect()


async def test_the_bot_frame_hands_the_seat_over(duel, settings):
    game, alice, bob = duel
    watcher = await game_socket(game.pk, alice)
    tab = await game_socket(game.pk, bob)
    await tab.disconnect()
    await next_of(watcher, "away")
    await watcher.send_json_to({"type": "bot", "seat": 1, "ref": "early"})
    error = await next_of(watcher, "error")
    assert (error["code"], error["ref"]) == ("grace_not_over", "early")
    assert parse_datetime(error["until"]) > timezone.now()
    await watcher.send_json_to({"type": "bot", "seat": "one", "ref": "bad"})
    assert (await next_of(watcher, "error"))["code"] == "invalid"
    settings.LEAVER_GRACE_SECONDS = 0
    await watcher.send_json_to({"type": "bot", "seat": 1, "ref": "now"})
    changed = await next_of(watcher, "game")
    assert changed["change"] == "handover"
    assert changed["game"]["seats"][1]["bot"] == "medium"
    assert changed["game"]["seats"][1]["replaced"] == "bob"
    held = await sync_to_async(Seat.objects.get)(game=game, seat=1)
    assert held.bot and held.replaced_id == bob.pk
    await watcher.disconnect()


async def test_spectators_cannot_hand_a_seat_over(duel):
    game, _alice, _bob = duel
    spectator = WebsocketCommunicator(application, f"/ws/games/{game.pk}/",
                                      headers=token_headers(
                                          (await sync_to_async(make_user)("carol"))
                                          .auth_token.key))
    assert (await spectator.connect())[0]
    await next_of(spectator, "hello")
    await spectator.send_json_to({"type": "bot", "seat": 1, "ref": 1})
    assert (await next_of(spectator, "error"))["code"] == "read_only"
    await spectator.disconnect()


async def test_a_seat_gone_before_the_start_counts_down_from_the_start(duel):
    _game, alice, bob = duel
    carol = await sync_to_async(make_user)("carol")
    dave = await sync_to_async(make_user)("dave")
    waiting = await sync_to_async(services.create_game)(user=alice, kind="bloqueio")
    for user in (bob, carol):
        await sync_to_async(services.join_game)(game_id=waiting.pk, user=user)
    watcher = await game_socket(waiting.pk, alice)
    tab = await game_socket(waiting.pk, bob)
    await tab.disconnect()
    while (await next_of(watcher, "presence"))["presence"]["online"][1]:
        pass
    await sync_to_async(services.join_game)(game_id=waiting.pk, user=dave)
    started = await next_of(watcher, "game")
    assert started["change"] == "started"
    begun = parse_datetime(started["game"]["started_at"])
    while (away := (await next_of(watcher, "presence"))["presence"]["away"])[1] is None:
        pass
    assert parse_datetime(away[1]) == begun + timedelta(seconds=60)
    assert away[2] is None  # carol never opened the game: not "away"
    await watcher.disconnect()
