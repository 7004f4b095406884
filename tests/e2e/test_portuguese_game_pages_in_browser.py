"""Every kind's game page in play, in pt-BR, after its scripts wrote it (issue 45, item 2):
the check of tests/site/test_translated_pages.py (no sentence of the English rendering
left in the Portuguese one) on the DOM as chromium shows it, so what static/js builds
(the notation help, the move box's placeholder, the first-move countdown, the Blokus
score strip, the players' panel) is checked too, not only what the server renders.

Each kind's timed game is seen by the seat to move and by a seat waiting for its turn,
once with an English browser and once with a Portuguese one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import engine, services
from tests.e2e.conftest import live_game, live_user, log_in, run_in_browser, shot
from tests.live.servers import Server, start, stop
from tests.site.visible_text import english_left

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PEOPLE = ("alice", "bob", "carol", "dave")
VIEW = {"viewport": {"width": 1366, "height": 768}}
ENGLISH = {**VIEW, "locale": "en-US", "extra_http_headers": {"Accept-Language": "en-US,en"}}
PORTUGUESE = {**VIEW, "locale": "pt-BR", "extra_http_headers": {"Accept-Language": "pt-BR,pt"}}
# Drawn once the scripts ran: the players' panel, the status line and the notation help.
READY = ("() => document.querySelector('#players li') !== null && "
         "document.getElementById('status-line').textContent.trim() !== '' && "
         "document.getElementById('notation-help').textContent.trim() !== ''")


@pytest.fixture(scope="module")
def server(django_db_setup: Any, django_db_blocker: Any,
           tmp_path_factory: Any) -> Iterator[Server]:
    """A server that lets one address open the ~80 sockets of these page loads (two per
    page: the game's and the badge's) within a minute."""
    with django_db_blocker.unblock():
        found = start(tmp_path_factory.mktemp("pages"), env={"SOCKET_OPENS_PER_MINUTE": "600"})
    try:
        yield found
    finally:
        stop(found)


def _games() -> dict[str, int]:
    users = [live_user(name) for name in PEOPLE]
    made = {}
    for kind in engine.KINDS:
        seats = engine.get(kind).info.seats
        game = services.create_game(user=users[0], kind=kind,
                                    time_control={"initial": 300, "increment": 2})
        for user in users[1:seats]:
            services.join_game(game_id=game.pk, user=user)
        made[kind] = game.pk
    return made


def _read(page: Any, path: str) -> str:
    live_game(page, path)
    try:
        page.wait_for_function(READY)
    except Exception as exc:
        raise AssertionError(page.evaluate(
            "() => [location.href, document.getElementById('status-line').outerHTML,"
            " document.getElementById('notation-help').outerHTML]")) from exc
    return page.content()


def test_every_kinds_game_page_in_play_reads_in_portuguese(server: Any) -> None:
    games = _games()

    def scenario(new_page: Any) -> None:
        pages = {}
        for name in ("alice", "bob"):  # alice is to move everywhere, bob waits
            for language, options in (("en", ENGLISH), ("pt", PORTUGUESE)):
                page = new_page(**options)
                log_in(page, name)
                pages[name, language] = page
        failures = {}
        for kind, game_id in games.items():
            for name in ("alice", "bob"):
                english = _read(pages[name, "en"], f"/games/{game_id}/")
                portuguese = _read(pages[name, "pt"], f"/games/{game_id}/")
                assert pages[name, "pt"].get_attribute("html", "lang") == "pt-br"
                left = english_left(english, portuguese, names=frozenset(PEOPLE))
                if left:
                    failures[kind, name] = left
                    shot(pages[name, "pt"], f"pt-in-play-{kind}-{name}")
        assert failures == {}, failures
        for page in pages.values():
            assert page.errors == []

    run_in_browser(server, scenario)
