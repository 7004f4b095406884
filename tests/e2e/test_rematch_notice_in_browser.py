"""A rematch offer reaches a player who left the game's page (issue 45, item 7): bob is
on the lobby of his phone when alice offers a rematch; his badge lights up live, the
notifications page says it, and its link takes him to the game where he accepts. The
notice is the offer's outbox row, carried out by the real worker (games/outbox.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connections

from games import rematch, services
from games.models import Game
from tests.e2e.conftest import live_user, log_in, run_in_browser, shot
from tests.threads import in_thread

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# The page's /ws/me/ socket is open: a notification pushed from now on reaches the badge.
ME_OPEN = ("() => window.bloqueioMe && window.bloqueioMe.socket && "
           "window.bloqueioMe.socket.ws && window.bloqueioMe.socket.ws.readyState === 1")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_a_rematch_offer_lights_the_badge_of_a_player_elsewhere(server: Any,
                                                                 worker: Any) -> None:
    alice, bob = live_user("alice"), live_user("bob")
    game = services.create_game(user=alice, kind="bloqueio2")
    services.join_game(game_id=game.pk, user=bob)
    services.resign(game_id=game.pk, user=bob)

    def _offer() -> None:
        try:
            rematch.offer(game_id=game.pk, user=alice)
        finally:
            connections.close_all()

    def scenario(new_page: Any) -> None:
        page = new_page(**PHONE)
        log_in(page, "bob")
        page.goto("/")
        assert page.locator("#notif-badge").is_hidden()
        page.wait_for_function(ME_OPEN)
        in_thread(_offer)  # Django's sync ORM, off Playwright's loop
        page.wait_for_selector("#notif-badge:not([hidden])")
        assert page.inner_text("#notif-badge") == "1"
        page.click("#notif-link")
        item = page.locator("#notification-list li.unread")
        assert item.inner_text().startswith(
            f"alice offers a rematch of game #{game.pk} (Bloqueio (2 players)).")
        shot(page, "rematch-notice-phone")
        item.locator("button").click()
        page.wait_for_url(f"**/games/{game.pk}/")
        page.click("#rematch-yes")  # the last "yes": the new game starts, the page goes there
        page.wait_for_url(re.compile(rf"/games/(?!{game.pk}/)\d+/$"))
        assert page.errors == []

    run_in_browser(server, scenario)
    assert Game.objects.filter(private=True, status="active").count() == 1
