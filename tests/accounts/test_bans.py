"""Banning a user: account off, token and sessions gone, seats released, admin paths."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.messages import get_messages
from django.contrib.sessions.models import Session
from django.test import Client
from rest_framework.authtoken.models import Token

from accounts import services
from accounts.models import User
from games import services as games
from games.models import Event, QueueEntry
from games.ranked import matchmaking
from tests.conftest import PASSWORD, client_for, make_user
from tests.games.helpers import started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def ban(django_capture_on_commit_callbacks: Any) -> Any:
    """Ban as the code does in production: the after-commit clean-up runs too."""

    def run(user: User, by: User | None = None) -> services.BanReport:
        with django_capture_on_commit_callbacks(execute=True):
            return services.ban_user(user, by=by)

    return run


@pytest.fixture
def root(db: Any) -> User:
    return User.objects.create_superuser("root", "root@example.org", PASSWORD)


def _sessions_of(user: User) -> list[str]:
    return [s.session_key for s in Session.objects.all()
            if s.get_decoded().get(SESSION_KEY) == str(user.pk)]


def test_a_ban_refuses_the_token_and_ends_every_session(alice, bob, ban):
    old_key = alice.auth_token.key
    browser, other_browser, bobs = Client(), Client(), Client()
    browser.force_login(alice)
    other_browser.force_login(alice)
    bobs.force_login(bob)
    assert len(_sessions_of(alice)) == 2

    report = ban(alice)

    assert (report.tokens, report.sessions) == (1, 2)
    alice.refresh_from_db()
    assert alice.is_active is False
    assert not Token.objects.filter(user=alice).exists()
    assert _sessions_of(alice) == [] and len(_sessions_of(bob)) == 1
    stale = client_for(None)
    stale.credentials(HTTP_AUTHORIZATION=f"Token {old_key}")
    response = stale.get("/api/me/")
    assert (response.status_code, response.json()["code"]) == (401, "authentication_failed")
    response = stale.post("/api/games/", {"kind": "bloqueio"}, format="json")
    assert (response.status_code, response.json()["code"]) == (401, "authentication_failed")
    # The old session cookie now belongs to nobody: the pages and the API see a stranger.
    response = browser.get("/api/me/")
    assert (response.status_code, response.json()["code"]) == (401, "not_authenticated")
    assert b"alice" not in browser.get("/").content
    assert bobs.get("/api/me/").json()["username"] == "bob"


def test_a_banned_user_cannot_log_in_anywhere(alice, ban, anon):
    ban(alice)
    page = Client()
    response = page.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 200  # the form again, with its error; no redirect
    assert response.context["form"].errors
    assert SESSION_KEY not in page.session
    response = anon.post("/api/auth/token/", {"username": "alice", "password": PASSWORD},
                         format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invalid_credentials")
    assert not Token.objects.filter(user=alice).exists()


def test_a_ban_releases_every_live_seat_and_the_queue_entry(players, ban):
    alice, bob, carol, dave = players
    alone = games.create_game(user=alice, kind="quoridor4")
    waiting = games.create_game(user=bob, kind="bloqueio")
    games.join_game(game_id=waiting.pk, user=alice)
    four = started_game(players)
    duel = started_game([bob, alice], kind="quoridor")
    resigned = started_game([alice, bob, carol], kind="quoridor4")
    games.join_game(game_id=resigned.pk, user=dave)
    games.resign(game_id=resigned.pk, user=alice)
    finished = started_game([alice, carol], kind="bloqueio2")
    games.resign(game_id=finished.pk, user=carol)
    matchmaking.join_queue(user=alice, kind="bloqueio2")
    assert QueueEntry.objects.filter(user=alice).exists()

    report = ban(alice)

    assert report.done and report.problems == [] and report.queue_entries == 1
    assert not QueueEntry.objects.filter(user=alice).exists()
    assert sorted(report.left_waiting) == sorted([alone.pk, waiting.pk])
    assert sorted(report.removed_from) == sorted([four.pk, duel.pk])
    for game in (alone, waiting, four, duel, resigned, finished):
        game.refresh_from_db()
    assert alone.status == "aborted"
    assert waiting.status == "waiting"
    assert [s.user_id for s in waiting.seats.all()] == [bob.pk]
    # Active games: a `removed` event for her seat; the others play on (or win).
    last = Event.objects.filter(game=four).order_by("ply").last()
    assert (last.seat, last.action) == (0, {"type": "removed"})
    assert four.status == "active" and four.state["in_game"] == [False, True, True, True]
    assert duel.status == "finished" and duel.result["winner"] == 0
    # Already over for her: nothing written.
    assert [e.action["type"] for e in Event.objects.filter(game=resigned)] == ["resign"]
    assert [e.action["type"] for e in Event.objects.filter(game=finished)] == ["resign"]


def test_a_ban_is_idempotent(alice, bob, ban):
    duel = started_game([alice, bob], kind="quoridor")
    ban(alice)
    again = ban(alice)
    assert (again.tokens, again.sessions, again.removed_from) == (0, 0, [])
    assert Event.objects.filter(game=duel).count() == 1


def test_superusers_and_yourself_cannot_be_banned(root, alice, bob, ban):
    with pytest.raises(services.BanRefused, match="superuser"):
        ban(root)
    staff = make_user("mod")
    staff.is_staff = True
    staff.save()
    with pytest.raises(services.BanRefused, match="your own"):
        ban(staff, by=staff)
    root.refresh_from_db()
    staff.refresh_from_db()
    assert root.is_active and staff.is_active
    ban(staff, by=root)  # staff (not superuser) can be banned by someone else
    staff.refresh_from_db()
    assert not staff.is_active


def test_the_computer_is_not_banned(root, ban):
    from games.bot_accounts import bot_account

    hard = bot_account("hard")
    with pytest.raises(services.BanRefused, match="the computer"):
        ban(hard, by=root)
    hard.refresh_from_db()
    assert hard.is_active


def test_unban_lets_the_user_back_with_new_credentials(alice, ban, anon):
    old_key = alice.auth_token.key
    ban(alice)
    services.unban_user(alice)
    alice.refresh_from_db()
    assert alice.is_active
    response = anon.post("/api/auth/token/", {"username": "alice", "password": PASSWORD},
                         format="json")
    assert response.status_code == 200
    assert response.json()["token"] != old_key
    assert client_for(alice).get("/api/me/").json()["username"] == "alice"
    assert Client().post("/accounts/login/", {"username": "alice", "password": PASSWORD}
                         ).status_code == 302


# -- Django admin -------------------------------------------------------------------------


# Transactional: the admin runs outside any test transaction, as in production, so each
# ban's after-commit clean-up runs when its own transaction commits.
@pytest.mark.django_db(transaction=True)
def test_admin_ban_action_bans_the_selection_but_never_a_superuser(root, alice, bob, carol):
    duel = started_game([alice, carol], kind="quoridor")
    admin = Client()
    admin.force_login(root)
    response = admin.post("/admin/accounts/user/", {
        "action": "ban_users", "_selected_action": [alice.pk, bob.pk, root.pk],
        "reason": "r",  # every moderator action carries a reason (moderation/)
    }, follow=True)
    assert response.status_code == 200
    texts = [str(m) for m in get_messages(response.wsgi_request)]
    assert "Banned 2 users." in texts
    assert any("root is a superuser" in t for t in texts)
    assert any(t.startswith("alice:") and "removed from 1 active game" in t for t in texts)
    active = dict(User.objects.filter(bot_level="").values_list("username", "is_active"))
    assert active == {"root": True, "alice": False, "bob": False, "carol": True}
    assert not Token.objects.filter(user__in=[alice, bob]).exists()
    duel.refresh_from_db()
    assert duel.status == "finished" and duel.result["winner"] == 1

    admin.post("/admin/accounts/user/", {"action": "unban_users", "_selected_action": [bob.pk],
                                         "reason": "r"})
    assert User.objects.get(pk=bob.pk).is_active


def test_the_admin_action_needs_a_moderator(alice, bob):
    nobody = Client()
    nobody.force_login(bob)
    response = nobody.post("/admin/accounts/user/", {"action": "ban_users",
                                                     "_selected_action": [alice.pk]})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert User.objects.get(pk=alice.pk).is_active


def _change_form(user: User, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "username": user.username, "first_name": user.first_name, "last_name": user.last_name,
        "email": user.email, "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"), "is_active": "on",
    }
    if user.is_staff:
        data["is_staff"] = "on"
    if user.is_superuser:
        data["is_superuser"] = "on"
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


@pytest.mark.django_db(transaction=True)
def test_unticking_active_in_the_change_form_is_a_ban(root, alice, bob):
    duel = started_game([alice, bob], kind="quoridor")
    admin = Client()
    admin.force_login(root)
    url = f"/admin/accounts/user/{alice.pk}/change/"
    assert admin.get(url).status_code == 200
    response = admin.post(url, _change_form(alice, is_active=None, email="a@example.org",
                                            moderation_reason="r"))
    assert response.status_code == 302, response.content[:2000]
    alice.refresh_from_db()
    assert (alice.is_active, alice.email) == (False, "a@example.org")
    assert not Token.objects.filter(user=alice).exists()
    duel.refresh_from_db()
    assert duel.status == "finished" and duel.result["winner"] == 1

    response = admin.post(url, _change_form(alice, moderation_reason="r"))
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.is_active


def test_the_change_form_refuses_to_ban_yourself_or_a_superuser(root):
    other = User.objects.create_superuser("boss", "boss@example.org", PASSWORD)
    admin = Client()
    admin.force_login(root)
    for target in (root, other):
        response = admin.post(f"/admin/accounts/user/{target.pk}/change/",
                              _change_form(target, is_active=None))
        assert response.status_code == 200  # the form again, with the error
        errors = response.context["adminform"].form.errors["is_active"]
        assert "superuser" in errors[0] or "your own" in errors[0]
        target.refresh_from_db()
        assert target.is_active
