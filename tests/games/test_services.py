"""Service-level behaviour: forced passes, append-only events, broadcast after commit."""

from __future__ import annotations

import json

import pytest
from django.db import DatabaseError, connection, transaction

from bloqueio_site.append_only import AppendOnlyError
from games import engine, services
from games.errors import IllegalActionError
from games.models import Event, Game
from tests.conftest import VECTORS
from tests.games.helpers import play, started_game

pytestmark = pytest.mark.django_db


def _vector(kind: str, case_id: str) -> dict:
    with (VECTORS / f"{kind}.jsonl").open() as f:
        return next(c for c in map(json.loads, f) if c["id"] == case_id)


def test_server_records_the_forced_pass_after_a_move(players):
    case = _vector("bloqueio", "bloqueio/hand/pass-needed-after-move")
    game = started_game(players)
    # Put the game in the vector's position (a unit test of the pass step only).
    Game.objects.filter(pk=game.pk).update(state=case["start"], ply=case["start"]["ply"])
    done = services.submit_action(
        game_id=game.pk, user=players[3], action=case["actions"][0], ply=case["start"]["ply"]
    )
    assert [(e.ply, e.seat, e.action) for e in done.events] == [
        (44, 3, {"type": "move", "to": [9, 1]}),
        (45, 0, {"type": "pass"}),
    ]
    game.refresh_from_db()
    assert game.ply == 45
    assert game.state["turn"] == 1


def test_illegal_action_writes_nothing(players):
    game = started_game(players)
    with pytest.raises(IllegalActionError) as err:
        services.submit_action(
            game_id=game.pk, user=players[0], action={"type": "move", "to": [4, 5]}, ply=0
        )
    assert err.value.code == "illegal_action"
    assert not Event.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.ply == 0


def test_events_are_append_only_in_code(players):
    game = play(started_game(players), players, [{"type": "move", "to": [2, 5]}])
    event = Event.objects.get(game=game)
    event.action = {"type": "move", "to": [0, 5]}
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(game=game).update(seat=3)
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(game=game).delete()


def test_events_are_append_only_in_the_database(players):
    game = play(started_game(players), players, [{"type": "move", "to": [2, 5]}])
    for sql in ["UPDATE games_event SET seat = 3", "DELETE FROM games_event"]:
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
                connection.cursor() as cursor:
            cursor.execute(sql)
    assert Event.objects.get(game=game).seat == 0


def test_out_of_turn_resign_keeps_the_turn(players):
    game = started_game(players)
    services.resign(game_id=game.pk, user=players[2])
    game.refresh_from_db()
    assert game.state["turn"] == 0
    assert game.state["pawns"][2] is None
    assert game.state["left_order"] == [2]


def test_moderator_removal_is_an_event(players):
    game = started_game(players)
    services.remove_seat(game_id=game.pk, seat=1)
    event = Event.objects.get(game=game)
    assert (event.seat, event.action) == (1, {"type": "removed"})


def test_abort_ends_the_game_without_result(players):
    game = started_game(players)
    services.abort_game(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == "aborted"
    assert game.result == {"winner": None, "ranking": [1, 1, 1, 1], "reason": "aborted"}


@pytest.mark.django_db(transaction=True)
def test_broadcast_only_after_commit(players, published):
    game = started_game(players)
    published.clear()
    with transaction.atomic():
        services.submit_action(
            game_id=game.pk, user=players[0], action={"type": "move", "to": [2, 5]}, ply=0
        )
        assert published == []  # not yet committed
    assert [e["ply"] for e in published[0].events] == [1]
    assert published[0].game["ply"] == 1


@pytest.mark.django_db(transaction=True)
def test_rolled_back_action_is_never_broadcast(players, published):
    game = started_game(players)
    published.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        services.submit_action(
            game_id=game.pk, user=players[0], action={"type": "move", "to": [2, 5]}, ply=0
        )
        raise RuntimeError("boom")
    assert published == []
    assert not Event.objects.filter(game=game).exists()


def test_a_failing_listener_does_not_break_the_write(players, published):
    from games.live import broadcast

    def broken(message):
        raise ValueError("listener down")

    broadcast.subscribe(broken)
    try:
        game = started_game(players, kind="quoridor4")
        with transaction.atomic():
            services.submit_action(
                game_id=game.pk, user=players[0], action={"type": "move", "to": [7, 4]}, ply=0
            )
        broadcast.publish(broadcast.Committed(game_id=game.pk, events=[], game={}))
    finally:
        broadcast.unsubscribe(broken)
    assert Event.objects.filter(game=game).count() == 1


def test_every_kind_can_be_created(alice, monkeypatch):
    monkeypatch.setattr(services, "OPEN_GAMES_PER_USER", 100)  # one waiting game a kind
    for kind in engine.KINDS:
        game = services.create_game(user=alice, kind=kind)
        assert game.seat_count == engine.get(kind).seats
        assert game.state == engine.get(kind).initial().to_json()
