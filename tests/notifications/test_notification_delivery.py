"""Notifications under the conditions that make them hard: racing "your turn"s, a mail
server that is down, a worker that died holding a claim, a choice
or an address that changed before the worker got to it, and forged unsubscribe links.
E-mail goes to a real SMTP server (tests/mailbox.py), or to a port nobody listens on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import signing
from django.utils import timezone

from accounts.models import User
from notifications import mail, services
from notifications.models import Kind, Mail, Notification
from tests.conftest import client_for
from tests.games.helpers import at_once, started_game
from tests.live.servers import free_port
from tests.mailbox import Mailbox

pytestmark = pytest.mark.django_db(transaction=True)

QUORIDOR = {"kind": "quoridor"}


def _opted_in(user: User, *kinds: str) -> User:
    user.email, user.email_verified = f"{user.username}@example.com", True
    user.save(update_fields=["email", "email_verified"])
    services.set_email_choices(user, dict.fromkeys(kinds, True))
    return user


def test_racing_your_turns_make_one_unread_row(alice, bob):
    """Several writers tell alice it is her turn in one game at once: the database's
    unique constraint leaves one unread row, the others refresh it."""
    game = started_game([alice, bob], kind="quoridor")
    made: list[int] = []
    at_once(lambda: made.append(services.notify(alice, Kind.YOUR_TURN, game_id=game.pk,
                                                data=QUORIDOR).pk), 6)
    rows = Notification.objects.filter(user=alice, kind=Kind.YOUR_TURN, read_at__isnull=True)
    assert rows.count() == 1 and set(made) == {rows.get().pk}


def test_a_read_your_turn_is_not_refreshed_but_a_new_one_made(alice, bob):
    game = started_game([alice, bob], kind="quoridor")
    first = services.notify(alice, Kind.YOUR_TURN, game_id=game.pk, data=QUORIDOR)
    assert services.notify(alice, Kind.YOUR_TURN, game_id=game.pk, data=QUORIDOR).pk == first.pk
    services.mark_read(alice, [first.pk])
    again = services.notify(alice, Kind.YOUR_TURN, game_id=game.pk, data=QUORIDOR)
    assert again.pk != first.pk and again.read_at is None
    assert Notification.objects.filter(user=alice).count() == 2


def test_a_mail_server_that_is_down_fails_the_mail_and_nothing_else(alice, bob, settings):
    """Nobody listens on the mail port: the e-mail is marked failed (not sent, not left
    pending for ever), the worker's call returns, and the notification itself stands."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    game = started_game([alice, bob], kind="quoridor")
    _opted_in(alice, "game_over")
    note = services.notify(alice, Kind.GAME_OVER, game_id=game.pk, data=QUORIDOR)
    assert note.mail == Mail.PENDING
    assert mail.send_pending() == 0
    note.refresh_from_db()
    assert note.mail == Mail.FAILED and note.read_at is None
    assert client_for(alice).get("/api/notifications/").json()["unread"] == 1
    assert mail.send_pending() == 0  # a failure is not retried in a loop


def test_a_claim_left_by_a_dead_worker_is_taken_again_after_a_while(
        alice, bob, mailbox: Mailbox):
    game = started_game([alice, bob], kind="quoridor")
    _opted_in(alice, "game_over")
    now = timezone.now()
    stale, fresh = (services.notify(alice, Kind.GAME_OVER, game_id=game.pk, data=QUORIDOR)
                    for _ in range(2))
    Notification.objects.filter(pk=stale.pk).update(
        mail=Mail.SENDING, mail_claimed_at=now - mail.RECLAIM - timedelta(seconds=1))
    Notification.objects.filter(pk=fresh.pk).update(
        mail=Mail.SENDING, mail_claimed_at=now - mail.RECLAIM + timedelta(minutes=1))
    assert mail.send_pending(now) == 1  # the dead worker's; the other may still be sent
    assert len(mailbox.messages) == 1
    states = dict(Notification.objects.values_list("pk", "mail"))
    assert states == {stale.pk: Mail.SENT, fresh.pk: Mail.SENDING}


@pytest.mark.parametrize("change", ["opted_out", "unverified", "deactivated"])
def test_a_mail_whose_reader_changed_their_mind_is_skipped(alice, bob, mailbox, change):
    """Between the notification and the worker, the reader opted out, their address
    lost its verification, or the account was closed: nothing is sent."""
    game = started_game([alice, bob], kind="quoridor")
    _opted_in(alice, "game_over")
    note = services.notify(alice, Kind.GAME_OVER, game_id=game.pk, data=QUORIDOR)
    assert note.mail == Mail.PENDING
    if change == "opted_out":
        services.set_email_choices(alice, {"game_over": False})
    else:
        field = "email_verified" if change == "unverified" else "is_active"
        User.objects.filter(pk=alice.pk).update(**{field: False})
    assert mail.send_pending() == 0
    note.refresh_from_db()
    assert note.mail == Mail.SKIPPED
    assert mailbox.messages == []  # send_pending returns after the server took any mail


def test_only_our_own_unsubscribe_tokens_are_read(alice):
    token = mail.unsubscribe_token(alice.pk, "game_over")
    assert mail.read_unsubscribe_token(token) == (alice.pk, "game_over")
    forged = [
        signing.dumps({"u": alice.pk, "k": "game_over"}, salt="another.purpose"),
        signing.dumps({"u": alice.pk, "k": "everything"}, salt=mail._SALT),
        signing.dumps({"u": str(alice.pk), "k": "game_over"}, salt=mail._SALT),
        signing.dumps([alice.pk, "game_over"], salt=mail._SALT),
        token[:-2] + ("AA" if not token.endswith("AA") else "BB"),
        "",
    ]
    assert [mail.read_unsubscribe_token(t) for t in forged] == [None] * len(forged)
