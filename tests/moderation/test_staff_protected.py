"""Moderators stay off staff in every moderation action; a superuser may act (issue #25).

Each action is tried by a moderator (staff in the `moderators` group, not a superuser) on
a staff account (or its message, seat, game, report) and refused with `staff_protected`,
logged with the refusal; then by a superuser, and done.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from chat import services as chat
from chat.models import ChatMessage, Mute
from games.models import Game, Status
from moderation import services as moderation
from moderation.errors import StaffProtected
from moderation.models import ModerationLog, Report
from tests.conftest import client_for, make_user
from tests.games.helpers import started_game
from tests.games.ranked_helpers import finish_by_resignations
from tests.moderation.conftest import browser, messages_of, staff

pytestmark = pytest.mark.django_db

Act = Callable[[User], Any]


def _banned(user: User) -> User:
    User.objects.filter(pk=user.pk).update(is_active=False)
    return User.objects.get(pk=user.pk)


def _unban(helper: User, alice: User) -> tuple[Act, Callable[[], bool]]:
    target = _banned(helper)
    return (lambda actor: moderation.moderate_unban(actor=actor, user=target, reason="r"),
            lambda: User.objects.get(pk=helper.pk).is_active)


def _mute(helper: User, alice: User) -> tuple[Act, Callable[[], bool]]:
    return (lambda actor: chat.mute_user(actor=actor, user=helper, reason="r", minutes=None),
            lambda: Mute.objects.filter(user=helper).exists())


def _unmute(helper: User, alice: User) -> tuple[Act, Callable[[], bool]]:
    Mute.objects.create(user=helper, until=None, by=None, reason="r")
    return (lambda actor: chat.unmute_user(actor=actor, user=helper, reason="r"),
            lambda: not chat.muted_until(helper)[0])


def _delete(helper: User, alice: User) -> tuple[Act, Callable[[], bool]]:
    game = started_game([helper, alice], kind="quoridor")
    message = ChatMessage.objects.create(game=game, author=helper, room="players", text="hi")
    return (lambda actor: chat.delete_message(actor=actor, message_id=message.pk, reason="r"),
            lambda: ChatMessage.objects.get(pk=message.pk).deleted)


def _remove_seat(helper: User, alice: User) -> tuple[Act, Callable[[], bool]]:
    game = started_game([alice, helper], kind="quoridor")
    return (lambda actor: moderation.moderate_remove_seat(actor=actor, game_id=game.pk,
                                                          seat=1, reason="r"),
            lambda: Game.objects.get(pk=game.pk).status == Status.FINISHED)


def _abort(helper: User, alice: User) -> tuple[Act, Callable[[], bool]]:
    game = started_game([alice, helper], kind="quoridor")
    return (lambda actor: moderation.moderate_abort(actor=actor, game_id=game.pk, reason="r"),
            lambda: Game.objects.get(pk=game.pk).status == Status.ABORTED)


def _annul(helper: User, alice: User) -> tuple[Act, Callable[[], bool]]:
    players = [alice, helper]
    game = finish_by_resignations(started_game(players, kind="quoridor", ranked=True),
                                  players, [1])
    return (lambda actor: moderation.moderate_annul(actor=actor, game_id=game.pk, reason="r"),
            lambda: Game.objects.get(pk=game.pk).annulled_at is not None)


def _report(target_type: str, close: Callable[..., Report]
            ) -> Callable[[User, User], tuple[Act, Callable[[], bool]]]:
    def setup(helper: User, alice: User) -> tuple[Act, Callable[[], bool]]:
        target_id = helper.pk
        if target_type == "chat_message":
            game = started_game([helper, alice], kind="quoridor")
            target_id = ChatMessage.objects.create(game=game, author=helper, room="players",
                                                   text="hi").pk
        elif target_type == "game":
            target_id = started_game([helper, alice], kind="quoridor").pk
        report = moderation.file_report(reporter=make_user("rita"), target_type=target_type,
                                        target_id=target_id, category="abuse", reason="rude")
        return (lambda actor: close(moderator=actor, report_id=report.pk, note="r"),
                lambda: Report.objects.get(pk=report.pk).status != "open")
    return setup


ACTIONS = {
    "unban_user": _unban, "mute_user": _mute, "unmute_user": _unmute,
    "delete_message": _delete, "remove_seat": _remove_seat, "abort_game": _abort,
    "annul_game": _annul,
    "resolve_report": _report("user", moderation.resolve_report),
    "dismiss_report": _report("chat_message", moderation.dismiss_report),
    "resolve_report_of_a_game": _report("game", moderation.resolve_report),
}


@pytest.mark.parametrize("action", sorted(ACTIONS))
@pytest.mark.parametrize("target", ["staff", "superuser"])
def test_a_moderator_cannot_act_on_staff(action, target, alice, mod):
    helper = staff("helper")
    if target == "superuser":
        helper.is_superuser = True
        helper.save(update_fields=["is_superuser"])
    act, done = ACTIONS[action](helper, alice)
    with pytest.raises(StaffProtected) as refused:
        act(mod)
    assert (refused.value.code, refused.value.status) == ("staff_protected", 403)
    assert not done()
    entry = ModerationLog.objects.filter(actor=mod).latest("pk")
    assert entry.action == action.removesuffix("_of_a_game")
    assert "only a superuser" in entry.outcome


@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_a_superuser_can_act_on_staff(action, alice, root):
    helper = staff("helper")
    act, done = ACTIONS[action](helper, alice)
    act(root)
    assert done()
    assert ModerationLog.objects.filter(actor=root).latest("pk").outcome == "done"


def test_unban_selected_users_leaves_a_banned_moderator_banned(mod, root):
    """The reported path: a superuser banned a moderator; another moderator's
    "Unban selected users" is refused, a superuser's goes through."""
    other = _banned(staff("helper", group="moderators"))
    data = {"action": "unban_users", "_selected_action": [other.pk], "reason": "appeal"}
    response = browser(mod).post("/admin/accounts/user/", data, follow=True)
    assert "Unbanned 0 users." in messages_of(response)
    assert any("only a superuser" in m for m in messages_of(response))
    assert not User.objects.get(pk=other.pk).is_active
    response = browser(root).post("/admin/accounts/user/", data, follow=True)
    assert "Unbanned 1 user." in messages_of(response)
    assert User.objects.get(pk=other.pk).is_active


