"""The tournaments API's refusals and the life around the rounds: who may create, join,
withdraw and start, and when; the worker's start at `starts_at`, and a tournament that
cannot seat a table at its start time is cancelled (docs/api.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import bot_accounts
from tests.conftest import client_for
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _made(client: Any, **body: Any) -> dict[str, Any]:
    made = client.post("/api/tournaments/", {"kind": "bloqueio2", "rounds": 2, **body},
                       format="json")
    assert made.status_code == 201, made.json()
    return made.json()


@pytest.mark.parametrize(("body", "field"), [
    ({"kind": "chess", "rounds": 3}, "kind"),
    ({"kind": "bloqueio"}, "rounds"),
    ({"kind": "bloqueio", "rounds": 0}, "rounds"),
    ({"kind": "bloqueio", "rounds": 16}, "rounds"),
    ({"kind": "bloqueio", "rounds": "3"}, "rounds"),
    ({"kind": "bloqueio", "rounds": 3, "time_control": {"days": 4}}, "time_control"),
    ({"kind": "bloqueio", "rounds": 3, "system": "knockout"}, "system"),
    ({"kind": "bloqueio", "rounds": 3, "ranked": "yes"}, "ranked"),
])
def test_a_malformed_tournament_is_refused_with_the_field_at_fault(alice, body, field):
    refused = client_for(alice).post("/api/tournaments/", body, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid" and field in refused.json()["errors"]
    assert not Tournament.objects.exists()


def test_a_start_time_must_be_ahead_and_within_thirty_days(alice):
    client = client_for(alice)
    for when in (timezone.now() - timedelta(minutes=1), timezone.now() + timedelta(days=31)):
        refused = client.post("/api/tournaments/", {"kind": "bloqueio", "rounds": 3,
                                                    "starts_at": when.isoformat()},
                              format="json")
        assert (refused.status_code, refused.json()["code"]) == (400, "invalid")


def test_reading_is_public_and_writing_needs_an_account(alice, anon):
    made = _made(client_for(alice))
    assert anon.get(f"/api/tournaments/{made['id']}/").status_code == 200
    listed = anon.get("/api/tournaments/").json()
    assert [t["id"] for t in listed["upcoming"]] == [made["id"]]
    assert listed["running"] == listed["finished"] == []
    for path in ("", f"{made['id']}/join/", f"{made['id']}/start/"):
        assert anon.post(f"/api/tournaments/{path}", {}, format="json").status_code in (401, 403)
    missing = anon.get("/api/tournaments/999999/")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


def test_one_player_has_at_most_three_upcoming_tournaments(alice):
    client = client_for(alice)
    for _ in range(services.UPCOMING_PER_USER):
        _made(client)
    refused = client.post("/api/tournaments/", {"kind": "bloqueio2", "rounds": 2},
                          format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "too_many_tournaments")


def test_join_is_idempotent_withdraw_and_join_again(alice, bob):
    made = _made(client_for(alice))
    url = f"/api/tournaments/{made['id']}/"
    bob_client = client_for(bob)
    entered = {"username": "bob", "withdrawn": False, "withdrawn_because": None,
               "absences": 0}
    for _ in range(2):
        joined = bob_client.post(url + "join/", {}, format="json")
        assert joined.json()["players"] == [entered]
    left = bob_client.post(url + "withdraw/", {}, format="json")
    assert left.json()["players"] == [{**entered, "withdrawn": True,
                                       "withdrawn_because": "withdrew"}]
    again = bob_client.post(url + "withdraw/", {}, format="json")
    assert (again.status_code, again.json()["code"]) == (400, "not_entered")
    back = bob_client.post(url + "join/", {}, format="json")
    assert back.json()["players"] == [entered]


def test_a_player_a_moderator_took_out_does_not_join_again(alice, bob):
    made = _made(client_for(alice))
    url = f"/api/tournaments/{made['id']}/"
    bob_client = client_for(bob)
    bob_client.post(url + "join/", {}, format="json")
    services.remove_player(tournament_id=made["id"], user_id=bob.pk)
    shown = bob_client.get(url).json()["players"]
    assert [(p["withdrawn"], p["withdrawn_because"]) for p in shown] == [(True, "removed")]
    refused = bob_client.post(url + "join/", {}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "removed_by_moderator")
    assert bob_client.get(url).json()["players"][0]["withdrawn"] is True


def test_bots_do_not_enter_tournaments(alice):
    made = _made(client_for(alice))
    bot = APIClient()
    bot.force_authenticate(bot_accounts.bot_account("easy"))
    refused = bot.post(f"/api/tournaments/{made['id']}/join/", {}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "bot_account")


def test_a_start_needs_a_table_of_players(alice, bob):
    client = client_for(alice)
    made = _made(client)
    url = f"/api/tournaments/{made['id']}/"
    client.post(url + "join/", {}, format="json")
    refused = client.post(url + "start/", {}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "too_few_players")
    client_for(bob).post(url + "join/", {}, format="json")
    started = client.post(url + "start/", {}, format="json").json()
    assert started["status"] == "running"
    assert sorted(started["rounds"][0]["tables"][0]["seats"]) == ["alice", "bob"]
    twice = client.post(url + "start/", {}, format="json")
    assert (twice.status_code, twice.json()["code"]) == (409, "tournament_closed")


def test_the_worker_starts_it_at_its_time_or_cancels_it_without_players(alice, bob):
    soon = timezone.now() + timedelta(minutes=5)
    full = _made(client_for(alice), starts_at=soon.isoformat())
    empty = _made(client_for(alice), starts_at=soon.isoformat())
    for user in (alice, bob):
        client_for(user).post(f"/api/tournaments/{full['id']}/join/", {}, format="json")
    assert services.advance_due(now=soon - timedelta(seconds=1)) == 0
    assert services.advance_due(now=soon) == 2
    started, cancelled = (Tournament.objects.get(pk=t["id"]) for t in (full, empty))
    assert started.status == "running" and started.round_rows.count() == 1
    assert (cancelled.status, cancelled.cancelled_because) == ("cancelled", "too_few_players")


def test_entries_change_in_the_pause_between_rounds(alice, bob, carol, settings):
    settings.TOURNAMENT_ROUND_PAUSE_SECONDS = 60
    client = client_for(alice)
    made = _made(client)
    url = f"/api/tournaments/{made['id']}/"
    for user in (alice, bob):
        client_for(user).post(url + "join/", {}, format="json")
    body = client.post(url + "start/", {}, format="json").json()
    late = client_for(carol).post(url + "join/", {}, format="json")
    assert (late.status_code, late.json()["code"]) == (409, "round_playing")
    assert not services.advance(tournament_id=made["id"])  # its game plays on
    game_id = body["rounds"][0]["tables"][0]["game_id"]
    client_for(bob).post(f"/api/games/{game_id}/resign/", {}, format="json")
    over = timezone.now()
    assert services.advance(tournament_id=made["id"], now=over)  # round one closed
    # The pause: carol joins, bob withdraws; nothing is seated yet.
    assert client_for(carol).post(url + "join/", {}, format="json").status_code == 200
    assert client_for(bob).post(url + "withdraw/", {}, format="json").status_code == 200
    assert not services.advance(tournament_id=made["id"], now=over + timedelta(seconds=59))
    assert services.advance(tournament_id=made["id"], now=over + timedelta(seconds=60))
    body = client.get(url).json()
    assert [r["finished"] for r in body["rounds"]] == [True, False]
    assert sorted(body["rounds"][1]["tables"][0]["seats"]) == ["alice", "carol"]
    standings = {line["username"]: line["points"] for line in body["standings"]}
    assert standings == {"alice": 1.0, "bob": 0.0, "carol": 0.0}
    assert [p["username"] for p in body["players"] if p["withdrawn"]] == ["bob"]
