"""Rematch with the same table: everyone asked, bots accept at once, one "no" cancels,
seats move one place on, and two players asking at once make one offer."""

from __future__ import annotations

from functools import partial

import pytest

from games import services
from games.live import broadcast
from games.models import Game, Rematch, Seat
from tests.conftest import client_for, make_user
from tests.games.helpers import race, started_game

pytestmark = pytest.mark.django_db


def _finished(users, kind: str = "bloqueio2", **options) -> Game:
    game = started_game(users, kind=kind, **options)
    services.resign(game_id=game.pk, user=users[-1])
    if len(users) > 2:
        for user in users[1:-1]:
            game.refresh_from_db()
            if game.status == "active":
                services.resign(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.status == "finished"
    return game


def _rematch(user, game_id: int, verb: str = ""):
    return client_for(user).post(f"/api/games/{game_id}/rematch/{verb}")


def test_everyone_accepts_and_the_new_game_starts_with_seats_rotated(players):
    game = _finished(players, kind="bloqueio", time_control={"initial": 300, "increment": 3})
    first = _rematch(players[1], game.pk)
    assert first.status_code == 200, first.content
    assert first.json() == {"status": "pending", "offered_by": "bob", "accepted": ["bob"],
                            "declined": [], "waiting": ["alice", "carol", "dave"],
                            "game_id": None}
    seen = client_for(players[0]).get(f"/api/games/{game.pk}/").json()["rematch"]
    assert seen["waiting"] == ["alice", "carol", "dave"]
    for user in (players[0], players[2]):
        assert _rematch(user, game.pk).json()["status"] == "pending"
    done = _rematch(players[3], game.pk).json()
    assert done["status"] == "started" and done["accepted"] == ["alice", "bob", "carol", "dave"]
    new = Game.objects.get(pk=done["game_id"])
    assert (new.kind, new.ranked, new.private, new.status) == ("bloqueio", False, True, "active")
    assert new.time_control == {"initial": 300, "increment": 3}
    seats = dict(Seat.objects.filter(game=new).values_list("seat", "user__username"))
    assert seats == {1: "alice", 2: "bob", 3: "carol", 0: "dave"}
    # Every one of the table sees the new game; the finished one says where it went.
    for user in players:
        assert client_for(user).get(f"/api/games/{new.pk}/").status_code == 200
    assert client_for(players[2]).get(f"/api/games/{game.pk}/").json()["rematch"]["game_id"] \
        == new.pk


def test_the_rematch_starts_through_the_one_start_path(alice, bob,
                                                      django_capture_on_commit_callbacks):
    """Made by whoever offered it, with an invitation token for its link, and announced
    once, "started", at the version its start wrote (games.services.start_rematch)."""
    game = _finished([alice, bob])
    sent: list[broadcast.Committed] = []
    broadcast.subscribe(sent.append)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert _rematch(bob, game.pk).json()["status"] == "pending"
            done = _rematch(alice, game.pk).json()
    finally:
        broadcast.unsubscribe(sent.append)
    new = Game.objects.get(pk=done["game_id"])
    assert new.created_by_id == bob.pk and new.invite_token
    assert [(m.change, m.v) for m in sent if m.game_id == new.pk] == [("started", new.version)]
    assert next(m for m in sent if m.game_id == new.pk).game["v"] == new.version


def test_asking_twice_changes_nothing(alice, bob):
    game = _finished([alice, bob])
    assert _rematch(alice, game.pk).json()["accepted"] == ["alice"]
    assert _rematch(alice, game.pk).json()["accepted"] == ["alice"]
    assert Rematch.objects.count() == 1
    _rematch(bob, game.pk)
    again = _rematch(bob, game.pk)  # a retry after the start: the same answer
    assert again.status_code == 200 and again.json()["status"] == "started"
    assert Game.objects.count() == 2


def test_one_decline_cancels_it(alice, bob):
    game = _finished([alice, bob])
    _rematch(alice, game.pk)
    declined = _rematch(bob, game.pk, "decline/")
    assert declined.status_code == 200
    assert declined.json()["status"] == "declined" and declined.json()["declined"] == ["bob"]
    late = _rematch(bob, game.pk)  # changing one's mind: the offer is gone
    assert late.status_code == 409 and late.json()["code"] == "rematch_declined"
    assert _rematch(alice, game.pk).json()["status"] == "declined"
    assert Game.objects.count() == 1


def test_a_ranked_games_rematch_is_casual_and_private(alice, bob):
    game = _finished([alice, bob], ranked=True)
    _rematch(alice, game.pk)
    new = Game.objects.get(pk=_rematch(bob, game.pk).json()["game_id"])
    assert new.ranked is False and new.private is True
    assert new.time_control == game.time_control


def test_bots_at_the_table_accept_at_once(alice):
    game = services.create_game(user=alice, kind="bloqueio2", bots=["easy"])
    services.resign(game_id=game.pk, user=alice)
    answer = _rematch(alice, game.pk).json()
    assert answer["status"] == "started"
    new = Game.objects.get(pk=answer["game_id"])
    assert dict(Seat.objects.filter(game=new).values_list("seat", "bot")) == {0: True, 1: False}
    assert new.status == "active"


def test_refusals(alice, bob, carol, anon):
    live = started_game([alice, bob], kind="bloqueio2")
    response = _rematch(alice, live.pk)
    assert response.status_code == 409 and response.json()["code"] == "not_finished"
    game = _finished([alice, bob])
    response = _rematch(carol, game.pk)
    assert response.status_code == 403 and response.json()["code"] == "not_a_player"
    response = _rematch(alice, game.pk, "decline/")
    assert response.status_code == 404 and response.json()["code"] == "no_rematch"
    assert anon.post(f"/api/games/{game.pk}/rematch/").status_code == 401
    assert _rematch(alice, 999999).status_code == 404
    _rematch(alice, game.pk)
    _rematch(bob, game.pk)
    response = _rematch(bob, game.pk, "decline/")
    assert response.status_code == 409 and response.json()["code"] == "rematch_started"


def test_a_strangers_rematch_of_a_private_game_is_not_found(alice, bob, carol):
    game = services.create_game(user=alice, kind="bloqueio2", private=True)
    services.join_game(game_id=game.pk, user=bob, invite=game.invite_token)
    services.resign(game_id=game.pk, user=bob)
    response = _rematch(carol, game.pk)
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_the_page_offers_a_rematch_section(alice, bob):
    from django.test import Client

    game = _finished([alice, bob])
    browser = Client()
    browser.force_login(alice)
    html = browser.get(f"/games/{game.pk}/").content.decode()
    assert 'id="rematch"' in html and 'id="rematch-yes"' in html


@pytest.mark.django_db(transaction=True)
def test_racing_offers_make_one_rematch_and_one_game():
    users = [make_user(name) for name in ("alice", "bob", "carol", "dave")]
    game = _finished(users, kind="bloqueio")
    answers = race([partial(_rematch, users[i % 4], game.pk) for i in range(8)])
    assert [a.status_code for a in answers] == [200] * 8
    assert Rematch.objects.count() == 1
    rematch = Rematch.objects.get()
    assert rematch.new_game is not None
    assert Game.objects.count() == 2  # the finished game and exactly one new one
