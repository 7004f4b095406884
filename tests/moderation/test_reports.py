"""Reports: filed over the API, queued in admin (open first, oldest first), resolved or
dismissed with a note that the log keeps."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.apps import apps

from games import services as game_services
from moderation.models import ModerationLog, Report
from moderation.services import REPORTS_PER_HOUR
from tests.conftest import client_for
from tests.games.helpers import started_game
from tests.moderation.conftest import browser, messages_of

pytestmark = pytest.mark.django_db

QUEUE = "/admin/moderation/report/"


def _report(user, target_type, target_id, **extra):
    body = {"target_type": target_type, "target_id": target_id, "category": "abuse",
            "reason": "rude all game", **extra}
    return client_for(user).post("/api/reports/", body, format="json")


def test_a_report_is_filed_and_listed_for_its_reporter(alice, bob):
    response = _report(alice, "user", bob.pk)
    assert response.status_code == 201
    body = response.json()
    assert {k: body[k] for k in ("target_type", "target_id", "category", "status")} == {
        "target_type": "user", "target_id": bob.pk, "category": "abuse", "status": "open"}
    mine = client_for(alice).get("/api/reports/").json()
    assert mine["count"] == 1 and mine["results"][0]["id"] == body["id"]
    assert client_for(bob).get("/api/reports/").json()["count"] == 0  # only your own


def test_one_open_report_per_target(alice, bob):
    game = started_game([alice, bob], kind="quoridor")
    assert _report(alice, "game", game.pk).status_code == 201
    again = _report(alice, "game", game.pk, category="cheating")
    assert (again.status_code, again.json()["code"]) == (409, "already_reported")
    assert _report(bob, "game", game.pk).status_code == 201  # another reporter may
    Report.objects.filter(reporter=alice).update(status="dismissed")
    assert _report(alice, "game", game.pk).status_code == 201  # closed: may report again


def test_reports_are_rate_limited_per_hour(alice, bob, monkeypatch):
    monkeypatch.setattr(game_services, "OPEN_GAMES_PER_USER", 100)  # bob's 11 waiting games
    games = [started_game([bob], kind="quoridor") for _ in range(REPORTS_PER_HOUR + 1)]
    for game in games[:REPORTS_PER_HOUR]:
        assert _report(alice, "game", game.pk).status_code == 201
    limited = _report(alice, "game", games[-1].pk)
    assert (limited.status_code, limited.json()["code"]) == (429, "rate_limited")
    assert _report(bob, "user", alice.pk).status_code == 201  # per reporter
    # An hour later the window has moved on.
    Report.objects.filter(reporter=alice).update(
        created_at=Report.objects.get(reporter=bob).created_at - timedelta(hours=1, seconds=1))
    assert _report(alice, "game", games[-1].pk).status_code == 201


def test_reporting_yourself_is_refused(alice):
    response = _report(alice, "user", alice.pk)
    assert (response.status_code, response.json()["code"]) == (400, "cannot_report_self")


@pytest.mark.parametrize(("target_type", "target_id"), [
    ("user", 999999), ("game", 999999), ("chat_message", 999999)])
def test_an_unknown_target_is_404(alice, target_type, target_id):
    response = _report(alice, target_type, target_id)
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_a_banned_user_cannot_be_reported(alice, bob):
    bob.is_active = False
    bob.save()
    assert _report(alice, "user", bob.pk).status_code == 404


@pytest.mark.parametrize("body", [
    {"target_type": "seat", "target_id": 1, "category": "abuse", "reason": "x"},
    {"target_type": "user", "target_id": 1, "category": "rude", "reason": "x"},
    {"target_type": "user", "target_id": 1, "category": "abuse", "reason": "  "},
    {"target_type": "user", "target_id": 1, "category": "abuse", "reason": "x" * 1001},
    {"target_type": "user", "target_id": "one", "category": "abuse", "reason": "x"},
    {"target_type": "user", "target_id": 0, "category": "abuse", "reason": "x"},
    {"target_type": "user", "category": "abuse", "reason": "x"},
])
def test_invalid_reports_are_400(alice, body):
    response = client_for(alice).post("/api/reports/", body, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert not Report.objects.exists()


def test_anonymous_callers_get_401(anon, bob):
    assert anon.get("/api/reports/").status_code == 401
    response = anon.post("/api/reports/", {"target_type": "user", "target_id": bob.pk,
                                           "category": "spam", "reason": "x"}, format="json")
    assert response.status_code == 401


def test_a_chat_message_can_be_reported_but_not_your_own(alice, bob):
    message_model = apps.get_model("chat", "ChatMessage")
    game = started_game([alice, bob], kind="quoridor")
    theirs = message_model.objects.create(game=game, author=bob, room="players", text="grr")
    mine = message_model.objects.create(game=game, author=alice, room="players", text="hi")
    assert _report(alice, "chat_message", theirs.pk).status_code == 201
    response = _report(alice, "chat_message", mine.pk)
    assert response.json()["code"] == "cannot_report_self"


def test_the_queue_shows_open_reports_first_oldest_first(alice, bob, carol, mod):
    game = started_game([alice, bob], kind="quoridor")
    first = _report(alice, "game", game.pk).json()["id"]
    second = _report(carol, "user", bob.pk).json()["id"]
    third = _report(bob, "user", alice.pk).json()["id"]
    Report.objects.filter(pk=first).update(status="resolved")
    client = browser(mod)
    listing = client.get(QUEUE)
    assert listing.status_code == 200
    order = [r.pk for r in listing.context["cl"].result_list]
    assert order == [second, third, first]
    page = client.get(f"{QUEUE}{first}/change/")
    assert page.status_code == 200
    assert b"<svg" in page.content  # the reported game's board
    assert f"/admin/games/game/{game.pk}/change/".encode() in page.content
    assert f"/games/{game.pk}/".encode() in page.content or b"game page" in page.content
    assert b'name="_save"' not in page.content


def test_resolve_and_dismiss_with_a_note_are_logged(alice, bob, carol, mod):
    one = _report(alice, "user", bob.pk).json()["id"]
    two = _report(carol, "user", bob.pk).json()["id"]
    client = browser(mod)
    page = client.post(QUEUE, {"action": "resolve_reports", "_selected_action": [one]})
    assert page.status_code == 200 and b'name="reason"' in page.content
    response = client.post(QUEUE, {"action": "resolve_reports", "_selected_action": [one],
                                   "reason": "bob banned for a week"}, follow=True)
    assert "Resolved 1 report." in messages_of(response)
    client.post(QUEUE, {"action": "dismiss_reports", "_selected_action": [two, one],
                        "reason": "not abuse"})
    reports = {r.pk: r for r in Report.objects.all()}
    assert (reports[one].status, reports[one].resolution, reports[one].handled_by) == (
        "resolved", "bob banned for a week", mod)
    assert (reports[two].status, reports[two].resolution) == ("dismissed", "not abuse")
    assert reports[two].handled_at is not None
    log = list(ModerationLog.objects.order_by("id").values_list(
        "action", "target_id", "reason", "outcome"))
    assert log[:2] == [("resolve_report", str(one), "bob banned for a week", "done"),
                       ("dismiss_report", str(two), "not abuse", "done")]
    assert log[2][:3] == ("dismiss_report", str(one), "not abuse")
    assert "already resolved" in log[2][3]  # a closed report: refused, and logged
    assert client_for(alice).get("/api/reports/").json()["results"][0]["status"] == "resolved"


def test_handling_reports_needs_its_permission(alice, bob, staff_with):
    report = _report(alice, "user", bob.pk).json()["id"]
    viewer = browser(staff_with("moderation.view_report", name="viewer"))
    assert viewer.get(QUEUE).status_code == 200
    assert b"resolve_reports" not in viewer.get(QUEUE).content
    viewer.post(QUEUE, {"action": "resolve_reports", "_selected_action": [report],
                        "reason": "x"})
    assert Report.objects.get(pk=report).status == "open"
    handler = browser(staff_with("moderation.view_report", "moderation.change_report",
                                 name="handler"))
    handler.post(QUEUE, {"action": "dismiss_reports", "_selected_action": [report],
                         "reason": "x"})
    assert Report.objects.get(pk=report).status == "dismissed"


def test_the_schema_documents_reports(anon):
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "/api/reports/" in schema and "reports_create" in schema


def test_the_profile_page_has_a_report_button_and_your_reports(alice, bob):
    from django.test import Client

    theirs = browser(alice).get("/users/bob/").content.decode()
    assert 'data-report-type="user"' in theirs and f'data-report-id="{bob.pk}"' in theirs
    assert "js/report.js" in theirs and 'id="my-reports"' not in theirs
    own = browser(alice).get("/users/alice/").content.decode()
    assert 'id="my-reports"' in own and "data-report-type" not in own
    anonymous = Client().get("/users/bob/").content.decode()
    assert "data-report-type" not in anonymous and "js/report.js" not in anonymous
