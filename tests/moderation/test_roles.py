"""The `moderators` group holds exactly the moderator permissions, and nothing else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from tests.moderation.conftest import browser

pytestmark = pytest.mark.django_db

INTENDED = {
    "games.view_game", "games.view_event", "games.view_seat", "accounts.view_user",
    "moderation.view_report", "moderation.change_report", "moderation.view_moderationlog",
    "moderation.abort_game", "moderation.annul_game", "moderation.remove_seat",
    "moderation.ban_user", "moderation.mute_user", "moderation.delete_message",
    "chat.view_chatmessage", "chat.view_mute",  # reading chat (chat/migrations/0002)
    # Tournaments: watch them, cancel one or take a player out (moderation/migrations/0006)
    "moderation.cancel_tournament", "tournaments.view_tournament", "tournaments.view_entry",
    "tournaments.view_round", "tournaments.view_pairing",
}


def test_the_moderators_group_has_exactly_the_intended_permissions():
    group = Group.objects.get(name="moderators")
    held = {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()}
    assert held == INTENDED


def test_a_moderator_has_them_all_and_no_site_configuration(mod):
    assert all(mod.has_perm(p) for p in INTENDED)
    for perm in ("auth.change_group", "auth.add_group", "auth.change_permission",
                 "accounts.change_user", "accounts.add_user", "accounts.delete_user",
                 "games.change_game", "games.delete_game", "authtoken.view_tokenproxy",
                 "moderation.add_moderationlog", "moderation.change_moderationlog",
                 "moderation.delete_moderationlog", "moderation.delete_report"):
        assert not mod.has_perm(perm), perm


def test_the_log_has_no_add_change_or_delete_permission_to_grant():
    from django.contrib.auth.models import Permission

    codenames = set(Permission.objects.filter(content_type__app_label="moderation",
                                              content_type__model="moderationlog")
                    .values_list("codename", flat=True))
    assert codenames == {"view_moderationlog", "abort_game", "annul_game", "remove_seat",
                         "ban_user", "mute_user", "delete_message", "cancel_tournament"}


def test_the_admin_index_shows_a_moderator_only_moderation(mod):
    index = browser(mod).get("/admin/").content.decode()
    for shown in ("/admin/games/game/", "/admin/accounts/user/", "/admin/moderation/report/",
                  "/admin/moderation/moderationlog/"):
        assert shown in index, shown
    for hidden in ("/admin/auth/group/", "/admin/authtoken/", "/admin/axes/"):
        assert hidden not in index, hidden
