"""Invitations are mailed only while they still ask something (issue #44, item 6): games
made again and again re-invited one person, each by e-mail, even for games already
aborted. The e-mail (and the notice) goes only for a pending invitation to a game still
waiting for players: one taken back, or whose game was aborted before the worker got to
it, is skipped. Read from a real SMTP server."""

from __future__ import annotations

import pytest
from django.db import transaction

from accounts.models import User
from games import invitations, outbox, services
from notifications import mail
from notifications import services as notifications
from notifications.models import Kind, Mail, Notification
from tests.conftest import client_for
from tests.mailbox import Mailbox, body

pytestmark = pytest.mark.django_db(transaction=True)  # notices and e-mail go after commit


def _wants_invitations(user: User) -> None:
    user.email, user.email_verified = f"{user.username}@example.com", True
    user.save(update_fields=["email", "email_verified"])
    notifications.set_email_choices(user, {"invitation": True})


def _invite(alice: User, username: str = "bob") -> tuple[int, int]:
    game = services.create_game(user=alice, kind="bloqueio2", private=True)
    invitation, created = invitations.invite_user(game_id=game.pk, user=alice,
                                                  username=username)
    assert created
    return game.pk, invitation.pk


def _mail_of(invitation_id: int) -> str:
    return Notification.objects.get(kind=Kind.INVITATION,
                                    data__invitation=invitation_id).mail


def test_only_invitations_still_asking_are_mailed(alice, bob, mailbox: Mailbox):
    _wants_invitations(bob)
    aborted_game, aborted = _invite(alice)
    _taken_back_game, taken_back = _invite(alice)
    waiting_game, waiting = _invite(alice)
    outbox.run_pending()  # the worker made the three notices
    assert {_mail_of(i) for i in (aborted, taken_back, waiting)} == {Mail.PENDING}
    services.leave_game(game_id=aborted_game, user=alice)  # alone: the game is aborted
    revoked = client_for(alice).post(f"/api/invitations/{taken_back}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["status"] == "revoked"
    outbox.run_pending()  # and settled the one taken back

    assert mail.send_pending() == 1
    [message] = mailbox.messages
    assert message["To"] == "bob@example.com"
    assert f"/games/{waiting_game}/" in body(message)
    assert (_mail_of(aborted), _mail_of(taken_back), _mail_of(waiting)) == (
        Mail.SKIPPED, Mail.SKIPPED, Mail.SENT)
    # The notice of the one taken back is settled: not left unread.
    unread = Notification.objects.filter(user=bob, read_at__isnull=True)
    assert taken_back not in [n.data.get("invitation") for n in unread]


def test_no_notice_for_a_game_over_before_the_invitation_committed(alice, bob):
    _wants_invitations(bob)
    with transaction.atomic():
        game_id, _invitation = _invite(alice)
        services.leave_game(game_id=game_id, user=alice)  # aborted in the same commit
    assert outbox.run_pending() == 1  # the row is carried out: it makes no notice
    assert not Notification.objects.filter(user=bob).exists()


def test_a_rematch_offer_is_mailed_while_it_still_asks(alice, bob, carol, mailbox: Mailbox):
    """A rematch offer is an invitation to play again (issue #45): mailed to who chose
    invitations by e-mail, unless it was declined (or started, or answered) before the
    worker got to it. It has no invitation row, so "still asks" is the offer's own."""
    from games import rematch
    from tests.games.helpers import started_game

    _wants_invitations(bob)
    _wants_invitations(carol)
    duel = started_game([alice, bob], kind="quoridor")
    services.resign(game_id=duel.pk, user=alice)
    table = started_game([alice, carol], kind="quoridor")
    services.resign(game_id=table.pk, user=alice)
    rematch.offer(game_id=duel.pk, user=alice)
    rematch.offer(game_id=table.pk, user=alice)
    outbox.run_pending()
    rematch.decline(game_id=table.pk, user=carol)  # declined before the mail went

    assert mail.send_pending() == 1
    [message] = mailbox.messages
    assert message["To"] == "bob@example.com"
    assert f"/games/{duel.pk}/" in body(message) and "rematch" in body(message)
    notes = Notification.objects.filter(kind=Kind.INVITATION)
    assert notes.get(user=bob).mail == Mail.SENT
    assert notes.get(user=carol).mail == Mail.SKIPPED
