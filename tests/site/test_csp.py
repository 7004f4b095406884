"""Every answer carries the Content-Security-Policy, and no page the site draws holds
what that policy refuses: an inline script, an inline <style>, a style="" attribute or
an on...="" handler (issue 44, item 11). The browser half (no violation in Chromium on
any page, tests/e2e/test_csp_in_browser.py) checks what the scripts do."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client

from bloqueio_site import csp
from games import engine, services
from tests.games.helpers import play, started_game
from tests.moderation.conftest import moderators_group, staff

pytestmark = pytest.mark.django_db


class Inline(HTMLParser):
    """What a page holds that a policy without 'unsafe-inline' refuses."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        for name, _value in attrs:
            if name == "style" or name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
        if tag == "style":
            self.found.append("<style>")
        if tag == "script":
            self._script = named

    def handle_data(self, data: str) -> None:
        script = self._script
        if script is not None and data.strip() and not script.get("src") and (
                script.get("type") != "application/json"):  # json_script: data, not code
            self.found.append(f"<script>{data.strip()[:60]}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None


def inline_parts(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    return parser.found


def checked(client: Client, path: str, status: int = 200) -> Any:
    answer = client.get(path)
    assert answer.status_code == status, (path, answer.status_code)
    assert answer["Content-Security-Policy"] == csp.policy(), path
    if answer["Content-Type"].startswith("text/html"):
        assert inline_parts(answer.content.decode()) == [], path
    return answer


def test_the_policy_allows_nothing_inline() -> None:
    value = csp.policy()
    for directive in ("default-src 'self'", "script-src 'self'", "style-src 'self'",
                      "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"):
        assert directive in value
    assert "unsafe" not in value
    assert csp.policy("https://reports.example.org/csp").endswith(
        "; report-uri https://reports.example.org/csp")


def test_every_page_carries_the_policy_and_nothing_inline(alice, bob):
    finished = started_game([alice, bob], kind="quoridor")
    play(finished, [alice, bob], [{"type": "move", "to": [7, 4]},
                                  {"type": "move", "to": [1, 4]}])
    services.resign(game_id=finished.pk, user=bob)
    waiting = services.create_game(user=alice, kind="bloqueio")
    visitor, player = Client(), Client()
    player.force_login(alice)
    for path in ("/accounts/login/", "/accounts/register/", "/accounts/password/reset/"):
        checked(visitor, path)
    pages = ["/", "/leaderboard/", "/leaderboard/quoridor/", "/users/alice/",
             f"/games/{finished.pk}/", f"/games/{finished.pk}/replay/",
             f"/games/{waiting.pk}/", "/api/docs/",
             *(f"/rules/{kind}/" for kind in engine.KINDS)]
    for path in pages:
        checked(visitor, path)
        checked(player, path)
    for path in ("/accounts/tokens/", "/accounts/password/", "/accounts/email/",
                 "/notifications/", "/games/mine/"):
        checked(player, path)
    checked(visitor, "/nothing-here/", 404)
    checked(visitor, "/api/games/", 200)  # JSON too: the header is on every answer
    script = checked(visitor, "/api/docs/?script=")  # Swagger UI's start, as a file
    assert script["Content-Type"].startswith("application/javascript")
    palettes = checked(visitor, "/palettes.css")
    assert palettes["Content-Type"].startswith("text/css") and b"--seat-red" in palettes.content


def test_admin_pages_carry_the_policy_and_nothing_inline(alice, bob):
    game = started_game([alice, bob], kind="quoridor")
    moderator = staff("mod", group=moderators_group().name)
    admin = Client()
    checked(admin, "/admin/login/")
    admin.force_login(moderator)
    for path in ("/admin/", "/admin/games/game/", f"/admin/games/game/{game.pk}/change/",
                 "/admin/accounts/user/", "/admin/moderation/moderationlog/",
                 "/admin/moderation/report/"):
        checked(admin, path)
    reason = admin.post("/admin/accounts/user/", {"action": "ban_users",
                                                  "_selected_action": [alice.pk]})
    assert reason.status_code == 200 and inline_parts(reason.content.decode()) == []
