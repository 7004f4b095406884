"""Rating farms from one place (issue #44, items 3 and 9; games/ranked/places.py).

The reported farm, over the API as the attacker ran it: the winner creates a ranked
Blockade game, a puppet joins it by id (or by its invitation token), each makes two
actions, the puppet resigns. One puppet for ten games; then ten puppets that first
played each other until established, feeding one account (scaled down here: four
puppets, established after three games, five games each against the main account).
Wherever the accounts were created, taking their seats from one address must lift the
main account's rating by no more than ~100 points. And a game with no moves rates no
bot: fourteen resignations at ply 0 took the easy bot from 952 to 1792.
"""

from __future__ import annotations

from datetime import timedelta
from itertools import combinations
from typing import Any
from urllib.parse import urlparse

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from bloqueio_site import limits
from games import services, worker
from games.bot_accounts import bot_account
from games.models import Game, PlayedFrom, Rating, RatingChange
from games.ranked import fair_play, places, rating_model
from tests.conftest import client_for, make_user
from tests.games.ranked_helpers import (
    finish_by_resignations,
    play_opening,
    resign_after_bots_moved,
)

pytestmark = pytest.mark.django_db

HOME = "203.0.113.7"  # the farmer's one address
FRESH = rating_model.display(rating_model.MU, rating_model.SIGMA)  # a first rating's start
MOST = 100  # what a ring at one place may add to a rating, at most


