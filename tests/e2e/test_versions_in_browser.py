"""The game page follows its game's version (`v`, docs/realtime.md), in chromium: a frame
at or below the version it holds is old news and changes nothing, even an `event` whose
ply would fit; a frame more than one change ahead is not shown but makes the page
`sync`, saying the version it holds; and the real changes keep coming after both.

The crafted frames are handed to the page's socket handler (`GameSocket.receive`), as
if they had arrived; what the page sends is spied on at its socket (`live.send`).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connections

from games import services
from tests.e2e.conftest import live_game, log_in, run_in_browser
from tests.e2e.conftest import live_user as user
from tests.openings import MOVE0
from tests.threads import in_thread

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


# The game as the page read it, with `changes` over it (crafted frames carry it).
CRAFT = """(changes) => ({
  ...JSON.parse(document.getElementById("game-data").textContent).game, ...changes })"""
SPY = """() => {
  window.sentFrames = [];
  const live = window.bloqueioSocket.live;
  const real = live.send.bind(live);
  live.send = (f) => { window.sentFrames.push(f); return real(f); };
}"""
SHOWN = """() => { const b = document.querySelector("#board [data-ply]");
  return [b.dataset.ply, b.dataset.status]; }"""


def _game() -> tuple[int, Any]:
    """alice (seat 0, to move) and bob in a started bloqueio2 game."""
    alice, bob = user("alice"), user("bob")
    game = services.create_game(user=alice, kind="bloqueio2")
    services.join_game(game_id=game.pk, user=bob)
    return game.pk, alice


def _receive(page: Any, frame: str, held_v: int) -> None:
    """Hand the page's socket `frame` (a JS expression over `v`, the version the page
    holds, and `craft`, the game as the page read it with some fields changed)."""
    page.evaluate(f"""([v]) => {{
      const craft = {CRAFT};
      window.bloqueioSocket.receive({frame});
    }}""", [held_v])


def test_old_frames_are_dropped_and_a_gap_syncs(server: Any) -> None:
    game_id, alice = _game()

    def move() -> None:
        try:
            services.submit_action(game_id=game_id, user=alice, action=MOVE0, ply=0)
        finally:
            connections.close_all()

    def scenario(new_page: Any) -> None:
        page = new_page()
        log_in(page, "alice")
        live_game(page, f"/games/{game_id}/")
        page.evaluate(SPY)
        held = page.evaluate("() => window.bloqueioSocket.v")
        assert held == page.evaluate(f"() => ({CRAFT})({{}}).v") and held > 0
        assert page.evaluate(SHOWN) == ["0", "active"]

        # Old news: a move one version behind (its ply would be the next), and a change
        # at the version held. Neither is shown, neither asks anything.
        _receive(page, """{type: "event", v: v - 1,
          event: {ply: 1, seat: 0, action: {type: "move", to: [2, 5]},
                  at: "2026-11-29T01:00:00+00:00"},
          game: craft({ply: 1, v: v - 1})}""", held)
        _receive(page, """{type: "game", v, change: "aborted",
          game: craft({status: "aborted", v})}""", held)
        assert page.evaluate(SHOWN) == ["0", "active"]
        assert page.evaluate("() => window.bloqueioSocket.lastPly") == 0
        assert page.evaluate("() => window.sentFrames") == []

        # A gap: a change two versions ahead is not shown; the page syncs from the
        # version it holds, and the answer (the game is still there) changes nothing.
        _receive(page, """{type: "game", v: v + 2, change: "aborted",
          game: craft({status: "aborted", v: v + 2})}""", held)
        assert page.evaluate(SHOWN) == ["0", "active"]
        sent = page.evaluate("() => window.sentFrames")
        assert [(f["type"], f["after"], f["v"]) for f in sent] == [("sync", 0, held)]
        page.wait_for_function("() => !window.bloqueioSocket.syncing")
        assert page.evaluate(SHOWN) == ["0", "active"]
        assert page.evaluate("() => window.bloqueioSocket.v") == held

        # The real next change, one version on, is shown.
        in_thread(move)  # Django's sync ORM, off Playwright's loop
        page.wait_for_selector('#board [data-ply="1"]')
        assert page.evaluate("() => window.bloqueioSocket.v") == held + 1
        assert page.errors == []

    run_in_browser(server, scenario)
