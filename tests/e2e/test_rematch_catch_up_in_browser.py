"""A rematch that starts while a player's own socket (/ws/me/) is away still takes their
page to the new game, in chromium: the notice went to nobody and is not sent again, so
once the socket is open again the page reads the game's `rematch` back
(static/js/table.js).

Alice offered a rematch and has the finished game open; her /ws/me/ sockets (the
header's and the rematch's) are held by the test (open for the page, never at the
server), so Bob's acceptance, which starts the new game, reaches no socket of hers. The
test then closes them; the page reconnects, and must go to the new game with no notice
to tell it.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from games import rematch, services
from tests.e2e.conftest import live_game, log_in, run_in_browser
from tests.e2e.conftest import live_user as user

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def finished_with_rematch_offered() -> str:
    """Bob resigned a game against Alice, and Alice offered a rematch: Bob's "yes" is the
    last. Returns the finished game's page."""
    alice, bob = user("alice"), user("bob")
    game = services.create_game(user=alice, kind="bloqueio2")
    services.join_game(game_id=game.pk, user=bob)
    services.resign(game_id=game.pk, user=bob)
    rematch.offer(game_id=game.pk, user=alice)
    return f"/games/{game.pk}/"


def test_a_rematch_started_while_the_socket_was_away_is_read_back(server: Any) -> None:
    old = finished_with_rematch_offered()

    def scenario(new_page: Any) -> None:
        page = new_page()
        held: list[Any] = []
        away = [True]

        def route(ws: Any) -> None:
            if away[0]:
                held.append(ws)  # open for the page, never at the server
            else:
                ws.connect_to_server()

        page.route_web_socket(re.compile(r"/ws/me/$"), route)
        log_in(page, "alice")
        live_game(page, old)
        page.wait_for_selector("#rematch:not([hidden])")
        deadline = time.monotonic() + 15
        while len(held) < 2:  # the header's, and the rematch's once the game is seen over
            assert time.monotonic() < deadline, f"the page opened {len(held)} /ws/me/"
            page.wait_for_timeout(50)

        other = new_page()
        log_in(other, "bob")
        live_game(other, old)
        other.click("#rematch-yes")  # the last "yes": the new game starts
        other.wait_for_url(lambda url: re.search(r"/games/\d+/$", url) is not None
                           and not url.endswith(old))
        new = other.url
        # The notice went to alice's user topic, where no socket of hers listens.
        assert page.url.endswith(old)

        away[0] = False
        for ws in held:
            ws.close()  # the page reconnects, now to the server
        page.wait_for_url(new)
        assert page.errors == [] and other.errors == []

    run_in_browser(server, scenario)


def test_the_last_yes_leaves_for_the_new_game_once(server: Any) -> None:
    """The last "yes" is told twice that the rematch started: by its own answer and by
    the socket (the notice, or the read-back). In either order the page navigates once;
    a second assignment to location.href aborted the first navigation (CI saw
    net::ERR_ABORTED). The test forces the order that broke: the answer is held until
    the page has set off for the new game on the socket's word, and that navigation is
    held until the answer has been handled."""
    old = finished_with_rematch_offered()

    def scenario(new_page: Any) -> None:
        page = new_page()
        log_in(page, "bob")
        live_game(page, old)
        answers: list[Any] = []
        documents: list[Any] = []
        holding = [True]

        def hold_answer(route: Any) -> None:
            answers.append((route, route.fetch()))  # done at the server, not yet told

        def hold_document(route: Any) -> None:
            request = route.request
            if request.resource_type != "document" or request.url.endswith(old):
                route.continue_()
            elif holding[0]:
                documents.append(route)
            else:
                route.continue_()

        page.route(re.compile(rf"/api{old}rematch/$"), hold_answer)
        page.route(re.compile(r"/games/\d+/$"), hold_document)
        page.click("#rematch-yes")

        # The socket's word sends the page off to the new game while the answer is held.
        # The answer's handler records it only once its fetch is back from the server,
        # which may be after the page set off: wait for both.
        deadline = time.monotonic() + 15
        while not (documents and answers):
            assert time.monotonic() < deadline, (
                f"{len(documents)} navigations, {len(answers)} answers held")
            page.wait_for_timeout(50)
        assert len(answers) == 1
        route, response = answers[0]
        route.fulfill(response=response)  # now the answer arrives, saying "started" too
        page.wait_for_timeout(500)
        holding[0] = False
        for held in documents:
            held.continue_()
        page.wait_for_url(lambda url: not url.endswith(old))
        page.wait_for_load_state("load")
        assert len(documents) == 1, [held.request.url for held in documents]
        assert page.errors == []

    run_in_browser(server, scenario)