@pytest.fixture(autouse=True)
def _unhurried(monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-address limit on new games (20 per 10 minutes) slows a farm, it does not
    stop one: lifted, so that each test runs its whole farm at once."""
    monkeypatch.setattr(services, "GAME_CREATE_RATE", limits.Rate("test_farm", 1000, 600))


def _client(user: User, address: str = HOME) -> APIClient:
    client = client_for(user)
    client.defaults["REMOTE_ADDR"] = address
    return client


def _opening(game_id: int, clients: dict[int, APIClient]) -> None:
    """Each seat makes fair_play.MIN_ACTIONS actions over the API, none of them winning."""

    def submit(game: Game, seat: int, action: dict[str, Any]) -> None:
        answer = clients[seat].post(f"/api/games/{game.pk}/actions/",
                                    {"action": action, "ply": game.ply}, format="json")
        assert answer.status_code == 201, answer.json()

    play_opening(Game.objects.get(pk=game_id), [], submit=submit)


def _farm(winner: APIClient, puppet: APIClient, *, how: str = "id") -> dict[str, Any]:
    """One farmed game: created ranked by the winner, joined by the puppet (`how`: by
    id, by the invitation link's token, or by an invitation by name), two actions each,
    the puppet resigns."""
    created = winner.post("/api/games/", {"kind": "blockade", "ranked": True}, format="json")
    assert created.status_code == 201, created.json()
    game_id = created.json()["id"]
    if how == "name":
        name = puppet.get("/api/me/").json()["username"]
        invited = winner.post(f"/api/games/{game_id}/invitations/", {"username": name},
                              format="json")
        assert invited.status_code == 201, invited.json()
        joined = puppet.post(f"/api/invitations/{invited.json()['id']}/accept/")
    else:
        token = urlparse(created.json()["invite_url"]).path.rstrip("/").split("/")[-1]
        joined = puppet.post(f"/api/games/{game_id}/join/",
                             {"invite": token} if how == "token" else {}, format="json")
    assert joined.status_code == 200, joined.json()
    _opening(game_id, {0: winner, 1: puppet})
    assert puppet.post(f"/api/games/{game_id}/resign/").status_code == 200
    result = winner.get(f"/api/games/{game_id}/").json()["result"]
    assert result["winner"] == 0  # the result stands either way
    return result


def _gain(user: User) -> int:
    """How far `user`'s Blockade rating rose above where a first rating starts (a fresh
    account has none: no gain), in displayed and in skill points."""
    row = Rating.objects.filter(user=user, kind="blockade").first()
    if row is None:
        return 0
    return max(row.rating - FRESH,
               rating_model.skill_points(row.mu) - rating_model.skill_points(rating_model.MU))


def test_one_puppet_at_one_address_lifts_nothing_in_ten_games(alice: User) -> None:
    puppet = make_user("puppet")
    main, other = _client(alice), _client(puppet)
    results = [_farm(main, other, how=("id", "token", "name")[i % 3]) for i in range(10)]
    assert _gain(alice) <= MOST
    assert all(r["rated"] is False for r in results)
    assert results[0]["unrated"] == ["same_address", "same_address"]
    assert not RatingChange.objects.exists()


def test_a_ring_of_established_puppets_at_one_address_lifts_nothing(
        alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten puppets, each established by ten games among themselves, then five games
    each against the main account: 2138 in 50 games. Scaled: four puppets established
    after three games (a round robin), then RANKED_PAIR_GAMES each against alice."""
    monkeypatch.setenv("RANKED_NEWCOMER_GAMES", "3")
    puppets = [make_user(f"puppet{i}") for i in range(4)]
    clients = {p.pk: _client(p) for p in puppets}
    ring = [_farm(clients[first.pk], clients[second.pk])
            for first, second in combinations(puppets, 2)]
    main = _client(alice)
    fed = [_farm(main, clients[puppet.pk])
           for puppet in puppets for _ in range(fair_play.pair_games())]
    assert _gain(alice) <= MOST
    assert all(r["unrated"] == ["same_address", "same_address"] for r in ring + fed)
    assert not Rating.objects.filter(user__in=puppets, games__gt=0).exists()


def test_a_ring_queueing_for_matchmaking_at_one_address_is_not_rated(
        alice: User, bob: User) -> None:
    main, puppet = _client(alice), _client(bob)
    assert main.post("/api/matchmaking/", {"kind": "blockade"}, format="json").status_code == 201
    matched = puppet.post("/api/matchmaking/", {"kind": "blockade"}, format="json").json()
    assert matched["state"] == "playing"
    game_id = matched["game_id"]
    seats = {s["username"]: s["seat"] for s in main.get(f"/api/games/{game_id}/").json()["seats"]}
    _opening(game_id, {seats["alice"]: main, seats["bob"]: puppet})
    assert puppet.post(f"/api/games/{game_id}/resign/").status_code == 200
    result = main.get(f"/api/games/{game_id}/").json()["result"]
    assert result["rated"] is False and result["unrated"] == ["same_address"] * 2


def test_the_lobby_form_and_the_join_button_note_the_place_too(alice: User, bob: User) -> None:
    client = Client(REMOTE_ADDR=HOME)
    client.force_login(alice)
    assert client.post("/games/new/", {"kind": "blockade", "ranked": "1"}).status_code == 302
    game = Game.objects.get(created_by=alice)
    client.force_login(bob)
    assert client.post(f"/games/{game.pk}/join/").status_code == 302
    rows = PlayedFrom.objects.values_list("user_id", "place")
    assert sorted(rows) == [(alice.pk, places.place_of(HOME)), (bob.pk, places.place_of(HOME))]
    assert places.linked(Game.objects.get(pk=game.pk), [alice.pk, bob.pk],
                         timezone.now()) == {alice.pk, bob.pk}


def test_players_at_two_addresses_are_rated_as_before(alice: User, bob: User) -> None:
    result = _farm(_client(alice, "198.51.100.1"), _client(bob, "198.51.100.2"),
                   how="token")
    assert result["rated"] is True and result["unrated"] == [None, None]
    assert result["rating_changes"][0] > 0 > result["rating_changes"][1]


def test_one_shared_address_in_a_four_seat_game_leaves_the_others_rated(
        players: list[User]) -> None:
    """Two accounts from one household do not rate each other, nor anyone; the other two
    seats are rated among themselves."""
    addresses = [HOME, HOME, "198.51.100.3", "2001:db8:1:2::5"]
    game = services.create_game(user=players[0], kind="bloqueio", ranked=True,
                                address=addresses[0])
    for user, address in zip(players[1:], addresses[1:], strict=True):
        services.join_game(game_id=game.pk, user=user, address=address)
    game = finish_by_resignations(Game.objects.get(pk=game.pk), players, [0, 1, 2])
    assert game.result["unrated"] == ["same_address", "same_address", None, None]
    rated = set(RatingChange.objects.filter(game=game).values_list("user_id", flat=True))
    assert rated == {players[2].pk, players[3].pk}


def test_places_are_keyed_hashes_of_an_ipv4_address_or_an_ipv6_64() -> None:
    assert places.place_of("2001:db8:1:2::5") == places.place_of("2001:db8:1:2:ffff::9")
    assert places.place_of("2001:db8:1:2::5") != places.place_of("2001:db8:1:3::5")
    assert places.place_of("::ffff:203.0.113.7") == places.place_of(HOME)
    assert places.place_of(HOME) != places.place_of("203.0.113.8")
    assert places.place_of("unknown") is None
    assert HOME not in places.place_of(HOME) and len(places.place_of(HOME)) == 32


def test_a_place_is_forgotten_after_its_days_unless_a_ranked_game_needs_it(
        alice: User, bob: User, carol: User) -> None:
    long_ago = timezone.now() - timedelta(days=places.days() + 1)
    for user in (alice, bob, carol):
        places.note(user, HOME, long_ago)
    waiting = services.create_game(user=carol, kind="blockade", ranked=True)
    assert places.forget() == 2
    assert list(PlayedFrom.objects.values_list("user_id", flat=True)) == [carol.pk]
    services.leave_game(game_id=waiting.pk, user=carol)
    assert "forget_places" in {job.name for job in worker.JOBS}  # hourly
    assert worker.forget_places_tick() == 1 and not PlayedFrom.objects.exists()


def test_old_places_link_nobody_and_zero_days_keeps_none(
        alice: User, bob: User, monkeypatch: pytest.MonkeyPatch) -> None:
    places.note(alice, HOME, timezone.now() - timedelta(days=places.days() + 1))
    result = _farm(_client(alice, "198.51.100.1"), _client(bob))
    assert result["rated"] is True  # alice was at bob's address, but long ago
    monkeypatch.setenv("RANKED_ADDRESS_DAYS", "0")
    before = PlayedFrom.objects.count()
    assert _farm(_client(alice), _client(bob))["rated"] is True
    assert PlayedFrom.objects.count() == before


# -- item 9: bots ------------------------------------------------------------------------


def test_resigning_against_a_bot_before_moving_rates_no_bot(alice: User) -> None:
    me = _client(alice)
    for _ in range(14):
        created = me.post("/api/games/", {"kind": "blockade", "bots": ["easy"]}, format="json")
        assert created.status_code == 201 and created.json()["status"] == "active"
        game_id = created.json()["id"]
        assert me.post(f"/api/games/{game_id}/resign/").status_code == 200
        assert me.get(f"/api/games/{game_id}/").json()["result"]["winner"] == 1
    assert not Rating.objects.filter(user=bot_account("easy")).exists()
    assert not RatingChange.objects.exists()


def test_a_bot_is_rated_once_each_seat_has_moved_twice(alice: User) -> None:
    created = _client(alice).post("/api/games/", {"kind": "blockade_run", "bots": ["easy"]},
                                  format="json")
    game = resign_after_bots_moved(Game.objects.get(pk=created.json()["id"]), alice)
    assert game.status == "finished"
    change = RatingChange.objects.get(game=game)
    assert change.user_id == bot_account("easy").pk and change.rating_after > change.rating_before
