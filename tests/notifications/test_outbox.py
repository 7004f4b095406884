"""The outbox (games/outbox.py) and the one registry of notification kinds
(notifications/kinds.py): a row written with its change, a failed row retried later and
done once, its half-done work undone; e-mail the same message on every attempt; and the
registry the only list the rest reads."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import outbox
from games import services as games
from games.models import Outbox
from notifications import kinds, mail, services
from notifications.api.serializers import EmailChoicesIO
from notifications.models import KINDS, EmailChoice, Kind, Mail, Notification
from tests.games.helpers import play, started_game
from tests.mailbox import Mailbox

pytestmark = pytest.mark.django_db(transaction=True)

DAYS = {"days": 2}


def test_a_turn_based_move_writes_its_row_in_its_own_transaction(alice, bob):
    game = started_game([alice, bob], kind="quoridor", time_control=DAYS)
    with pytest.raises(RuntimeError), transaction.atomic():
        play(game, [alice, bob], [{"type": "move", "to": [7, 4]}])
        assert Outbox.objects.filter(kind=outbox.TURN).count() == 2  # start, move
        raise RuntimeError("the move rolls back")
    [row] = Outbox.objects.filter(kind=outbox.TURN)  # the start's only
    assert (row.payload["ply"], row.payload["to_move"]) == (0, alice.pk)


def test_a_failed_row_is_retried_later_not_lost_not_doubled(alice, bob):
    """A "game over" whose handler fails half-way (after settling the turns, before
    telling anyone): its writes are undone, the row is put off with the error, and once
    the cause is mended it is carried out once."""
    game = started_game([alice, bob], kind="quoridor", time_control=DAYS)
    assert outbox.run_pending() == 1  # alice's turn
    games.resign(game_id=game.pk, user=bob)
    over = Outbox.objects.get(kind=outbox.GAME_OVER)
    Outbox.objects.filter(pk=over.pk).update(payload={"seated": [alice.pk, bob.pk]})
    now = timezone.now()
    assert outbox.run_pending(now) == 0
    over.refresh_from_db()
    assert (over.done_at, over.attempts) == (None, 1) and "KeyError" in over.last_error
    assert over.due_at > now
    turn = Notification.objects.get(user=alice, kind=Kind.YOUR_TURN)
    assert turn.read_at is None  # the settling was undone with the failure
    assert not Notification.objects.filter(kind=Kind.GAME_OVER).exists()
    assert outbox.run_pending(now) == 0  # not due again yet
    Outbox.objects.filter(pk=over.pk).update(
        payload={"seated": [alice.pk, bob.pk], "kind": "quoridor"})  # mended
    later = over.due_at + timedelta(seconds=1)
    assert outbox.run_pending(later) == 1
    assert outbox.run_pending(later + timedelta(hours=1)) == 0  # done means done
    over.refresh_from_db()
    assert over.done_at == later and over.attempts == 2
    assert sorted(Notification.objects.filter(kind=Kind.GAME_OVER)
                  .values_list("user__username", flat=True)) == ["alice", "bob"]
    turn.refresh_from_db()
    assert turn.read_at is not None


def test_a_row_nobody_handles_waits_for_a_handler(alice, bob):
    game = started_game([alice, bob], kind="quoridor")
    Outbox.objects.create(kind="unknown", game=game, created_at=timezone.now(),
                          due_at=timezone.now())
    assert outbox.run_pending() == 0
    row = Outbox.objects.get()
    assert row.done_at is None and row.attempts == 1 and "LookupError" in row.last_error


def test_done_rows_are_forgotten_after_a_week(alice, bob):
    started_game([alice, bob], kind="quoridor", time_control=DAYS)
    outbox.run_pending()
    assert outbox.forget_done(timezone.now() + outbox.KEEP_DONE - timedelta(minutes=1)) == 0
    assert outbox.forget_done(timezone.now() + outbox.KEEP_DONE + timedelta(minutes=1)) == 1


def test_an_email_sent_again_is_the_same_message(alice, bob, mailbox: Mailbox):
    """A worker that died after the server took the e-mail, before it wrote so: the
    claim is taken again and the e-mail sent again, with the same Message-ID, which
    mail servers and clients drop as a duplicate."""
    alice.email, alice.email_verified = "alice@example.com", True
    alice.save(update_fields=["email", "email_verified"])
    services.set_email_choices(alice, {"game_over": True})
    game = started_game([alice, bob], kind="quoridor")
    note = services.notify(alice, Kind.GAME_OVER, game_id=game.pk, data={"kind": "quoridor"})
    assert mail.send_pending() == 1
    Notification.objects.filter(pk=note.pk).update(
        mail=Mail.SENDING, mail_claimed_at=timezone.now() - mail.RECLAIM)
    assert mail.send_pending() == 1
    first, again = mailbox.wait(2)
    assert first["Message-ID"] == again["Message-ID"] == mail.message_id(note)
    other = services.notify(alice, Kind.GAME_OVER, game_id=game.pk, data={"kind": "quoridor"})
    assert mail.message_id(other) != mail.message_id(note)


def test_the_registry_is_the_one_list():
    values = [kind.value for kind in kinds.REGISTRY]
    assert list(Kind.values) == values == list(KINDS)
    assert [str(Kind(v).label) for v in values] == [kinds.label(v) for v in values]
    mailed = [kind.value for kind in kinds.REGISTRY if kind.mails]
    assert list(EmailChoicesIO().fields) == mailed
    fields = {f.name for f in EmailChoice._meta.get_fields()}
    assert {kind.preference for kind in kinds.REGISTRY if kind.mails} <= fields
    fed = [source for kind in kinds.REGISTRY for source in kind.fed_by]
    assert sorted(fed) == sorted(outbox.KINDS)  # every row games writes has its handler


def test_without_redis_the_writer_carries_its_rows_out_itself(alice, bob, settings):
    """`make run`'s default (OUTBOX_IN_PROCESS, no Redis): the process that wrote the row
    carries it out after the commit, so its push reaches this process's sockets; the
    worker leaves it the rows of the last IN_PROCESS_GRACE."""
    from games import worker
    from tests.waiting import wait_for

    settings.OUTBOX_IN_PROCESS = False
    first = started_game([bob, alice], kind="quoridor", time_control=DAYS)
    assert not Notification.objects.exists()  # left to the worker
    settings.OUTBOX_IN_PROCESS = True
    assert worker.outbox_tick() == 0  # too fresh: the writer's to carry out
    assert not Notification.objects.exists()
    second = started_game([alice, bob], kind="quoridor", time_control=DAYS)
    wait_for(lambda: not Outbox.objects.filter(done_at__isnull=True).exists(),
             "the writer's outbox thread")  # its own row, and the one due before it
    assert sorted(Notification.objects.values_list("game_id", "user__username")) == sorted(
        [(first.pk, "bob"), (second.pk, "alice")])


def test_one_games_rows_go_in_order_across_workers(alice, bob, carol):
    """While another worker holds a game's row, that game's later rows wait for it; other
    games' rows go on."""
    import psycopg
    from django.db import connection

    game = started_game([alice, bob], kind="quoridor", time_control=DAYS)
    play(game, [alice, bob], [{"type": "move", "to": [7, 4]}])
    other = started_game([carol, bob], kind="quoridor", time_control=DAYS)
    first = Outbox.objects.filter(game=game).earliest("id")
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.Connection.connect(**params) as worker:  # another worker's claim
        worker.execute(f"SELECT id FROM {Outbox._meta.db_table} WHERE id = %s FOR UPDATE",
                       [first.pk])
        assert outbox.run_pending() == 1  # the other game's only
        assert list(Notification.objects.values_list("game_id", flat=True)) == [other.pk]
        worker.rollback()
    assert outbox.run_pending() == 2
    assert Notification.objects.get(game=game, read_at__isnull=True).user == bob
