"""A tournament from its pages, in chromium (docs/tournaments.md): Alice creates a
Swiss of Bloqueio 2 from the list's form and joins it from its page; Bob joins from the
same page; Alice starts it. Each page shows its player's table with a link to the game;
the game ends, the worker moves the tournament on, and both pages' standings move
without a reload, over the tournament's socket: neither page ever reads the tournament
from the API (its socket's hello and frames carry it; docs/realtime.md)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import services
from tests.e2e.conftest import live_user as user
from tests.e2e.conftest import log_in, run_in_browser
from tests.threads import in_thread
from tournaments import services as tournaments
from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DETAIL = re.compile(r"/api/tournaments/\d+/$")


def reads_of_the_detail(page: Any) -> list[str]:
    """The page's GETs of a tournament's detail from now on (the socket stands for
    them: any is a poll)."""
    reads: list[str] = []
    page.on("request", lambda request: reads.append(request.url)
            if request.method == "GET" and DETAIL.search(request.url) else None)
    return reads


def test_join_start_play_and_watch_the_standings_move(server: Any) -> None:
    alice, bob = user("alice"), user("bob")

    def scenario(new_page: Any) -> None:
        page = new_page()
        page_reads = reads_of_the_detail(page)
        log_in(page, "alice")
        page.goto("/tournaments/")
        page.select_option("#t-kind", "bloqueio2")
        page.select_option("#t-rounds", "1")
        page.click("#tournament-create button[type=submit]")
        page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
        path = page.url[page.url.index("/tournaments/"):]
        page.click("#t-join")
        page.wait_for_selector("#t-players li:has-text('alice')")
        assert page.locator("#t-join").is_hidden()
        assert page.locator("#t-withdraw").is_visible()

        other = new_page()
        other_reads = reads_of_the_detail(other)
        log_in(other, "bob")
        other.goto(path)
        assert other.locator("#t-start").is_hidden()  # only its creator starts it
        other.click("#t-join")
        other.wait_for_selector("#t-players li:has-text('bob')")

        page.click("#t-start")
        for each in (page, other):  # the start reaches bob's page by its socket
            each.wait_for_selector("#t-rounds a.t-mine")
        link = other.locator("#t-rounds a.t-mine").get_attribute("href")
        assert link == page.locator("#t-rounds a.t-mine").get_attribute("href")
        game_id = int(re.search(r"/games/(\d+)/", link).group(1))
        assert page.locator("#t-rounds li").count() == 1

        advanced: list[bool] = []

        def end_the_round() -> None:  # Django's sync ORM, off Playwright's loop
            services.resign(game_id=game_id, user=bob)
            advanced.append(tournaments.advance(tournament_id=Tournament.objects.get().pk))

        in_thread(end_the_round)
        assert advanced == [True]  # the worker's step: the round, and so the tournament, over
        for each in (page, other):
            each.wait_for_selector("#t-standings tr:first-child:has-text('alice')")
            each.wait_for_function("document.getElementById('t-summary').textContent"
                                   ".includes('finished')")
            assert each.locator("#t-standings tr").count() == 2
            assert each.errors == []
        assert page_reads == [] and other_reads == []  # all of it came over the socket

    run_in_browser(server, scenario)
    finished = Tournament.objects.get()
    assert finished.status == "finished" and finished.created_by == alice


def test_without_its_socket_the_page_reads_the_api(server: Any) -> None:
    """The tournament's socket cannot open (every attempt is closed at once): the page
    shows the tournament all the same, and a change, from the API it reads meanwhile."""
    alice, bob = user("alice"), user("bob")
    made = tournaments.create(user=alice, kind="bloqueio2", rounds=1)
    tournaments.join(tournament_id=made.pk, user=alice)

    def scenario(new_page: Any) -> None:
        page = new_page()
        reads = reads_of_the_detail(page)
        page.route_web_socket(re.compile(r"/ws/tournaments/"), lambda ws: ws.close())
        page.goto(f"/tournaments/{made.pk}/")
        page.wait_for_selector("#t-players li:has-text('alice')")
        assert reads  # read from the API, not from a socket

        def join() -> None:  # Django's sync ORM, off Playwright's loop
            tournaments.join(tournament_id=made.pk, user=bob)

        in_thread(join)
        page.wait_for_selector("#t-players li:has-text('bob')")
        assert page.errors == []

    run_in_browser(server, scenario)
