"""Ranked play from the lobby, in chromium: two players press "Play ranked" for the same
game and time control, and both pages go to the one game matchmaking made, each once
(docs/api.md, "Matchmaking").

The first waits in the queue ("Looking for a ... opponent"); the second's request forms
the match. The first learns of it from the `matched` notice on /ws/me/, the second from
its own answer, and may hear the notice as well: the lobby leaves once, since a second
navigation aborts the first (static/js/lobby.js).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import Game, Seat
from tests.e2e.conftest import live_game, log_in, run_in_browser
from tests.e2e.conftest import live_user as user

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

GAME = re.compile(r"/games/(\d+)/$")


def test_two_players_press_play_ranked_and_both_reach_the_game(server: Any) -> None:
    user("alice"), user("bob")
    reached: dict[str, int] = {}

    def scenario(new_page: Any) -> None:
        pages: dict[str, Any] = {}
        documents: dict[str, list[str]] = {}
        for name in ("alice", "bob"):
            page = pages[name] = new_page()
            log_in(page, name)
            page.goto("/")
            page.select_option("#ranked-kind", "bloqueio2")
            page.select_option("#ranked-speed", "")
            seen = documents[name] = []
            page.on("request", lambda request, seen=seen: seen.append(request.url) if (
                request.resource_type == "document" and GAME.search(request.url)) else None)
        pages["alice"].click("#ranked-play")
        pages["alice"].wait_for_selector("#ranked-status:has-text('Bloqueio')")
        assert pages["alice"].locator("#ranked-cancel").is_visible()
        pages["bob"].click("#ranked-play")
        for name, page in pages.items():
            page.wait_for_url(GAME)
            live_game(page)
            reached[name] = int(GAME.search(page.url).group(1))
            assert page.errors == []
        for name in pages:
            assert len(documents[name]) == 1, (name, documents[name])

    run_in_browser(server, scenario)
    assert reached["alice"] == reached["bob"]
    game = Game.objects.get(pk=reached["alice"])
    assert game.ranked and game.kind == "bloqueio2" and game.status == "active"
    assert sorted(Seat.objects.filter(game=game).values_list("user__username", flat=True)) \
        == ["alice", "bob"]
