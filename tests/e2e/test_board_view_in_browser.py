"""A turned board can be seen as the rules page draws it (issue 45, item 11).

The game page turns the board so the viewer's own side starts at the bottom, and the edge
labels turn with it ("k … a" along the top, or the letters down the side). Under the move
box, "Board: turned to my seat / as on the rules page" shows the board unturned, with the
labels along each edge exactly as the rules page's diagram has them; the browser remembers
the choice across a reload, and a legend says how the labels run on the board shown. A
seat whose board is not turned is not offered the choice. Laptop (1366x768) and phone
(390x844), one kind of each board family.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from tests.e2e.conftest import live_game, live_user, log_in, run_in_browser, shot

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
# Per kind: the quarter turns alice's (seat 0, laptop) and bob's (seat 1, phone) boards
# get, from the families' rotationFor.
TURNS = {"blockade_run": (2, 0), "blokus2": (3, 2), "bloqueio": (2, 1)}
KINDS = ["bloqueio", "blockade_run", "blokus2"]

LABELS = """(sel) => Object.fromEntries(['top', 'left'].map((edge) => [edge,
  [...document.querySelectorAll(`${sel} text.label[data-edge="${edge}"]`)]
    .map((t) => t.textContent)]))"""


def labels(page: Any, where: str) -> dict[str, list[str]]:
    return page.evaluate(LABELS, where)


def rotation(page: Any) -> str:
    return page.get_attribute("#board svg.board", "data-rotation")


def wait_rotation(page: Any, turns: int) -> None:
    page.wait_for_function(
        "(k) => { const s = document.querySelector('#board svg.board');"
        " return s !== null && s.dataset.rotation === String(k); }", arg=turns)


@pytest.mark.parametrize("kind", KINDS)
def test_a_turned_viewer_can_see_the_board_as_the_rules_page_draws_it(server: Any,
                                                                      kind: str) -> None:
    people = ["alice", "bob", "carol", "dave"]
    users = [live_user(name) for name in people]
    seats = 4 if kind == "bloqueio" else 2
    game = services.create_game(user=users[0], kind=kind)
    for user in users[1:seats]:
        services.join_game(game_id=game.pk, user=user)

    def scenario(new_page: Any) -> None:
        for name, options, turns in (("alice", LAPTOP, TURNS[kind][0]),
                                     ("bob", PHONE, TURNS[kind][1])):
            page = new_page(**options)
            log_in(page, name)
            page.goto(f"/rules/{kind}/")
            drawn = labels(page, "#start-diagram")
            assert drawn["top"][0] == "a" and drawn["left"][0] == "0", drawn

            live_game(page, f"/games/{game.pk}/")
            page.wait_for_selector('#board svg[data-status="active"]')
            assert rotation(page) == str(turns)
            if turns == 0:  # nothing to turn back: no choice offered
                assert page.locator("#board-view-box").is_hidden()
                assert labels(page, "#board svg.board") == drawn
                continue
            box = page.locator("#board-view-box")
            box.scroll_into_view_if_needed()
            assert box.is_visible()
            assert page.input_value("#board-view") == "turned"
            assert labels(page, "#board svg.board") != drawn  # turned: the labels run otherwise
            legend = page.inner_text("#board-view-legend")
            assert legend.startswith("Turned to your seat"), legend

            page.select_option("#board-view", "rules")
            wait_rotation(page, 0)
            assert labels(page, "#board svg.board") == drawn
            legend = page.inner_text("#board-view-legend")
            assert f"along the top a → {drawn['top'][-1]}" in legend, legend
            assert f"down the left 0 → {drawn['left'][-1]}" in legend, legend
            shot(page, f"board-view-{kind}-{name}")

            page.reload()  # the browser remembers the choice
            live_game(page)
            page.wait_for_selector('#board svg[data-status="active"]')
            assert rotation(page) == "0"
            assert page.input_value("#board-view") == "rules"
            assert labels(page, "#board svg.board") == drawn

            page.select_option("#board-view", "turned")
            wait_rotation(page, turns)
            assert labels(page, "#board svg.board") != drawn
            assert page.errors == []

    run_in_browser(server, scenario)
