"""The notifications page wears the site's buttons and form look (issue 45, item 9), not
the browser's grey buttons and fieldset frame: on a laptop and on a phone, light and
dark."""

from __future__ import annotations

from typing import Any

import pytest

from games import invitations, outbox, services
from tests.e2e.conftest import live_user, log_in, run_in_browser, shot

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
STYLE = """(sel) => { const s = getComputedStyle(document.querySelector(sel));
  return {radius: s.borderTopLeftRadius, height: parseFloat(s.height), bg: s.backgroundColor,
          border: s.borderTopStyle}; }"""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_notifications_page_looks_like_the_site(server: Any, size: str, scheme: str) -> None:
    live_user("alice", email="alice@example.org")
    bob = live_user("bob")
    game = services.create_game(user=bob, kind="bloqueio2")
    invitations.invite_user(game_id=game.pk, user=bob, username="alice")
    assert outbox.run_pending() == 1  # the worker's job: alice's one unread notice

    def scenario(new_page: Any) -> None:
        page = new_page(viewport=SIZES[size], color_scheme=scheme)
        log_in(page, "alice")
        page.goto("/notifications/")
        accent = page.evaluate(
            "() => { const b = document.createElement('button'); b.className = 'btn';"
            " document.body.append(b); const c = getComputedStyle(b).backgroundColor;"
            " b.remove(); return c; }")
        save = page.evaluate(STYLE, "#email-choices button[type=submit]")
        assert save["radius"] == "10px" and save["height"] >= 44 and save["bg"] == accent
        read_all = page.evaluate(STYLE, "#read-all")
        assert read_all["radius"] == "10px" and read_all["height"] >= 36
        assert page.evaluate(STYLE, "#email-choices fieldset")["border"] == "none"
        checks = page.locator("#email-choices label.check")
        assert checks.count() >= 1
        box = checks.first.bounding_box()
        assert box["height"] >= 32  # a target a thumb can hit
        assert page.evaluate("() => document.documentElement.scrollWidth") <= SIZES[size]["width"]
        shot(page, f"notifications-{size}-{scheme}", full_page=True)
        assert page.errors == []

    run_in_browser(server, scenario)
