"""A newcomer's evening, the details a browser sees: after resigning a ranked game on a
phone the move box is gone, the result shows each rating's change and the move list
stays inside the screen; the replay's step buttons are drawn (no missing glyphs) and
its highlighted move meets WCAG AA."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import services
from games.boards.colours import contrast
from tests.e2e.conftest import live_game, log_in, run_in_browser, shot
from tests.e2e.test_blockade_in_browser import PHONE, user

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _hex(css: str) -> str:
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def test_resigning_a_ranked_game_on_a_phone_and_its_replay(server: Any) -> None:
    alice, bob = user("alice"), user("bob")
    game = services.start_ranked_game(kind="bloqueio2", user_ids=[alice.pk, bob.pk])
    # Two moves each: a shorter game is not rated (docs/ranked.md), and this one shows
    # each rating's change.
    for ply, (who, to) in enumerate(((alice, [2, 5]), (bob, [8, 5]), (alice, [3, 5]),
                                     (bob, [7, 5]))):
        services.submit_action(game_id=game.pk, user=who, action={"type": "move", "to": to},
                               ply=ply)

    def scenario(new_page: Any) -> None:
        page = new_page(**PHONE)
        log_in(page, "bob")
        # The lobby sends a player of a live ranked game to it by itself.
        page.wait_for_url(re.compile(rf"/games/{game.pk}/$"))
        live_game(page)  # resigning goes over the socket
        page.wait_for_selector('#board svg[data-status="active"]')
        page.click("#resign")
        page.click("#resign-confirm")
        page.wait_for_selector('#board svg[data-status="finished"]')
        assert page.locator("#notation-form").is_hidden()
        assert page.locator("#resign").is_hidden()
        result = page.inner_text("#result")
        assert re.search(r"\(\+\d+\)", result) and re.search(r"\(-\d+\)", result), result
        assert "resigned" in page.inner_text("#moves")  # in words, not "resign:1"
        width = page.evaluate("document.documentElement.clientWidth")
        right = page.evaluate("document.getElementById('moves').getBoundingClientRect().right")
        assert right <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot(page, "polish-phone-resigned")

        replay = new_page()
        replay.goto(f"/games/{game.pk}/replay/?ply=2")
        replay.wait_for_selector('#board svg[data-ply="2"]')
        for button in ("first", "prev", "next", "last"):
            assert replay.locator(f"#{button} svg.icon").count() == 1
        current = replay.locator("#moves li.current button")
        fg = current.evaluate("e => getComputedStyle(e.querySelector('span:last-child')).color")
        bg = current.evaluate("e => getComputedStyle(e).backgroundColor")
        assert contrast(_hex(fg), _hex(bg)) >= 4.5

    run_in_browser(server, scenario)
