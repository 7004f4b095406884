"""On a phone, barrier mode makes every tap mean its nearest groove: no need to hit a
6-pixel line with a finger. The confirm bar still asks first, and names the barrier as
the player sees it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import live_game, log_in, run_in_browser
from tests.e2e.test_blockade_in_browser import PHONE, two_player_game

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_barrier_mode_turns_a_tap_on_a_cell_into_a_barrier(server: Any) -> None:
    game_id, _, _ = two_player_game("bloqueio2")

    def scenario(new_page: Any) -> None:
        page = new_page(**PHONE)
        log_in(page, "alice")
        live_game(page, f"/games/{game_id}/")
        page.wait_for_selector("#board .legal-dot")
        page.tap("#barrier-mode")
        assert page.get_attribute("#barrier-mode", "aria-pressed") == "true"
        cell = page.locator('#board rect.cell[data-row="5"][data-col="5"]')
        box = cell.bounding_box()
        # squares under 40 px: the first tap magnifies the board around it (boards/zoom.js)
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_selector("#board svg.board.zoomed")
        box = cell.bounding_box()
        # A little off the cell's centre, towards its lower edge: the nearest groove.
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
        page.wait_for_selector("#confirm-bar:not([hidden])")
        assert "barrier at" in page.inner_text("#confirm-text")
        page.tap("#confirm-place")
        page.wait_for_selector('#board svg[data-ply="1"]')
        assert page.locator("#board .walls .wall").count() == 1
        assert page.errors == []

    run_in_browser(server, scenario)


def test_the_legend_and_goal_zones_say_whose_they_are_in_letters(server: Any) -> None:
    game_id, _, _ = two_player_game("bloqueio2")

    def scenario(new_page: Any) -> None:
        page = new_page()
        log_in(page, "bob")  # green: the board is turned half a turn
        live_game(page, f"/games/{game_id}/")
        page.wait_for_selector('#board svg[data-status="active"]')
        assert "You are Green (G)" in page.inner_text("#board-legend")
        marks = page.eval_on_selector_all("#board .zone-mark", "els => els.map(e => e.textContent)")
        assert set(marks) == {"R", "G"} and marks.count("G") == 9

    run_in_browser(server, scenario)
