"""The first move's countdown (issue 45, item 1): a timed game's seat to move sees how
long it has for its first move and what a miss does, the others see it for that seat,
and the rule is on the rules pages and the lobby. Alice on a laptop, Bob on a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import services
from tests.e2e.conftest import live_game, live_user, log_in, run_in_browser, shot

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
COUNTDOWN = r"(\d:\d\d|\d+[.,]\d)"


def _timed_game(private: bool) -> int:
    alice, bob = live_user("alice"), live_user("bob")
    game = services.create_game(user=alice, kind="bloqueio2", private=private,
                                time_control={"initial": 300, "increment": 2})
    services.join_game(game_id=game.pk, user=bob, invite=game.invite_token)
    return game.pk


@pytest.mark.parametrize("private", [False, True], ids=["open", "private"])
def test_each_seat_sees_its_first_move_countdown(server: Any, private: bool) -> None:
    game_id = _timed_game(private)
    miss = "or the game is aborted"

    def scenario(new_page: Any) -> None:
        alice, bob = new_page(**LAPTOP), new_page(**PHONE)
        for page, name in ((alice, "alice"), (bob, "bob")):
            log_in(page, name)
            live_game(page, f"/games/{game_id}/")
        window = "2:00|1:[0-5]\\d" if private else "0:[0-3]\\d|\\d+[.,]\\d"
        mine = alice.locator("#first-move")
        assert re.fullmatch(rf"First move within ({window}), {miss}\.", mine.inner_text())
        clock = alice.locator('#players .clock.running.first-move[data-seat="0"]')
        assert re.fullmatch(window, clock.inner_text())  # not the 5:00 of the game's clock
        theirs = bob.locator("#first-move").inner_text()
        said = rf"Red \(alice\) must make a first move within {COUNTDOWN}, {miss}\."
        assert re.fullmatch(said, theirs)
        shot(alice, f"first-move-laptop-{'private' if private else 'open'}")
        shot(bob, f"first-move-phone-{'private' if private else 'open'}")
        alice.click('#board rect.cell.legal[data-row="2"][data-col="5"]')
        alice.wait_for_selector('#board svg[data-ply="1"]')
        bob.wait_for_selector('#board svg[data-ply="1"]')
        # Bob's turn: his countdown; at a private table a miss now costs only his seat.
        bob_miss = "or you run out of time" if private else miss
        bob.wait_for_function(
            "t => (document.getElementById('first-move') || {}).textContent?.includes(t)",
            arg=bob_miss)
        assert alice.locator('#players .clock.first-move[data-seat="0"]').count() == 0
        assert alice.locator('#players .clock.first-move[data-seat="1"]').count() == 1
        assert alice.errors == [] and bob.errors == []

    run_in_browser(server, scenario)


def test_the_rule_is_on_the_rules_pages_and_in_the_lobby(server: Any) -> None:
    def scenario(new_page: Any) -> None:
        page = new_page(**LAPTOP)
        for path in ("/", "/rules/bloqueio/", "/rules/blokus/", "/rules/blockade/"):
            page.goto(path)
            text = page.locator("main").inner_text()
            assert "First move:" in text and "30 seconds" in text and "2 minutes" in text, path
        page.goto("/")
        page.locator("#clocks-help").scroll_into_view_if_needed()
        shot(page, "first-move-lobby-rule")

    run_in_browser(server, scenario)
