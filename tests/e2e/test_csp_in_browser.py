"""No page of the site breaks its Content-Security-Policy in Chromium (issue 44, item 11):
every page type (lobby, the game page of each board family, replay, profile,
leaderboard, rules, account pages, notifications, Django admin with a moderator's board,
Swagger UI, an error page) loads, runs its scripts and draws, and no
`securitypolicyviolation` event or console "Refused to ..." is seen (`run_in_browser`
fails the test on any: tests/e2e/conftest.py). Every page's answer carries the header."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games import engine, services
from tests.conftest import PASSWORD
from tests.e2e.conftest import HELLO, log_in, run_in_browser
from tests.e2e.conftest import live_user as user

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def visit(page: Any, path: str, ready: str | None = None, status: int = 200) -> None:
    answer = page.goto(path)
    assert answer is not None and answer.status == status, (path, answer and answer.status)
    assert "script-src 'self'" in answer.headers.get("content-security-policy", ""), path
    if ready:
        page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")


def test_no_page_breaks_the_content_security_policy(server: Any) -> None:
    alice, bob = user("alice"), user("bob")
    root = user("root")
    User.objects.filter(pk=root.pk).update(is_staff=True, is_superuser=True)
    games = {}
    for kind in ("bloqueio2", "blockade", "blokus_duo"):
        game = services.create_game(user=alice, kind=kind)
        services.join_game(game_id=game.pk, user=bob)
        games[kind] = game.pk
    finished = services.create_game(user=alice, kind="quoridor")
    services.join_game(game_id=finished.pk, user=bob)
    for ply, (who, to) in enumerate(((alice, [7, 4]), (bob, [1, 4]))):
        services.submit_action(game_id=finished.pk, user=who,
                               action={"type": "move", "to": to}, ply=ply)
    services.resign(game_id=finished.pk, user=bob)
    waiting = services.create_game(user=alice, kind="bloqueio").pk

    def scenario(new_page: Any) -> None:
        visitor = new_page()
        visit(visitor, "/", "#main")
        for path in ("/accounts/login/", "/accounts/register/", "/accounts/password/reset/",
                     "/leaderboard/", "/users/alice/", f"/games/{finished.pk}/replay/",
                     *(f"/rules/{kind}/" for kind in engine.KINDS)):
            visit(visitor, path, "#main")
        visit(visitor, "/nothing-here/", "#main", status=404)
        visit(visitor, "/api/docs/", ".swagger-ui .info")  # Swagger UI, drawn by its script

        player = new_page()
        log_in(player, "alice")
        for game_id in games.values():  # one board of each family, live
            visit(player, f"/games/{game_id}/", "#board svg")
            player.wait_for_function(HELLO)
        visit(player, f"/games/{waiting}/", "#share-link")
        player.focus("#share-link")  # selects the link (a listener, no inline handler)
        for path in ("/", "/games/mine/", "/notifications/", "/accounts/tokens/",
                     "/accounts/password/", "/accounts/email/", "/users/alice/",
                     f"/games/{finished.pk}/replay/"):
            visit(player, path, "#main")
        player.click("#display-menu summary")  # the theme and palette switch (theme.js)
        player.check("#theme-dark")
        player.check("#palette-colour-blind")
        visit(player, f"/games/{games['blokus_duo']}/", "#board svg")

        admin = new_page()
        visit(admin, "/admin/login/", "#login-form")
        admin.fill("#id_username", "root")
        admin.fill("#id_password", PASSWORD)
        admin.click("#login-form input[type=submit]")
        admin.wait_for_url(lambda url: "/admin/login/" not in url)
        for path in ("/admin/", "/admin/games/game/", "/admin/accounts/user/",
                     f"/admin/accounts/user/{alice.pk}/change/",
                     "/admin/moderation/moderationlog/"):
            visit(admin, path, "#content")
        visit(admin, f"/admin/games/game/{games['blockade']}/change/", ".moderation-board svg")

    run_in_browser(server, scenario)
