"""The replay viewer's analysis card in real chromium: the chart has a line per seat,
clicking a point (or the arrow keys on the chart) goes to that ply, and "Show best move"
draws the hard bot's choice on the board, with its reason, until the ply changes."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine, services
from tests.conftest import make_user
from tests.e2e.conftest import run_in_browser, shot
from tests.games.helpers import play, started_game

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def finished_game(kind: str, plies: int) -> Any:
    """A casual game of `kind`: `plies` first-legal actions, then the last seat resigns."""
    rules = engine.get(kind)
    users = [make_user(name) for name in ("alice", "bob", "carol", "dave")[:rules.seats]]
    state, actions = rules.initial(), []
    for _ in range(plies):
        action = rules.legal_actions(state)[0]
        actions.append(action.to_json())
        state = rules.apply(state, action)
    game = play(started_game(users, kind=kind), users, actions)
    services.resign(game_id=game.pk, user=users[-1])
    game.refresh_from_db()
    assert game.status == "finished"
    return game


def wait_ply(page: Any, ply: int) -> None:
    page.wait_for_selector(f'#board svg.board[data-ply="{ply}"]')
    page.wait_for_selector(f'#analysis-chart line.current[data-ply="{ply}"]', state="attached")


@pytest.mark.parametrize(("kind", "plies"),
                         [("bloqueio2", 6), ("blockade_run", 4), ("blokus_duo", 4)])
def test_the_chart_jumps_and_the_best_move_is_drawn(server, kind, plies):
    game = finished_game(kind, plies)
    seats = engine.get(kind).seats

    def scenario(new_page: Any) -> None:
        page = new_page(**DESKTOP)
        page.goto(f"/games/{game.pk}/replay/?ply={game.ply}")
        chart = page.locator("#analysis-chart svg.analysis-chart")
        chart.wait_for()
        assert chart.get_attribute("aria-label")
        assert page.locator("#analysis-chart g.series").count() == seats
        assert page.locator("#analysis-chart g.series polyline").count() == seats
        assert page.locator("#analysis-legend li").count() == seats
        wait_ply(page, game.ply)
        # Nobody moves after the resignation: no best move to ask for.
        assert page.locator("#best-move").is_disabled()

        # A click on a point of the chart goes to its ply.
        chart.scroll_into_view_if_needed()
        point = page.locator('#analysis-chart circle.point[data-ply="2"][data-seat="0"]')
        box = point.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        wait_ply(page, 2)
        assert "ply=2" in page.url
        assert page.locator("#ply").inner_text() == f"Ply 2 of {game.ply}"
        # The chart is a slider for the keyboard: one step per key, not two.
        chart.focus()
        page.keyboard.press("ArrowRight")
        wait_ply(page, 3)
        page.keyboard.press("Home")
        wait_ply(page, 0)
        assert chart.get_attribute("aria-valuenow") == "0"

        # "Show best move" draws the hard bot's choice and says why.
        best = page.get_by_role("button", name="Show best move")
        best.click()
        page.wait_for_selector("#board .suggestion > *")
        expected = page.evaluate(
            "async (id) => (await (await fetch(`/api/games/${id}/analysis/0/best/`)).json())",
            game.pk)
        layer = page.locator("#board .suggestion")
        assert layer.get_attribute("data-type") == expected["action"]["type"]
        reason = page.locator("#best-reason").inner_text()
        assert expected["notation"] in reason and expected["reason"] in reason
        assert page.locator("#best-move").get_attribute("aria-pressed") == "true"
        shot(page, f"replay-analysis-{kind}", full_page=True)
        # Another ply: the suggestion is gone until asked for again.
        page.click("#next")
        wait_ply(page, 1)
        assert page.locator("#board .suggestion > *").count() == 0
        assert page.locator("#best-reason").inner_text() == ""
        assert page.errors == []

    run_in_browser(server, scenario)


def test_a_live_ranked_game_says_when_analysis_opens(server):
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game([alice, bob], kind="quoridor", ranked=True)

    def scenario(new_page: Any) -> None:
        page = new_page(**DESKTOP)
        page.goto(f"/games/{game.pk}/replay/")
        note = page.locator("#analysis-note")
        note.filter(has_text="ranked game is over").wait_for()
        assert page.locator("#best-move").is_disabled()
        assert page.locator("#analysis-chart svg").count() == 0
        assert page.errors == []

    run_in_browser(server, scenario)
