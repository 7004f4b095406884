"""Inviting a user by name to a waiting game: the invitation, its answers, the refusals,
and its outbox row (games/outbox.py) written once, with the invitation (notifications
carry it out)."""

from __future__ import annotations

import pytest
from django.db import transaction

from games import invitations, outbox, services
from games.bot_accounts import bot_account
from games.models import Invitation, Outbox, Seat
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db


def _game(user, kind: str = "bloqueio2", **options) -> int:
    return services.create_game(user=user, kind=kind, **options).pk


def _invite(user, game_id: int, username):
    return client_for(user).post(f"/api/games/{game_id}/invitations/",
                                 {"username": username}, format="json")


def _sent() -> list[int]:
    """The invitations whose notice the outbox holds."""
    return [row.payload["invitation"] for row in Outbox.objects.filter(kind=outbox.INVITED)]


def test_a_player_invites_a_user_who_accepts_and_is_seated(alice, bob):
    game_id = _game(alice, private=True)
    response = _invite(alice, game_id, "BOB")  # any letter case
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["invited"] == "bob" and body["invited_by"] == "alice"
    assert body["status"] == "pending" and body["game"] == game_id and body["private"] is True
    mine = client_for(bob).get("/api/me/invitations/").json()
    assert [i["id"] for i in mine] == [body["id"]]
    # The invited user may see the private game before answering.
    assert client_for(bob).get(f"/api/games/{game_id}/").status_code == 200
    accepted = client_for(bob).post(f"/api/invitations/{body['id']}/accept/")
    assert accepted.status_code == 200
    assert accepted.json()["status"] == "active"
    assert Invitation.objects.get().status == "accepted"
    assert client_for(bob).get("/api/me/invitations/").json() == []


def test_declining_closes_the_invitation(alice, bob):
    game_id = _game(alice, kind="bloqueio")
    invitation = _invite(alice, game_id, "bob").json()
    declined = client_for(bob).post(f"/api/invitations/{invitation['id']}/decline/")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    again = client_for(bob).post(f"/api/invitations/{invitation['id']}/accept/")
    assert again.status_code == 409 and again.json()["code"] == "invitation_closed"
    assert not Seat.objects.filter(game_id=game_id, user=bob).exists()
    reinvited = _invite(alice, game_id, "bob")
    assert reinvited.status_code == 400 and reinvited.json()["code"] == "invitation_declined"


def test_someone_elses_invitation_is_not_found(alice, bob, carol):
    invitation = _invite(alice, _game(alice), "bob").json()
    for verb in ("accept", "decline"):
        response = client_for(carol).post(f"/api/invitations/{invitation['id']}/{verb}/")
        assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_accepting_when_the_game_filled_meanwhile_is_game_over_for_the_seat(alice, bob, carol):
    game_id = _game(alice)
    invitation = _invite(alice, game_id, "bob").json()
    services.join_game(game_id=game_id, user=carol)  # the last seat
    response = client_for(bob).post(f"/api/invitations/{invitation['id']}/accept/")
    assert response.status_code == 409 and response.json()["code"] == "already_started"
    assert Invitation.objects.get().status == "pending"


@pytest.mark.parametrize(("who", "status", "code"), [
    ("nobody-of-that-name", 404, "unknown_user"),
    ("alice", 400, "cannot_invite_self"),
    ("bob", 409, "already_seated"),
])
def test_refused_invitations(alice, bob, who, status, code):
    game_id = _game(alice, kind="bloqueio")
    services.join_game(game_id=game_id, user=bob)
    response = _invite(alice, game_id, who)
    assert response.status_code == status and response.json()["code"] == code
    assert not Invitation.objects.exists()


def test_bots_cannot_be_invited(alice):
    bot = bot_account("easy")
    response = _invite(alice, _game(alice), bot.username)
    assert response.status_code == 400 and response.json()["code"] == "cannot_invite_bot"


def test_only_a_seated_player_invites(alice, bob, carol):
    public = _game(alice)
    response = _invite(bob, public, "carol")
    assert response.status_code == 403 and response.json()["code"] == "not_a_player"
    private = _game(alice, private=True)
    response = _invite(bob, private, "carol")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_started_or_full_game_invites_nobody(alice, bob, carol):
    game_id = _game(alice)
    services.join_game(game_id=game_id, user=bob)
    response = _invite(alice, game_id, "carol")
    assert response.status_code == 409 and response.json()["code"] == "already_started"
    services.resign(game_id=game_id, user=bob)
    response = _invite(alice, game_id, "carol")
    assert response.status_code == 409 and response.json()["code"] == "game_over"


def test_the_body_is_checked(alice):
    game_id = _game(alice)
    for body in ({}, {"username": ["bob"]}, {"username": ""}):
        response = client_for(alice).post(f"/api/games/{game_id}/invitations/", body,
                                          format="json")
        assert response.status_code == 400 and response.json()["code"] == "invalid"


def test_signed_out_callers_are_refused(alice, anon):
    game_id = _game(alice)
    assert anon.post(f"/api/games/{game_id}/invitations/", {"username": "x"},
                     format="json").status_code == 401
    assert anon.get("/api/me/invitations/").status_code == 401


