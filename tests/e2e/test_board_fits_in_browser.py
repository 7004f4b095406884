"""The whole board and the player's controls fit the first screen of a laptop (issue 45,
item 4): at 1366x768 and 1280x720, for every kind, seen by the seat to move; and a
flash message above the page does not push the board below the fold."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine, services
from tests.e2e.conftest import live_game, live_user, log_in, run_in_browser, shot

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PEOPLE = ("alice", "bob", "carol", "dave")
SCREENS = [(1366, 768), (1280, 720)]
# What must be on the first screen: the board, and the controls the player moves with.
MUST_SHOW = ["#board svg", "#resign", "#notation"]
BOTTOM = "(sel) => document.querySelector(sel).getBoundingClientRect().bottom"
TOP = "(sel) => document.querySelector(sel).getBoundingClientRect().top"


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=["1366x768", "1280x720"])
def test_the_board_and_the_controls_fit_a_laptop_screen(server: Any, width: int,
                                                         height: int) -> None:
    users = [live_user(name) for name in PEOPLE]
    games = {}
    for kind in engine.KINDS:
        game = services.create_game(user=users[0], kind=kind,
                                    time_control={"initial": 300, "increment": 2})
        for user in users[1:engine.get(kind).info.seats]:
            services.join_game(game_id=game.pk, user=user)
        games[kind] = game.pk

    def scenario(new_page: Any) -> None:
        page = new_page(viewport={"width": width, "height": height})
        log_in(page, "alice")
        overflow = {}
        for kind, game_id in games.items():
            live_game(page, f"/games/{game_id}/")
            page.wait_for_selector("#players li")
            for selector in MUST_SHOW:
                bottom = page.evaluate(BOTTOM, selector)
                if bottom > height or page.evaluate(TOP, selector) < 0:
                    overflow[kind, selector] = round(bottom)
            if (kind, "#board svg") in overflow:
                shot(page, f"fit-{kind}-{width}x{height}")
        shot(page, f"fit-last-{width}x{height}")
        assert overflow == {}, overflow
        assert page.errors == []

    run_in_browser(server, scenario)


@pytest.mark.parametrize("kind", ["bloqueio", "blokus2"])
def test_a_flash_message_does_not_push_the_board_below_the_fold(server: Any, kind: str) -> None:
    """Bob takes the last seat from the lobby: the game page opens with "You took the last
    seat…" above it, and the board still ends on the first screen at 1280x720."""
    users = [live_user(name) for name in PEOPLE]
    seats = engine.get(kind).info.seats
    game = services.create_game(user=users[0], kind=kind)
    for user in users[2:seats]:
        services.join_game(game_id=game.pk, user=user)

    def scenario(new_page: Any) -> None:
        page = new_page(viewport={"width": 1280, "height": 720})
        log_in(page, "bob")
        page.goto("/")
        page.locator(f'#open-games li[data-game="{game.pk}"] button').click()
        page.wait_for_url(f"**/games/{game.pk}/")
        live_game(page)
        page.wait_for_selector(".messages li")
        bottom = page.evaluate(BOTTOM, "#board svg")
        shot(page, f"fit-flash-{kind}")
        assert bottom <= 720, bottom
        assert page.errors == []

    run_in_browser(server, scenario)