def test_mute_selected_users_skips_staff_and_mutes_the_rest(alice, mod, root):
    data = {"action": "mute_indefinitely", "_selected_action": [alice.pk, root.pk, mod.pk],
            "reason": "spam"}
    response = browser(mod).post("/admin/accounts/user/", data, follow=True)
    assert "Muted 1 user." in messages_of(response)
    assert list(Mute.objects.values_list("user__username", flat=True)) == ["alice"]


def test_deleting_a_staff_message_over_the_api_is_403(alice, mod):
    helper = staff("helper")
    game = started_game([helper, alice], kind="quoridor")
    message = ChatMessage.objects.create(game=game, author=helper, room="players", text="hi")
    client = client_for(None)
    client.force_authenticate(mod)
    response = client.post(f"/api/chat/{message.pk}/delete/", {"reason": "r"}, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "staff_protected"
    assert not ChatMessage.objects.get(pk=message.pk).deleted


def test_ticking_active_on_a_banned_moderator_is_a_form_error_for_a_moderator(mod, root):
    """The change form's "Active" box is an unban too: for a moderator who may edit
    users, unbanning a staff account is refused as a form error (not a 500), and a
    superuser's goes through."""
    from django.contrib.auth.models import Permission

    from tests.accounts.test_bans import _change_form

    other = _banned(staff("helper", group="moderators"))
    mod.user_permissions.add(Permission.objects.get(codename="change_user"))
    editor = User.objects.get(pk=mod.pk)  # a fresh permission cache
    url = f"/admin/accounts/user/{other.pk}/change/"
    response = browser(editor).post(url, _change_form(other, moderation_reason="appeal"))
    assert response.status_code == 200
    assert "only a superuser" in response.content.decode()
    assert not User.objects.get(pk=other.pk).is_active
    response = browser(root).post(url, _change_form(other, moderation_reason="appeal"))
    assert response.status_code == 302
    assert User.objects.get(pk=other.pk).is_active
