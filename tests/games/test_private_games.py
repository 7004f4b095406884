"""Private games: listed nowhere, seen and joined only by their table, the users invited
by name and the holders of the invitation link's token (games/privacy.py)."""

from __future__ import annotations

from functools import partial

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Seat
from tests.conftest import PASSWORD, client_for, make_user
from tests.games.helpers import race

pytestmark = pytest.mark.django_db


def _private(alice, kind: str = "bloqueio2") -> dict:
    response = client_for(alice).post("/api/games/", {"kind": kind, "private": True},
                                      format="json")
    assert response.status_code == 201, response.content
    return response.json()


def _token(game: dict) -> str:
    return game["invite_url"].rstrip("/").rsplit("/", 1)[1]


def test_a_private_game_is_made_casual_with_an_invitation_link(alice):
    game = _private(alice)
    assert game["private"] is True and game["ranked"] is False
    assert game["invite_url"].startswith(f"http://testserver/games/{game['id']}/invite/")
    row = Game.objects.get(pk=game["id"])
    assert len(row.invite_token) >= 20 and row.invite_token == _token(game)


def test_private_and_ranked_is_refused(alice):
    response = client_for(alice).post("/api/games/", {"kind": "bloqueio2", "private": True,
                                                      "ranked": True}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "private_ranked"
    assert not Game.objects.exists()


def test_private_must_be_a_boolean(alice):
    response = client_for(alice).post("/api/games/", {"kind": "bloqueio2", "private": "yes"},
                                      format="json")
    assert response.status_code == 400 and response.json()["code"] == "invalid"


def test_a_private_game_is_not_listed(alice, bob, anon):
    hidden = _private(alice)
    shown = client_for(bob).post("/api/games/", {"kind": "bloqueio2"}, format="json").json()
    ids = [g["id"] for g in anon.get("/api/games/").json()["results"]]
    assert ids == [shown["id"]]
    ids = [g["id"] for g in client_for(alice).get("/api/games/?status=waiting").json()["results"]]
    assert hidden["id"] not in ids
    page = Client().get("/")
    assert f"/games/{hidden['id']}/" not in page.content.decode()


@pytest.mark.parametrize("path", ["", "events/", "replay/", "legal-actions/", "export/",
                                  "analysis/", "analysis/0/best/"])
def test_strangers_are_told_a_private_game_does_not_exist(alice, carol, anon, path):
    game = _private(alice)
    for client in (anon, client_for(carol)):
        response = client.get(f"/api/games/{game['id']}/{path}")
        assert response.status_code == 404, (path, response.content)
        assert response.json()["code"] == "not_found"
    assert client_for(alice).get(f"/api/games/{game['id']}/{path}").status_code == 200


def test_the_token_lets_a_spectator_read_but_shows_no_link(alice, carol, anon):
    game = _private(alice)
    token = _token(game)
    seen = anon.get(f"/api/games/{game['id']}/?invite={token}")
    assert seen.status_code == 200 and "invite_url" not in seen.json()
    events = client_for(carol).get(f"/api/games/{game['id']}/events/?invite={token}")
    assert events.status_code == 200
    assert anon.get(f"/api/games/{game['id']}/?invite=wrong{token}").status_code == 404


def test_only_the_table_sees_the_invite_url(alice, bob, carol):
    game = client_for(alice).post("/api/games/", {"kind": "bloqueio"}, format="json").json()
    assert "invite_url" in game
    client_for(bob).post(f"/api/games/{game['id']}/join/", {}, format="json")
    assert "invite_url" in client_for(bob).get(f"/api/games/{game['id']}/").json()
    assert "invite_url" not in client_for(carol).get(f"/api/games/{game['id']}/").json()
    listed = client_for(alice).get("/api/games/").json()["results"][0]
    assert "invite_url" not in listed


def test_joining_a_private_game_needs_the_token(alice, bob):
    game = _private(alice)
    refused = client_for(bob).post(f"/api/games/{game['id']}/join/", {}, format="json")
    assert refused.status_code == 404 and refused.json()["code"] == "not_found"
    wrong = client_for(bob).post(f"/api/games/{game['id']}/join/", {"invite": "x" * 22},
                                 format="json")
    assert wrong.status_code == 404
    joined = client_for(bob).post(f"/api/games/{game['id']}/join/", {"invite": _token(game)},
                                  format="json")
    assert joined.status_code == 200
    assert joined.json()["status"] == "active"
    assert [s["username"] for s in joined.json()["seats"]] == ["alice", "bob"]


def test_a_full_private_game_refuses_another_join_by_link(alice, bob, carol):
    game = _private(alice)
    client_for(bob).post(f"/api/games/{game['id']}/join/", {"invite": _token(game)},
                         format="json")
    late = client_for(carol).post(f"/api/games/{game['id']}/join/", {"invite": _token(game)},
                                  format="json")
    assert late.status_code == 409 and late.json()["code"] == "already_started"


# -- the link's page --------------------------------------------------------------------


def _browser(user=None) -> Client:
    browser = Client()
    if user is not None:
        browser.force_login(user)
    return browser


def test_the_invite_link_shows_the_game_and_its_button_seats_a_signed_in_visitor(alice, bob):
    game = _private(alice)
    path = f"/games/{game['id']}/invite/{_token(game)}/"
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(bob)
    page = browser.get(path)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="take-seat"' in html and f'action="{path}"' in html
    assert "csrfmiddlewaretoken" in html and "alice" in html  # the game and its table
    assert Seat.objects.filter(game_id=game["id"]).count() == 1  # the GET seated nobody
    response = browser.post(path, {"csrfmiddlewaretoken": page.context["csrf_token"]})
    assert response.status_code == 302 and response["Location"] == f"/games/{game['id']}/"
    assert list(Seat.objects.filter(game_id=game["id"]).values_list("user__username", flat=True)
                .order_by("seat")) == ["alice", "bob"]
    assert browser.get(f"/games/{game['id']}/").status_code == 200
    assert browser.get(path)["Location"] == f"/games/{game['id']}/"  # seated: to the game


@pytest.mark.parametrize("ranked", [False, True])
def test_opening_the_link_from_another_site_seats_nobody(alice, bob, ranked):
    """Issue #44, item 5: a top-level navigation from another site carries the Lax
    session cookie; before, that GET took a seat (a ranked one too, after which the
    visitor was refused matchmaking). Only the CSRF-checked POST seats."""
    game = services.create_game(user=alice, kind="bloqueio2", ranked=ranked)
    path = f"/games/{game.pk}/invite/{game.invite_token}/"
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(bob)
    page = browser.get(path, HTTP_REFERER="https://evil.example/",
                       HTTP_SEC_FETCH_SITE="cross-site")
    assert page.status_code == 200 and 'id="take-seat"' in page.content.decode()
    forged = browser.post(path, HTTP_ORIGIN="https://evil.example")
    assert forged.status_code == 403
    assert not Seat.objects.filter(game=game, user=bob).exists()
    assert Game.objects.get(pk=game.pk).status == "waiting"


def test_the_invite_link_asks_a_signed_out_visitor_to_log_in_and_lets_them_watch(alice, anon):
    game = _private(alice)
    browser = Client()
    assert browser.get(f"/games/{game['id']}/").status_code == 404
    path = f"/games/{game['id']}/invite/{_token(game)}/"
    page = browser.get(path)
    assert page.status_code == 200
    html = page.content.decode()
    assert f'href="{reverse("login")}?next={path}"' in html
    assert f'href="{reverse("register")}?next={path}"' in html
    assert Seat.objects.filter(game_id=game["id"]).count() == 1
    assert browser.post(path)["Location"].startswith(f"{reverse('login')}?next=")
    assert Seat.objects.filter(game_id=game["id"]).count() == 1
    # The session kept the token: the page and its API reads now answer.
    assert browser.get(f"/games/{game['id']}/").status_code == 200
    assert browser.get(f"/api/games/{game['id']}/").status_code == 200


def test_the_link_of_a_full_game_shows_it_without_a_seat(alice, bob, carol):
    game = _private(alice)
    _browser(bob).post(f"/games/{game['id']}/invite/{_token(game)}/")
    browser = _browser(carol)
    response = browser.get(f"/games/{game['id']}/invite/{_token(game)}/", follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == f"/games/{game['id']}/"
    assert "no longer waiting for players" in response.content.decode()
    assert not Seat.objects.filter(game_id=game["id"], user=carol).exists()
    assert game["invite_url"] not in response.content.decode()  # a spectator's page


def test_a_wrong_token_in_the_link_is_not_found(alice, bob):
    game = _private(alice)
    assert _browser(bob).get(f"/games/{game['id']}/invite/nope/").status_code == 404
    assert Seat.objects.filter(game_id=game["id"]).count() == 1


def test_signing_up_from_the_link_comes_back_and_takes_the_seat(alice):
    game = _private(alice)
    path = f"/games/{game['id']}/invite/{_token(game)}/"
    browser = Client()
    browser.get(path)
    response = browser.post(f"/accounts/register/?next={path}", {
        "username": "newcomer", "password1": PASSWORD, "password2": PASSWORD,
        "email": "", "next": path})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert response["Location"] == path
    assert 'id="take-seat"' in browser.get(path).content.decode()
    assert not Seat.objects.filter(game_id=game["id"], user__username="newcomer").exists()
    browser.post(path)
    assert Seat.objects.filter(game_id=game["id"], user__username="newcomer").exists()


def test_the_page_shows_the_link_with_a_copy_button_to_the_table_only(alice, carol):
    game = _private(alice)
    html = _browser(alice).get(f"/games/{game['id']}/").content.decode()
    assert game["invite_url"] in html and 'id="copy-invite"' in html
    public = client_for(alice).post("/api/games/", {"kind": "bloqueio"}, format="json").json()
    html = _browser(carol).get(f"/games/{public['id']}/").content.decode()
    assert public["invite_url"] not in html and 'id="copy-invite"' not in html


def test_the_lobby_form_makes_a_private_game(alice):
    browser = _browser(alice)
    response = browser.post("/games/new/", {"kind": "bloqueio2", "ranked": "0",
                                            "time_control": "", "private": "1"})
    assert response.status_code == 302
    assert Game.objects.get().private is True
    assert 'name="private"' in browser.get("/").content.decode()


# -- racing joins through the link (real PostgreSQL, threads) ----------------------------


@pytest.mark.django_db(transaction=True)
def test_racing_joins_by_link_take_each_free_seat_once():
    owner = make_user("owner")
    game = services.create_game(user=owner, kind="bloqueio", private=True)
    racers = [make_user(f"racer{i}") for i in range(6)]
    answers = race([partial(client_for(user).post, f"/api/games/{game.pk}/join/",
                            {"invite": game.invite_token}, format="json") for user in racers])
    assert sorted(a.status_code for a in answers) == [200, 200, 200, 409, 409, 409]
    seats = list(Seat.objects.filter(game=game).order_by("seat").values_list("seat", flat=True))
    assert seats == [0, 1, 2, 3]
    game.refresh_from_db()
    assert game.status == "active"


def test_a_private_games_chat_is_not_found_for_strangers(alice, carol, anon):
    game = _private(alice)
    url = f"/api/games/{game['id']}/chat/"
    assert anon.get(url).status_code == 404
    refused = client_for(carol).post(url, {"text": "hello"}, format="json")
    assert refused.status_code == 404 and refused.json()["code"] == "not_found"
    assert client_for(alice).get(url).status_code == 200
    assert client_for(carol).get(f"{url}?invite={_token(game)}").status_code == 200


def test_a_profile_does_not_list_private_games(alice, anon):
    hidden = _private(alice)
    shown = client_for(alice).post("/api/games/", {"kind": "bloqueio2"}, format="json").json()
    recent = [g["id"] for g in anon.get("/api/users/alice/").json()["recent_games"]]
    assert recent == [shown["id"]] and hidden["id"] not in recent


def test_a_profile_lists_private_games_to_those_who_may_see_them(alice, anon):
    """Issue 45: a player's profile listed an aborted public game but not their aborted
    rematch (rematches are private). Each reader now gets the games they may see: the
    player and the rematch's table all of them, anyone else the public ones."""
    from games import rematch

    bob, carol = make_user("bob"), make_user("carol")
    first = services.create_game(user=alice, kind="bloqueio2")
    services.join_game(game_id=first.pk, user=bob)
    services.resign(game_id=first.pk, user=bob)
    rematch.offer(game_id=first.pk, user=alice)
    again = rematch.offer(game_id=first.pk, user=bob)["game_id"]
    services.abort_game(game_id=again)  # the rematch nobody moved in
    lonely = services.create_game(user=alice, kind="bloqueio2")
    services.join_game(game_id=lonely.pk, user=carol)
    services.abort_game(game_id=lonely.pk)  # an aborted public game
    assert {g.status for g in Game.objects.filter(pk__in=[again, lonely.pk])} == {"aborted"}

    def listed(client) -> set[int]:
        return {g["id"] for g in client.get("/api/users/alice/").json()["recent_games"]}

    public = {first.pk, lonely.pk}
    assert listed(client_for(alice)) == listed(client_for(bob)) == public | {again}
    assert listed(client_for(carol)) == listed(anon) == public
    def page(user) -> str:
        browser = Client()
        browser.force_login(user)
        return browser.get("/users/alice/").content.decode()

    assert f"/games/{again}/" in page(alice) and f"/games/{lonely.pk}/" in page(alice)
    assert f"/games/{again}/" not in page(carol) and f"/games/{lonely.pk}/" in page(carol)
