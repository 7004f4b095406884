"""Matchmaking pairs close ratings, widens with waiting, expires the absent, and never
books one player into two games, however the joins race."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, LiveRankedSeat, QueueEntry, Rating, Seat, Status
from games.ranked import matchmaking, rating_model
from tests.conftest import client_for, make_user
from tests.games.helpers import race


def _rate(user, kind, mu):
    Rating.objects.create(user=user, kind=kind, mu=mu, sigma=2.0, games=20,
                          rating=rating_model.display(mu, 2.0), provisional=False)


@pytest.mark.django_db
def test_two_close_players_are_matched_and_notified(
        alice, bob, published, django_capture_on_commit_callbacks):
    t0 = timezone.now()
    assert matchmaking.join_queue(user=alice, kind="bloqueio2", now=t0)["state"] == "queued"
    with django_capture_on_commit_callbacks(execute=True):
        state = matchmaking.join_queue(user=bob, kind="bloqueio2",
                                       now=t0 + timedelta(seconds=1))
    assert state["state"] == "playing"
    game = Game.objects.get(pk=state["game_id"])
    assert (game.ranked, game.status, game.kind) == (True, Status.ACTIVE, "bloqueio2")
    assert [s.user for s in game.seats.order_by("seat")] == [alice, bob]
    assert game.deadline is not None
    assert not QueueEntry.objects.exists()
    matched = [m for m in published if m.change == "matched"]
    assert len(matched) == 1 and set(matched[0].seat_users) == {alice.pk, bob.pk}
    assert matchmaking.status(user=alice)["game_id"] == game.pk


@pytest.mark.django_db
def test_far_ratings_wait_until_the_spread_has_widened(alice, bob, carol):
    _rate(alice, "quoridor", 25)
    _rate(bob, "quoridor", 35)  # 400 points above alice
    t0 = timezone.now()
    matchmaking.join_queue(user=alice, kind="quoridor", now=t0)
    assert matchmaking.join_queue(user=bob, kind="quoridor", now=t0)["state"] == "queued"
    assert matchmaking.poll(user=alice, now=t0 + timedelta(seconds=20))["state"] == "queued"
    # carol (new, 1500 on the matching scale) is closest to alice: they pair first.
    state = matchmaking.join_queue(user=carol, kind="quoridor", now=t0 + timedelta(seconds=25))
    assert state["state"] == "playing"
    assert matchmaking.status(user=alice)["state"] == "playing"
    assert matchmaking.status(user=bob)["state"] == "queued"


@pytest.mark.django_db
def test_the_spread_widens_with_waiting_time(alice, bob):
    _rate(alice, "quoridor", 25)
    _rate(bob, "quoridor", 35)
    t0 = timezone.now()
    matchmaking.join_queue(user=alice, kind="quoridor", now=t0)
    matchmaking.join_queue(user=bob, kind="quoridor", now=t0)
    assert matchmaking.poll(user=bob, now=t0 + timedelta(seconds=25))["state"] == "queued"
    matchmaking.poll(user=alice, now=t0 + timedelta(seconds=25))
    assert matchmaking.poll(user=bob, now=t0 + timedelta(seconds=31))["state"] == "playing"


@pytest.mark.django_db
def test_entries_of_players_who_stop_polling_expire(alice, bob):
    t0 = timezone.now()
    matchmaking.join_queue(user=alice, kind="bloqueio2", now=t0)
    later = t0 + matchmaking.QUEUE_TTL + timedelta(seconds=1)
    matchmaking.tick(later)
    assert matchmaking.status(user=alice, now=later) == {"state": "idle"}
    assert matchmaking.join_queue(user=bob, kind="bloqueio2", now=later)["state"] == "queued"


@pytest.mark.django_db
def test_one_queue_at_a_time_and_none_while_playing_ranked(alice, bob):
    matchmaking.join_queue(user=alice, kind="bloqueio2")
    matchmaking.join_queue(user=alice, kind="quoridor")
    assert list(QueueEntry.objects.values_list("kind", flat=True)) == ["quoridor"]
    matchmaking.join_queue(user=bob, kind="quoridor")
    client = client_for(alice)
    response = client.post("/api/matchmaking/", {"kind": "bloqueio2"}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "in_ranked_game")
    response = client.post("/api/games/", {"kind": "quoridor", "ranked": True}, format="json")
    assert (response.status_code, response.json()["code"]) == (409, "in_ranked_game")


@pytest.mark.django_db
def test_the_queue_over_rest(alice, bob):
    client = client_for(alice)
    response = client.post("/api/matchmaking/", {"kind": "quoridor4"}, format="json")
    assert response.status_code == 201 and response.json()["state"] == "queued"
    assert client.get("/api/matchmaking/").json()["kind"] == "quoridor4"
    assert client.delete("/api/matchmaking/").status_code == 204
    assert client.get("/api/matchmaking/").json() == {"state": "idle"}
    assert client_for(None).get("/api/matchmaking/").status_code == 401
    bad = client.post("/api/matchmaking/", {"kind": "chess"}, format="json")
    assert bad.status_code == 400


# -- races -------------------------------------------------------------------------------


def _run_all(jobs) -> list:
    """The exceptions the jobs, raced together, raised."""
    return [result for result in race(jobs) if isinstance(result, Exception)]


def _live_ranked_seats() -> Counter:
    return Counter(Seat.objects.filter(game__ranked=True, game__status=Status.ACTIVE)
                   .values_list("user_id", flat=True))


@pytest.mark.django_db(transaction=True)
def test_racing_joins_never_double_book_a_player():
    users = [make_user(f"racer{i}") for i in range(8)]
    for round_ in range(3):
        jobs = [lambda u=u: matchmaking.join_queue(user=u, kind="bloqueio2") for u in users]
        jobs += [lambda: matchmaking.match(kind="bloqueio2")] * 4
        assert _run_all(jobs) == []
        matchmaking.match(kind="bloqueio2")
        booked = _live_ranked_seats()
        assert all(n == 1 for n in booked.values())
        assert set(booked) == {u.pk for u in users}, f"round {round_}"
        assert LiveRankedSeat.objects.count() == 8
        for game in Game.objects.filter(status=Status.ACTIVE):
            game.status = Status.ABORTED  # free everyone for the next round
            game.save(update_fields=["status"])
        LiveRankedSeat.objects.all().delete()


@pytest.mark.django_db(transaction=True)
def test_racing_matchers_place_each_entry_once():
    users = [make_user(f"waiter{i}") for i in range(12)]
    now = timezone.now()
    QueueEntry.objects.bulk_create([
        QueueEntry(user=u, kind="quoridor4", skill=1500, joined_at=now,
                   expires_at=now + timedelta(minutes=1)) for u in users])
    assert _run_all([lambda: matchmaking.match(kind="quoridor4")] * 6) == []
    matchmaking.match(kind="quoridor4")
    booked = _live_ranked_seats()
    assert sorted(booked.values()) == [1] * 12
    assert Game.objects.filter(ranked=True).count() == 3


@pytest.mark.django_db
def test_a_match_notifies_each_player_on_their_personal_socket(
        alice, bob, published, django_capture_on_commit_callbacks):
    from games.live.fanout import user_topic
    from games.live.realtime import _fanout_messages

    matchmaking.join_queue(user=alice, kind="bloqueio2")
    with django_capture_on_commit_callbacks(execute=True):
        matchmaking.join_queue(user=bob, kind="bloqueio2")
    change = next(m for m in published if m.change == "matched")
    notes = {topic: msg for topic, msg in _fanout_messages(change) if msg["type"] == "notify"}
    assert set(notes) == {user_topic(alice.pk), user_topic(bob.pk)}
    assert all(n["event"] == "matched" and n["game_id"] == change.game_id
               for n in notes.values())
