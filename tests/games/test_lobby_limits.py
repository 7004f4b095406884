"""The lobby's bounds (issue #25: one user filled 40 of its 50 slots in 0.6 s): at most
OPEN_GAMES_PER_USER games waiting per creator, and GAME_CREATE_RATE per address."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from bloqueio_site import limits
from games import services
from games.errors import TooManyOpenGames
from games.models import Game, Status
from tests.conftest import client_for
from tests.games.helpers import at_once

pytestmark = pytest.mark.django_db


def _create(user: Any, address: str = "127.0.0.1", **body: Any) -> Any:
    return client_for(user).post("/api/games/", {"kind": "quoridor", **body}, format="json",
                                 REMOTE_ADDR=address)


@pytest.fixture
def fresh_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """A creation rate no earlier test has counted against (its own cache key)."""
    monkeypatch.setattr(services, "GAME_CREATE_RATE",
                        limits.Rate(f"game_create_{uuid.uuid4().hex}", 100, 600))


def test_a_user_may_have_three_games_waiting_and_no_more(alice, bob, fresh_rate):
    ids = [_create(alice).json()["id"] for _ in range(services.OPEN_GAMES_PER_USER)]
    refused = _create(alice)
    assert refused.status_code == 409
    assert refused.json()["code"] == "too_many_open_games"
    with pytest.raises(TooManyOpenGames):  # any caller, not only REST
        services.create_game(user=alice, kind="bloqueio")
    assert _create(bob).status_code == 201  # per creator
    # Playing the computer starts at once: never waits in the lobby, never refused.
    computer = _create(alice, bots=["easy"])
    assert computer.status_code == 201 and computer.json()["status"] == "active"
    # A game that starts frees its slot.
    client_for(bob).post(f"/api/games/{ids[0]}/join/", {}, format="json")
    assert Game.objects.get(pk=ids[0]).status == Status.ACTIVE
    assert _create(alice).status_code == 201


def test_leaving_a_waiting_game_frees_the_slot(alice, bob, fresh_rate):
    ids = [_create(alice).json()["id"] for _ in range(services.OPEN_GAMES_PER_USER)]
    assert _create(alice).status_code == 409
    client_for(alice).post(f"/api/games/{ids[0]}/leave/", {}, format="json")
    assert _create(alice).status_code == 201


def test_new_games_per_address_are_rate_limited(players, monkeypatch):
    monkeypatch.setattr(services, "GAME_CREATE_RATE",
                        limits.Rate(f"game_create_{uuid.uuid4().hex}", 2, 600))
    alice, bob, carol, dave = players
    assert [_create(u, "203.0.113.7").status_code for u in (alice, bob)] == [201, 201]
    limited = _create(carol, "203.0.113.7")  # another account, the same address
    assert (limited.status_code, limited.json()["code"]) == (429, "rate_limited")
    assert int(limited["Retry-After"]) >= 1
    assert _create(dave, "198.51.100.2").status_code == 201  # another address
    assert Game.objects.count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_creates_at_once_cannot_both_pass_the_cap(alice, monkeypatch, fresh_rate):
    monkeypatch.setattr(services, "OPEN_GAMES_PER_USER", 1)
    outcomes: list[str] = []

    def create() -> None:
        try:
            services.create_game(user=alice, kind="quoridor")
            outcomes.append("created")
        except TooManyOpenGames as exc:
            outcomes.append(exc.code)

    at_once(create, 2)
    assert sorted(outcomes) == ["created", "too_many_open_games"]
    assert Game.objects.filter(status=Status.WAITING).count() == 1
