"""Bans in admin: asked for a reason, through moderation.services, logged either way."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from accounts.models import User
from moderation.models import ModerationLog
from tests.games.helpers import started_game
from tests.moderation.conftest import browser, messages_of, staff

USERS = "/admin/accounts/user/"


def _act(client, action, users, reason=None):
    data: dict[str, Any] = {"action": action, "_selected_action": [u.pk for u in users]}
    if reason is not None:
        data["reason"] = reason
    return client.post(USERS, data, follow=reason is not None)


# Transactional: the after-commit clean-up of a ban runs when the admin's write commits.
@pytest.mark.django_db(transaction=True)
def test_ban_asks_for_a_reason_then_bans_and_logs(alice, bob, carol, mod):
    duel = started_game([alice, carol], kind="quoridor")
    client = browser(mod)
    page = _act(client, "ban_users", [alice, bob])
    assert page.status_code == 200 and b'name="reason"' in page.content
    assert User.objects.get(pk=alice.pk).is_active

    response = _act(client, "ban_users", [alice, bob], reason="cheating with a bot")
    texts = messages_of(response)
    assert "Banned 2 users." in texts
    assert any(t.startswith("alice:") and "removed from 1 active game" in t for t in texts)
    assert not User.objects.filter(pk__in=[alice.pk, bob.pk], is_active=True).exists()
    assert not Token.objects.filter(user__in=[alice, bob]).exists()
    duel.refresh_from_db()
    assert duel.status == "finished"
    logged = ModerationLog.objects.filter(action="ban_user").order_by("target_repr")
    assert [(e.target_repr, e.reason, e.outcome, e.actor_id) for e in logged] == [
        ("alice", "cheating with a bot", "done", mod.pk),
        ("bob", "cheating with a bot", "done", mod.pk)]

    response = _act(client, "unban_users", [bob], reason="appeal accepted")
    assert "Unbanned 1 user." in messages_of(response)
    assert User.objects.get(pk=bob.pk).is_active
    entry = ModerationLog.objects.get(action="unban_user")
    assert (entry.target_repr, entry.reason, entry.outcome) == ("bob", "appeal accepted", "done")


@pytest.mark.django_db
def test_refused_bans_are_logged_with_the_refusal(root, alice, mod):
    other_staff = staff("helper")
    response = _act(browser(mod), "ban_users", [root, mod, other_staff], reason="oops")
    texts = messages_of(response)
    assert "Banned 0 users." in texts
    people = User.objects.filter(is_active=True, bot_level="")
    assert people.count() == 4  # root, alice, mod, helper
    outcomes = dict(ModerationLog.objects.values_list("target_repr", "outcome"))
    assert "superuser" in outcomes["root"]
    assert "your own" in outcomes["mod"]
    assert "only a superuser" in outcomes["helper"]
    # A superuser may ban a staff account.
    _act(browser(root), "ban_users", [other_staff], reason="left the team")
    assert not User.objects.get(pk=other_staff.pk).is_active


@pytest.mark.django_db
def test_ban_needs_its_permission(alice, staff_with):
    without = browser(staff_with("accounts.view_user", name="viewer"))
    assert b"ban_users" not in without.get(USERS).content
    _act(without, "ban_users", [alice], reason="x")
    assert User.objects.get(pk=alice.pk).is_active
    assert not ModerationLog.objects.exists()
    allowed = browser(staff_with("accounts.view_user", "moderation.ban_user", name="allowed"))
    assert b"ban_users" in allowed.get(USERS).content
    _act(allowed, "ban_users", [alice], reason="x")
    assert not User.objects.get(pk=alice.pk).is_active
    # Unban: the same permission.
    _act(without, "unban_users", [alice], reason="x")
    assert not User.objects.get(pk=alice.pk).is_active
    _act(allowed, "unban_users", [alice], reason="x")
    assert User.objects.get(pk=alice.pk).is_active


@pytest.mark.django_db
def test_moderators_cannot_change_users_or_staff(alice, mod):
    other_staff = staff("helper")
    client = browser(mod)
    for user in (alice, other_staff):
        url = f"{USERS}{user.pk}/change/"
        page = client.get(url)
        assert page.status_code == 200 and b'name="_save"' not in page.content
        client.post(url, {"username": "renamed", "is_superuser": "on", "is_staff": "on"})
        user.refresh_from_db()
        assert (user.username, user.is_superuser) != ("renamed", True)
    assert client.get(f"{USERS}add/").status_code == 403
    assert client.get(f"{USERS}{alice.pk}/password/").status_code == 403
    for url in ("/admin/auth/group/", "/admin/auth/group/add/", "/admin/sites/site/",
                "/admin/authtoken/tokenproxy/"):
        assert client.get(url).status_code in (403, 404), url


def _change_form(user: User, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "username": user.username, "first_name": "", "last_name": "", "email": user.email,
        "date_joined_0": user.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": user.date_joined.strftime("%H:%M:%S"), "is_active": "on",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


@pytest.mark.django_db(transaction=True)
def test_the_change_form_ban_needs_a_reason_and_is_logged(root, alice):
    client = browser(root)
    url = f"{USERS}{alice.pk}/change/"
    response = client.post(url, _change_form(alice, is_active=None))
    assert response.status_code == 200
    assert "moderation_reason" in response.context["adminform"].form.errors
    assert User.objects.get(pk=alice.pk).is_active
    response = client.post(url, _change_form(alice, is_active=None,
                                             moderation_reason="spam bot"))
    assert response.status_code == 302
    assert not User.objects.get(pk=alice.pk).is_active
    response = client.post(url, _change_form(alice, moderation_reason="appeal"))
    assert response.status_code == 302
    assert User.objects.get(pk=alice.pk).is_active
    assert list(ModerationLog.objects.order_by("id").values_list("action", "reason")) == [
        ("ban_user", "spam bot"), ("unban_user", "appeal")]
