"""An Arena from its pages, in chromium (docs/tournaments.md#arena): the list's form
offers an Arena for the two-seat kinds only; Alice creates one of Blockade, she and Bob
join, she starts it; each page links its player's game; the game ends, the worker's
step runs, and both pages' standings move without a reload (with each player's sheet)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import services
from tests.e2e.conftest import live_user as user
from tests.e2e.conftest import log_in, run_in_browser
from tests.threads import in_thread
from tournaments import services as tournaments
from tournaments.models import Pairing, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_an_arena_from_its_pages(server: Any) -> None:
    user("alice")
    bob = user("bob")

    def scenario(new_page: Any) -> None:
        page = new_page()
        log_in(page, "alice")
        page.goto("/tournaments/")
        page.select_option("#t-kind", "bloqueio")  # four seats: no Arena
        assert page.locator("#t-system option[value=arena]").is_disabled()
        page.select_option("#t-kind", "blockade")
        page.select_option("#t-system", "arena")
        assert page.locator("#t-rounds").is_hidden()
        page.select_option("#t-minutes", "20")
        page.click("#tournament-create button[type=submit]")
        page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
        path = page.url[page.url.index("/tournaments/"):]
        page.wait_for_selector("#t-summary:has-text('20')")
        page.click("#t-join")
        page.wait_for_selector("#t-players li:has-text('alice')")

        other = new_page()
        log_in(other, "bob")
        other.goto(path)
        other.click("#t-join")
        other.wait_for_selector("#t-players li:has-text('bob')")

        page.click("#t-start")
        for each in (page, other):
            each.wait_for_selector("#t-rounds a.t-mine")
        link = other.locator("#t-rounds a.t-mine").get_attribute("href")
        assert link == page.locator("#t-rounds a.t-mine").get_attribute("href")
        game_id = int(re.search(r"/games/(\d+)/", link).group(1))
        assert other.locator("#t-withdraw").is_visible()  # entries stay open while it runs

        advanced: list[tuple[bool, int]] = []

        def end_the_game() -> None:  # Django's sync ORM, off Playwright's loop
            services.resign(game_id=game_id, user=bob)
            tid = Tournament.objects.get().pk
            advanced.append((tournaments.advance(tournament_id=tid),
                             Pairing.objects.filter(tournament_id=tid).count()))

        in_thread(end_the_game)
        # The game's end is a change (the standings move, pushed to both pages), but
        # nobody new is paired: they just played each other.
        assert advanced == [(True, 1)]
        for each in (page, other):
            # alice first with a win's 2 points
            each.wait_for_selector("#t-standings tr:first-child:has-text('alice')"
                                   ":has(td:nth-child(3):text-is('2'))")
            first = each.locator("#t-standings tr").first
            assert first.locator(f"a[href='/games/{game_id}/']").count() == 1  # her sheet
            assert each.errors == []

    run_in_browser(server, scenario)
    arena = Tournament.objects.get()
    assert (arena.system, arena.minutes, arena.status) == ("arena", 20, "running")
