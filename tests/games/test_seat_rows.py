"""The fixed statements of seating (games/seat_rows.py) behave as the ORM writes they
replaced: their rows read back as the ORM's, a failure marks the transaction for
rollback, and the open-games lock refuses to run where it would hold nothing. A seat
change that moves the game's version on does it in the seat's own statement."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import seat_rows, services
from games.models import Game, Seat

pytestmark = pytest.mark.django_db


def test_seats_inserted_in_one_statement_read_back_as_the_orm_writes_them(alice, bob):
    game = services.create_game(user=alice, kind="bloqueio")
    before = timezone.now()
    seat_rows.insert(game.pk, [(1, bob.pk, False), (2, bob.pk, True)])
    seats = list(Seat.objects.filter(game=game).order_by("seat"))
    assert [(s.seat, s.user_id, s.bot, s.replaced_id) for s in seats] == [
        (0, alice.pk, False, None), (1, bob.pk, False, None), (2, bob.pk, True, None)]
    assert before - timedelta(seconds=1) <= seats[1].joined_at <= timezone.now()
    assert seats[1].joined_at.tzinfo is not None


def test_a_taken_seat_raises_and_rolls_back_the_whole_transaction(alice, bob):
    game = services.create_game(user=alice, kind="bloqueio")
    with pytest.raises(IntegrityError), transaction.atomic():
        seat_rows.accept_invitation(game.pk, bob.pk)
        seat_rows.insert(game.pk, [(1, bob.pk, False)])
        try:
            seat_rows.insert(game.pk, [(1, alice.pk, False)])  # seat 1 is taken
        except IntegrityError:
            assert connection.needs_rollback  # as the ORM's insert leaves it
            raise
    assert list(Seat.objects.filter(game=game).values_list("seat", flat=True)) == [0]


def test_the_open_games_check_counts_the_creators_waiting_games(alice, bob):
    for _ in range(2):
        services.create_game(user=alice, kind="bloqueio")
    joined = services.create_game(user=bob, kind="bloqueio2")
    services.join_game(game_id=joined.pk, user=alice)  # started: waits no more
    with transaction.atomic():
        assert seat_rows.waiting_created(alice.pk) == 2
        assert seat_rows.waiting_created(bob.pk) == 0
    assert Game.objects.filter(created_by=alice, status="waiting").count() == 2


@pytest.mark.django_db(transaction=True)  # no test transaction around it
def test_the_open_games_lock_is_refused_outside_a_transaction(alice):
    with pytest.raises(TransactionManagementError):
        seat_rows.waiting_created(alice.pk)


def test_a_seat_change_and_its_version_are_one_statement(alice, bob):
    game = services.create_game(user=alice, kind="bloqueio")
    changes = [
        (lambda: seat_rows.insert(game.pk, [(1, bob.pk, False)], one_version_on=game),
         [(0, alice.pk, False, None), (1, bob.pk, False, None)]),
        (lambda: seat_rows.hand_to_bot(game, 1, alice.pk, bob.pk),  # any account will do
         [(0, alice.pk, False, None), (1, alice.pk, True, bob.pk)]),
        (lambda: seat_rows.remove(game.pk, 1, one_version_on=game),
         [(0, alice.pk, False, None)]),
    ]
    for change, seats in changes:
        version = Game.objects.get(pk=game.pk).version
        with CaptureQueriesContext(connection) as statements:
            change()
        assert len(statements) == 1, [q["sql"] for q in statements]
        assert Game.objects.get(pk=game.pk).version == game.version == version + 1
        assert [(s.seat, s.user_id, s.bot, s.replaced_id)
                for s in Seat.objects.filter(game=game).order_by("seat")] == seats


def test_a_seat_change_that_failed_moves_no_version(alice, bob):
    game = services.create_game(user=alice, kind="bloqueio")
    version = game.version
    with pytest.raises(IntegrityError), transaction.atomic():
        seat_rows.insert(game.pk, [(0, bob.pk, False)], one_version_on=game)  # alice's
    assert Game.objects.get(pk=game.pk).version == game.version == version
