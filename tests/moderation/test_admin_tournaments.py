"""Tournament moderation in admin: cancel a tournament, take a player out; each asks for
a reason, goes through the services and is logged with its outcome (refusals too)."""

from __future__ import annotations

import pytest

from moderation.models import ModerationLog
from tests.conftest import make_user
from tests.moderation.conftest import browser, messages_of
from tournaments import services as tournaments
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def _entered(creator, *players):
    tournament = tournaments.create(user=creator, kind="bloqueio2", rounds=2)
    for player in players:
        tournaments.join(tournament_id=tournament.pk, user=player)
    return tournament


def test_a_moderator_cancels_a_running_tournament_with_a_reason(alice, bob, mod):
    tournament = _entered(alice, alice, bob)
    tournaments.start(tournament_id=tournament.pk, user=alice)
    client = browser(mod)
    url = "/admin/tournaments/tournament/"
    assert client.get(url).status_code == 200
    asked = client.post(url, {"action": "cancel_tournaments",
                              "_selected_action": [tournament.pk]})
    assert asked.status_code == 200 and b'name="reason"' in asked.content
    assert Tournament.objects.get(pk=tournament.pk).status == "running"  # nothing yet
    done = client.post(url, {"action": "cancel_tournaments", "_selected_action": [tournament.pk],
                             "reason": "rigged pairings"}, follow=True)
    assert "Cancelled 1 tournament." in messages_of(done)
    cancelled = Tournament.objects.get(pk=tournament.pk)
    assert (cancelled.status, cancelled.cancelled_because) == ("cancelled", "moderator")
    assert not cancelled.round_rows.filter(finished_at=None).exists()
    entry = ModerationLog.objects.get()
    assert (entry.actor, entry.action, entry.target_type, entry.reason, entry.outcome) == (
        mod, "cancel_tournament", "tournament", "rigged pairings", "done")
    again = client.post(url, {"action": "cancel_tournaments",
                              "_selected_action": [tournament.pk], "reason": "twice"},
                        follow=True)
    assert "Cancelled 0 tournaments." in messages_of(again)
    assert ModerationLog.objects.filter(reason="twice").get().outcome != "done"


def test_a_moderator_takes_a_player_out(alice, bob, carol, mod):
    tournament = _entered(alice, alice, bob, carol)
    entry = Entry.objects.get(tournament=tournament, user=bob)
    client = browser(mod)
    url = "/admin/tournaments/entry/"
    done = client.post(url, {"action": "remove_entrants", "_selected_action": [entry.pk],
                             "reason": "abusive in chat"}, follow=True)
    assert "Took 1 player out." in messages_of(done)
    assert Entry.objects.get(pk=entry.pk).withdrawn_at is not None
    log = ModerationLog.objects.get()
    assert (log.action, log.target_type, log.outcome) == ("remove_entrant", "entry", "done")
    assert log.target_repr == f"bob in tournament {tournament.pk}"


def test_a_player_without_the_permission_cannot_cancel(alice, bob):
    tournament = _entered(alice, alice, bob)
    eve = make_user("eve")
    eve.is_staff = True
    eve.save()
    response = browser(eve).post("/admin/tournaments/tournament/", {
        "action": "cancel_tournaments", "_selected_action": [tournament.pk],
        "reason": "because"})
    assert response.status_code in (302, 403)
    assert Tournament.objects.get(pk=tournament.pk).status == "upcoming"
    assert not ModerationLog.objects.filter(action="cancel_tournament", outcome="done").exists()


def test_a_moderator_sees_an_arenas_games_and_cancels_it(alice, bob, mod):
    arena = tournaments.create(user=alice, kind="blockade", system="arena", minutes=30)
    for player in (alice, bob):
        tournaments.join(tournament_id=arena.pk, user=player)
    tournaments.start(tournament_id=arena.pk, user=alice)
    [game_id] = arena.pairings.values_list("game_id", flat=True)
    client = browser(mod)
    listing = client.get("/admin/tournaments/tournament/?system__exact=arena")
    assert listing.status_code == 200 and f">{arena.pk}<".encode() in listing.content
    page = client.get(f"/admin/tournaments/tournament/{arena.pk}/change/")
    assert page.status_code == 200
    assert f"/admin/games/game/{game_id}/change/".encode() in page.content  # its game
    done = client.post("/admin/tournaments/tournament/", {
        "action": "cancel_tournaments", "_selected_action": [arena.pk],
        "reason": "test arena"}, follow=True)
    assert "Cancelled 1 tournament." in messages_of(done)
    assert Tournament.objects.get(pk=arena.pk).status == "cancelled"
