"""Chat in the moderation console: mute and unmute users (with an expiry), delete
messages (kept, marked, logged), a game's chat read-only on its admin page, and the
permission each needs."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from chat import services as chat
from chat.models import ChatMessage, Mute
from moderation.models import ModerationLog
from tests.games.helpers import started_game
from tests.moderation.conftest import browser, messages_of

pytestmark = pytest.mark.django_db
USERS = "/admin/accounts/user/"
MESSAGES = "/admin/chat/chatmessage/"


def _act(client, url, action, objects, reason=None):
    data: dict[str, Any] = {"action": action, "_selected_action": [o.pk for o in objects]}
    if reason is not None:
        data["reason"] = reason
    return client.post(url, data, follow=reason is not None)


def test_mute_for_an_hour_asks_for_a_reason_then_mutes_and_logs(alice, bob, mod):
    game = started_game([alice, bob], kind="blockade")
    client = browser(mod)
    page = _act(client, USERS, "mute_hour", [alice])
    assert page.status_code == 200 and b'name="reason"' in page.content
    assert not Mute.objects.exists()
    response = _act(client, USERS, "mute_hour", [alice], reason="insults")
    assert "alice is muted in chat for 1 hour." in messages_of(response)
    mute = Mute.objects.get(user=alice)
    assert timedelta(minutes=59) < mute.until - timezone.now() <= timedelta(minutes=60)
    entry = ModerationLog.objects.get(action="mute_user")
    assert (entry.target_repr, entry.reason, entry.actor_id) == ("alice", "insults", mod.pk)
    with pytest.raises(Exception) as refused:
        chat.post_message(game_id=game.pk, user=alice, text="hello")
    assert refused.value.code == "muted"

    response = _act(client, USERS, "unmute_users", [alice], reason="apologised")
    assert "Unmuted 1 user." in messages_of(response)
    assert chat.post_message(game_id=game.pk, user=alice, text="sorry").text == "sorry"
    assert ModerationLog.objects.filter(action="unmute_user", reason="apologised").exists()


def test_a_mute_until_unmuted_has_no_expiry(alice, mod):
    _act(browser(mod), USERS, "mute_indefinitely", [alice], reason="spam")
    assert Mute.objects.get(user=alice).until is None


def test_deleting_a_message_keeps_it_marked_and_logs(alice, bob, mod):
    game = started_game([alice, bob], kind="blockade")
    message = chat.post_message(game_id=game.pk, user=alice, text="rude words")
    client = browser(mod)
    response = _act(client, MESSAGES, "delete_messages", [message], reason="abuse")
    assert "Deleted 1 message." in messages_of(response)
    message.refresh_from_db()
    assert message.deleted and message.deleted_by_id == mod.pk
    assert message.text == "rude words"  # kept for moderators
    assert ModerationLog.objects.filter(action="delete_message", reason="abuse").exists()
    listing = client.get(MESSAGES).content.decode()
    assert "rude words" in listing  # moderators still read it, marked deleted


def test_a_games_admin_page_shows_its_chat_read_only(alice, bob, mod):
    game = started_game([alice, bob], kind="blockade")
    chat.post_message(game_id=game.pk, user=alice, text="good luck")
    page = browser(mod).get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "good luck" in page
    assert ChatMessage.objects.count() == 1


@pytest.mark.parametrize(("url", "action", "target"), [
    (USERS, "mute_hour", "user"), (USERS, "unmute_users", "user"),
    (MESSAGES, "delete_messages", "message"),
])
def test_chat_actions_need_their_permission(alice, bob, staff_with, url, action, target):
    game = started_game([alice, bob], kind="blockade")
    message = chat.post_message(game_id=game.pk, user=alice, text="hi")
    viewer = staff_with("accounts.view_user", "chat.view_chatmessage")
    objects = [alice] if target == "user" else [message]
    _act(browser(viewer), url, action, objects, reason="r")
    assert not Mute.objects.exists() and not ChatMessage.objects.filter(deleted=True).exists()
    assert not ModerationLog.objects.exists()


def test_moderators_may_read_chat_and_mutes(mod):
    assert mod.has_perm("chat.view_chatmessage") and mod.has_perm("chat.view_mute")
    assert not mod.has_perm("chat.change_chatmessage") and not mod.has_perm("chat.delete_mute")
