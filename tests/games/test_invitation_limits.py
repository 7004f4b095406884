"""Invitations by name are bounded (issue #44, item 6: one two-seat game sent 40 in
1.4 s; recreating games re-invited one person 10 times in 0.6 s): at most
INVITATIONS_PER_GAME people per game (409 `too_many_invitations`), INVITE_RATE new
invitations per inviter and INVITE_AGAIN_RATE of one person by one inviter (429
`rate_limited`, with Retry-After). A refused invitation writes and sends nothing."""

from __future__ import annotations

import uuid

import pytest

from bloqueio_site import limits
from games import invitations, outbox, services
from games.models import Invitation, Outbox
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def _invite(user, game_id: int, username: str):
    return client_for(user).post(f"/api/games/{game_id}/invitations/",
                                 {"username": username}, format="json")


def _rate(count: int) -> limits.Rate:
    return limits.Rate(f"invite_test_{uuid.uuid4().hex}", count, 3600)


def _third_refused(alice) -> tuple[int, object]:
    """A four-seat game of alice's: she invites bob and carol, then dave (the answer)."""
    game = services.create_game(user=alice, kind="bloqueio").pk
    for name in ("bob", "carol", "dave"):
        make_user(name)
    assert _invite(alice, game, "bob").status_code == 201
    assert _invite(alice, game, "carol").status_code == 201
    return game, _invite(alice, game, "dave")


class _Sent:
    """The invitations whose notice the outbox holds (games/outbox.py), counted."""

    def __len__(self) -> int:
        return Outbox.objects.filter(kind=outbox.INVITED).count()


@pytest.fixture
def sent():
    return _Sent()


def test_the_defaults_are_documented_and_scaled(db):
    assert invitations.INVITATIONS_PER_GAME == 10
    assert (invitations.INVITE_RATE.count, invitations.INVITE_RATE.seconds) == (20, 3600)
    assert (invitations.INVITE_AGAIN_RATE.count, invitations.INVITE_AGAIN_RATE.seconds) \
        == (3, 3600)
    scaled = limits.rate("invite", "INVITATION_LIMIT", 20, 3600, env={"RATE_LIMIT_SCALE": "10"})
    assert scaled.count == 200


def test_a_game_invites_at_most_its_cap(alice, monkeypatch, sent):
    monkeypatch.setattr(invitations, "INVITATIONS_PER_GAME", 2)
    game, refused = _third_refused(alice)
    assert refused.status_code == 409, refused.content
    assert refused.json()["code"] == "too_many_invitations" and "Retry-After" not in refused
    assert "2" in refused.json()["detail"]
    assert sorted(Invitation.objects.values_list("invited__username", flat=True)) == [
        "bob", "carol"]
    # Inviting someone invited already is no new invitation: answered, not refused.
    assert _invite(alice, game, "bob").status_code == 200
    # A taken-back one still counts (else invite and take back would never end), and
    # asking that person again reuses it.
    carol = Invitation.objects.get(invited__username="carol")
    assert client_for(alice).post(f"/api/invitations/{carol.pk}/revoke/").status_code == 200
    assert _invite(alice, game, "dave").status_code == 409
    again = _invite(alice, game, "carol")
    assert again.status_code == 201 and again.json()["id"] == carol.pk
    assert again.json()["status"] == "pending"
    assert len(sent) == 3


def test_an_inviter_is_rate_limited_with_retry_after(alice, monkeypatch, sent):
    monkeypatch.setattr(invitations, "INVITE_RATE", _rate(2))
    _game, refused = _third_refused(alice)
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate_limited"
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert refused.json()["retry_after"] == int(refused["Retry-After"])
    assert "Too many invitations from your account" in refused.json()["detail"]
    assert not Invitation.objects.filter(invited__username="dave").exists()
    assert len(sent) == 2
    # Another inviter is not held by alice's count.
    bob = Invitation.objects.get(invited__username="bob").invited
    assert _invite(bob, services.create_game(user=bob, kind="bloqueio2").pk,
                   "dave").status_code == 201


def test_one_person_is_invited_again_and_again_at_most_so_often(alice, bob, monkeypatch, sent):
    """The reported pattern: make a game, invite bob, leave it (aborted), again."""
    monkeypatch.setattr(invitations, "INVITE_AGAIN_RATE", _rate(2))
    answers = []
    for _ in range(3):
        game = services.create_game(user=alice, kind="bloqueio2").pk
        answers.append(_invite(alice, game, "bob"))
        services.leave_game(game_id=game, user=alice)
    assert [a.status_code for a in answers] == [201, 201, 429]
    assert "bob" in answers[2].json()["detail"] and "Retry-After" in answers[2]
    assert len(sent) == 2
    assert Invitation.objects.count() == 2