def test_an_invited_user_joins_a_private_game_without_the_token(alice, bob):
    game_id = _game(alice, private=True)
    _invite(alice, game_id, "bob")
    game = services.join_game(game_id=game_id, user=bob)
    assert game.status == "active"
    assert Invitation.objects.get().status == "accepted"


@pytest.mark.django_db(transaction=True)
def test_the_outbox_row_is_written_once_with_the_invitation():
    alice, _bob = make_user("alice"), make_user("bob")
    game_id = _game(alice, kind="bloqueio")
    with transaction.atomic():
        invitation, created = invitations.invite_user(game_id=game_id, user=alice,
                                                      username="bob")
        assert created
    [row] = Outbox.objects.filter(kind=outbox.INVITED)
    assert (row.game_id, row.payload, row.done_at) == (game_id,
                                                      {"invitation": invitation.pk}, None)
    again = _invite(alice, game_id, "bob")
    assert again.status_code == 200 and again.json()["id"] == invitation.pk
    assert _sent() == [invitation.pk]  # inviting again sends nothing


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_invitation_sends_nothing():
    alice, _bob = make_user("alice"), make_user("bob")
    game_id = _game(alice, kind="bloqueio")
    with pytest.raises(RuntimeError), transaction.atomic():
        invitations.invite_user(game_id=game_id, user=alice, username="bob")
        raise RuntimeError("undo")
    assert _sent() == [] and not Invitation.objects.exists()


def test_the_admin_lists_invitations_and_rematches_read_only(alice, bob):
    from django.test import Client

    admin = make_user("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    _invite(alice, _game(alice), "bob")
    browser = Client()
    browser.force_login(admin)
    for url in ("/admin/games/invitation/", "/admin/games/rematch/"):
        assert browser.get(url).status_code == 200, url
    assert browser.get("/admin/games/invitation/add/").status_code == 403


# -- taking an invitation back (issue #44, item 6) ----------------------------------------


def test_the_inviter_takes_an_invitation_back(alice, bob, carol):
    game_id = _game(alice, private=True)
    invitation = _invite(alice, game_id, "bob").json()
    assert client_for(bob).get(f"/api/games/{game_id}/").status_code == 200
    stranger = client_for(carol).post(f"/api/invitations/{invitation['id']}/revoke/")
    assert stranger.status_code == 404 and stranger.json()["code"] == "not_found"
    invited = client_for(bob).post(f"/api/invitations/{invitation['id']}/revoke/")
    assert invited.status_code == 404  # the invited user declines instead
    revoked = client_for(alice).post(f"/api/invitations/{invitation['id']}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["status"] == "revoked"
    assert Invitation.objects.get().status == "revoked"
    # Bob is no longer asked, and no longer sees the private game by it.
    assert client_for(bob).get("/api/me/invitations/").json() == []
    assert client_for(bob).get(f"/api/games/{game_id}/").status_code == 404
    joined = client_for(bob).post(f"/api/games/{game_id}/join/", {}, format="json")
    assert joined.status_code == 404
    accepted = client_for(bob).post(f"/api/invitations/{invitation['id']}/accept/")
    assert accepted.status_code == 409 and accepted.json()["code"] == "invitation_closed"
    again = client_for(alice).post(f"/api/invitations/{invitation['id']}/revoke/")
    assert again.status_code == 409 and again.json()["code"] == "invitation_closed"
    assert not Seat.objects.filter(game_id=game_id, user=bob).exists()


def test_any_seated_player_may_take_one_back_but_not_an_answered_one(alice, bob, carol, dave):
    game_id = _game(alice, kind="bloqueio")
    services.join_game(game_id=game_id, user=bob)
    to_carol = _invite(alice, game_id, "carol").json()
    to_dave = _invite(alice, game_id, "dave").json()
    assert client_for(bob).post(f"/api/invitations/{to_carol['id']}/revoke/").status_code == 200
    client_for(dave).post(f"/api/invitations/{to_dave['id']}/accept/")
    late = client_for(alice).post(f"/api/invitations/{to_dave['id']}/revoke/")
    assert late.status_code == 409 and late.json()["code"] == "invitation_closed"


def test_the_table_reads_the_games_invitations(alice, bob, carol):
    game_id = _game(alice, private=True)
    _invite(alice, game_id, "bob")
    listed = client_for(alice).get(f"/api/games/{game_id}/invitations/")
    assert listed.status_code == 200
    assert [(i["invited"], i["status"]) for i in listed.json()] == [("bob", "pending")]
    assert client_for(bob).get(f"/api/games/{game_id}/invitations/").json()["code"] \
        == "not_a_player"  # invited, not seated
    stranger = client_for(carol).get(f"/api/games/{game_id}/invitations/")
    assert stranger.status_code == 404
    public = _game(carol)
    assert client_for(alice).get(f"/api/games/{public}/invitations/").status_code == 403


def test_the_page_gives_the_table_its_pending_invitations(alice, bob):
    from django.test import Client

    game_id = _game(alice, private=True)
    invitation = _invite(alice, game_id, "bob").json()
    browser = Client()
    browser.force_login(alice)
    page = browser.get(f"/games/{game_id}/")
    assert page.context["data"]["invitations"][0]["id"] == invitation["id"]
    assert 'id="invitations"' in page.content.decode()
    client_for(alice).post(f"/api/invitations/{invitation['id']}/revoke/")
    assert browser.get(f"/games/{game_id}/").context["data"]["invitations"] == []
