"""To a stranger, a private game is not there, whatever they call (issue #44, item 7).

Before, leave, actions, resign, hint and the hand-over answered 403 `not_a_player` (and
leave or add-a-bot on a started game 409 `already_started`) where a missing game answers
404, and a report about a private game by id answered 201: a stranger could tell which
ids were private games. Now every endpoint answers a stranger exactly as for an id with
no game: same status, same body (its id aside, which each answer names). The table,
the invited and staff are still answered as players who may see it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from chat.models import ChatMessage
from games import invitations, services
from games.models import Game, Seat
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db

Call = Callable[[Any, int], Any]


def _api(method: str, path: str, body: dict | None = None) -> Call:
    def call(client: Any, game_id: int) -> Any:
        return getattr(client, method)(f"/api/games/{game_id}/{path}", body, format="json")
    return call


def _report(client: Any, game_id: int) -> Any:
    return client.post("/api/reports/", {"target_type": "game", "target_id": game_id,
                                         "category": "cheating", "reason": "engine"},
                       format="json")


ENDPOINTS: dict[str, Call] = {
    "join": _api("post", "join/", {}),
    "leave": _api("post", "leave/"),
    "actions": _api("post", "actions/", {"action": {"type": "pass"}, "ply": 0}),
    "resign": _api("post", "resign/"),
    "hint": _api("get", "hint/"),
    "add_bot": _api("post", "bots/", {"level": "easy"}),
    "remove_bot": _api("delete", "bots/1/"),
    "hand_over": _api("post", "seats/1/bot/", {}),
    "invite": _api("post", "invitations/", {"username": "dave"}),
    "rematch": _api("post", "rematch/"),
    "rematch_decline": _api("post", "rematch/decline/"),
    "chat": _api("post", "chat/", {"text": "hello"}),
    "read": _api("get", ""),
    "report": _report,
}


def _private_game(alice, bob, state: str) -> Game:
    """A private two-seat game of alice's: waiting, active (bob joined by its link) or
    finished (bob resigned)."""
    game = services.create_game(user=alice, kind="bloqueio2", private=True)
    if state != "waiting":
        services.join_game(game_id=game.pk, user=bob, invite=game.invite_token)
    if state == "finished":
        services.resign(game_id=game.pk, user=bob)
    return Game.objects.get(pk=game.pk)


def _answer(response: Any, shown_id: int, as_id: int) -> tuple[int, Any]:
    """(status, body) with `shown_id` written as `as_id` wherever the body names it."""
    text = response.content.decode().replace(str(shown_id), str(as_id))
    return response.status_code, json.loads(text) if text else None


@pytest.mark.parametrize("state", ["waiting", "active", "finished"])
@pytest.mark.parametrize("endpoint", sorted(ENDPOINTS))
def test_a_stranger_is_answered_as_for_a_game_that_does_not_exist(alice, bob, carol,
                                                                  endpoint, state):
    make_user("dave")
    game = _private_game(alice, bob, state)
    missing = game.pk + 100_000
    assert not Game.objects.filter(pk=missing).exists()
    call = ENDPOINTS[endpoint]
    stranger = client_for(carol)
    seen = _answer(call(stranger, game.pk), game.pk, game.pk)
    nothing = _answer(call(stranger, missing), missing, game.pk)
    assert seen == nothing, (endpoint, state)
    assert seen[0] == 404 and seen[1]["code"] == "not_found"
    # Nothing was written for the stranger.
    assert not Seat.objects.filter(game=game, user=carol).exists()
    assert Game.objects.get(pk=game.pk).status == game.status


@pytest.mark.parametrize("endpoint", ["leave", "actions", "resign", "hint", "hand_over"])
def test_the_invited_and_staff_are_still_told_why(alice, bob, carol, endpoint):
    """Those who may see the game without a seat get the refusal that is true for them."""
    game = _private_game(alice, bob, "active")
    waiting = _private_game(alice, bob, "waiting")
    invitations.invite_user(game_id=waiting.pk, user=alice, username="carol")
    staff = make_user("stella")
    staff.is_staff = True
    staff.save()
    for client, game_id in ((client_for(carol), waiting.pk), (client_for(staff), game.pk)):
        response = ENDPOINTS[endpoint](client, game_id)
        assert response.status_code in (403, 409), response.content
        assert response.json()["code"] not in ("not_found", "invalid")


def test_a_message_in_a_private_game_cannot_be_reported_by_a_stranger(alice, bob, carol):
    game = _private_game(alice, bob, "active")
    message = ChatMessage.objects.create(game=game, author=alice, room="players", text="hi")
    body = {"target_type": "chat_message", "category": "abuse", "reason": "rude"}
    seen = client_for(carol).post("/api/reports/", {**body, "target_id": message.pk},
                                  format="json")
    nothing = client_for(carol).post("/api/reports/", {**body, "target_id": message.pk + 999},
                                     format="json")
    assert _answer(seen, message.pk, message.pk) == _answer(nothing, message.pk + 999,
                                                            message.pk)
    assert seen.status_code == 404
    # Its table may report it.
    assert client_for(bob).post("/api/reports/", {**body, "target_id": message.pk},
                                format="json").status_code == 201


@pytest.mark.parametrize("page", ["leave", "join"])
def test_the_pages_answer_a_stranger_as_for_no_game(alice, bob, carol, page):
    game = _private_game(alice, bob, "active")
    missing = game.pk + 100_000
    browser = Client()
    browser.force_login(carol)
    answers = []
    for game_id in (game.pk, missing):
        response = browser.post(f"/games/{game_id}/{page}/", follow=True)
        said = [str(m).replace(str(game_id), "ID") for m in response.context["messages"]] \
            if response.context else []
        answers.append((response.status_code, said,
                        [url.replace(str(game_id), "ID") for url, _ in response.redirect_chain]))
    assert answers[0] == answers[1]
    assert answers[0][0] == 404
