"""A player who leaves a casual game, in chromium: the other sees "bob disconnected —
0:0N" on bob's seat, bob coming back clears it, and once the grace is over (3 s here,
`LEAVER_GRACE_SECONDS`) "Let a bot play for bob" hands the seat to the computer, which
the real worker then plays."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import services
from tests.e2e.conftest import live_game, log_in, run_in_browser, shot
from tests.e2e.test_blockade_in_browser import user
from tests.live.servers import Server, start, stop

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DESKTOP = {"viewport": {"width": 1280, "height": 860}}


@pytest.fixture(scope="module")
def server(django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: Any
           ) -> Iterator[Server]:
    with django_db_blocker.unblock():
        daphne = start(tmp_path_factory.mktemp("daphne"), env={"LEAVER_GRACE_SECONDS": "3"})
    try:
        yield daphne
    finally:
        stop(daphne)


def open_game(new_page: Any, game_id: int, username: str) -> Any:
    page = new_page(**DESKTOP)
    log_in(page, username)
    # Live: a context closed before the socket's hello left no "away" to show (the test
    # timed out waiting for it once on a busy CI at a1523e7).
    live_game(page, f"/games/{game_id}/")
    page.wait_for_selector('#board svg.board[data-status="active"]')
    return page


def test_a_leaver_is_counted_down_and_a_bot_takes_the_seat(server: Server, worker: Any,
                                                           tmp_path: Path) -> None:
    alice, bob = user("alice"), user("bob")
    game = services.create_game(user=alice, kind="bloqueio2")
    services.join_game(game_id=game.pk, user=bob)
    services.submit_action(game_id=game.pk, user=alice, action={"type": "move", "to": [2, 5]},
                           ply=0)

    def scenario(new_page: Any) -> None:
        mine = open_game(new_page, game.pk, "alice")
        theirs = open_game(new_page, game.pk, "bob")
        away = mine.locator('#players .away[data-seat="1"]')
        theirs.context.close()  # every socket of bob's goes
        try:
            away.wait_for()
        except Exception as exc:  # say what the page shows of the seats instead
            raise AssertionError(
                f"bob's leaving not shown: players {mine.locator('#players').inner_text()!r}, "
                f"status {mine.locator('#status-msg').inner_text()!r}; "
                f"errors {mine.errors}") from exc
        assert re.fullmatch(r"bob disconnected( — 0:0\d)?", away.inner_text()), away.inner_text()
        back = open_game(new_page, game.pk, "bob")
        away.wait_for(state="detached")
        mine.get_by_text("bob is back.").wait_for()
        back.context.close()
        away.wait_for()
        button = mine.get_by_role("button", name="Let a bot play for bob")
        button.wait_for(timeout=10_000)  # the grace (3 s) is over
        shot(mine, "leaver-grace-over")
        button.click()
        try:
            mine.locator("#players li[data-seat='1']").get_by_text("playing for bob").wait_for()
        except Exception as exc:  # say what the page was told (a refusal shows its code)
            status = mine.locator("#status-msg")
            raise AssertionError(f"no hand-over shown: {status.inner_text()!r} "
                                 f"(code {status.get_attribute('data-code')!r}); "
                                 f"errors {mine.errors}") from exc
        mine.wait_for_selector('#board svg.board[data-ply="2"]', timeout=20_000)  # the bot moved
        assert not mine.errors, mine.errors

    run_in_browser(server, scenario)
