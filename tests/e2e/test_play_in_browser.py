"""Two players, a spectator and the replay viewer, all in real chromium pages.

Alice and Bob register through the forms, Alice creates a two-seat Bloqueio game in the
lobby, Bob joins it from the lobby list, and they play the whole game by clicking cells
and a groove. A spectator watches live (and survives a dropped connection); an illegal
click is refused with the engine's reason; the replay viewer steps through every ply and
the board matches the engine at each one.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import engine
from tests.e2e.conftest import live_game, run_in_browser, shot

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-9"
# Red walks column f down to row 10; green steps to e9 and walks column e up.
SCRIPT = ["f2", "e9", "b5h", "e8", "f3", "e7", "f4", "e6", "f5", "e5", "f6", "e4",
          "f7", "e3", "f8", "e2", "f9", "e1", "f10"]


def register(page: Any, username: str) -> None:
    page.goto("/accounts/register/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button[type=submit]")
    # The lobby, loaded (its scripts have run): not /accounts/register/, which ends in "/" too.
    page.wait_for_url(re.compile(r"^https?://[^/]+/$"))
    assert page.locator(".site-header .who").inner_text() == username


def pawns(page: Any) -> dict[int, tuple[int, int]]:
    found = page.eval_on_selector_all(
        "#board svg .pawn", "els => els.map(e => [e.dataset.seat, e.dataset.row, e.dataset.col])")
    return {int(s): (int(r), int(c)) for s, r, c in found}


def walls(page: Any) -> list[str]:
    return sorted(page.eval_on_selector_all(
        "#board svg .walls .wall", "els => els.map(e => e.dataset.at + e.dataset.orientation)"))


def center(page: Any, r: int, c: int) -> tuple[float, float]:
    box = page.locator(f'#board rect.cell[data-row="{r}"][data-col="{c}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def groove_point(page: Any, at: list[int], orientation: str) -> tuple[float, float]:
    """A screen point on the groove of a barrier, a little off its middle (any rotation)."""
    r, c = at
    if orientation == "H":  # between rows r and r+1, spanning columns c..c+1
        a, b, along = center(page, r, c), center(page, r + 1, c), center(page, r, c + 1)
    else:  # between columns c and c+1, spanning rows r..r+1
        a, b, along = center(page, r, c), center(page, r, c + 1), center(page, r + 1, c)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return mid[0] + 0.3 * (along[0] - a[0]), mid[1] + 0.3 * (along[1] - a[1])


def wait_ply(page: Any, ply: int) -> None:
    page.wait_for_selector(f'#board svg[data-ply="{ply}"]')


def play(page: Any, action: dict[str, Any], ply: int) -> None:
    """Click the action on the board of the player to move."""
    if action["type"] == "move":
        r, c = action["to"]
        page.click(f'#board rect.cell.legal[data-row="{r}"][data-col="{c}"]')
    else:
        page.wait_for_selector("#board .legal-dot")  # legal actions loaded
        x, y = groove_point(page, action["at"], action["orientation"])
        page.mouse.move(x, y)
        page.wait_for_selector('#board .preview line[data-ok="true"]', state="attached")
        page.mouse.click(x, y)
    wait_ply(page, ply + 1)


def test_two_players_and_a_spectator_play_watch_and_replay(server):
    run_in_browser(server, two_players_spectator_and_replay)


def two_players_spectator_and_replay(new_page):
    rules = engine.get("bloqueio2")
    actions = [rules.parse_notation(t).to_json() for t in SCRIPT]

    alice = new_page(viewport={"width": 1280, "height": 860})
    register(alice, "alice")
    alice.select_option("#create-kind", "bloqueio2")
    alice.click("#create-submit")
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    live_game(alice)
    game_id = int(alice.url.rstrip("/").split("/")[-1])
    alice.wait_for_selector("#waiting:not([hidden])")

    bob = new_page(viewport={"width": 1280, "height": 860})
    register(bob, "bob")
    join = bob.locator(f'#open-games li[data-game="{game_id}"] button', has_text="Join")
    join.wait_for()  # arrived live over /ws/lobby/
    shot(bob, "lobby")
    join.click()
    bob.wait_for_url(f"**/games/{game_id}/")
    live_game(bob)
    for page in (alice, bob):
        page.wait_for_selector('#board svg[data-status="active"]')

    watcher = new_page(viewport={"width": 1100, "height": 800})
    live_game(watcher, f"/games/{game_id}/")
    watcher.wait_for_selector('#board svg[data-status="active"]')
    alice.wait_for_function("document.getElementById('spectators').textContent === '1'")

    # Each player sees their own pawn at the bottom half of their board.
    for page, seat in ((alice, 0), (bob, 1)):
        board = page.locator("#board svg").bounding_box()
        pawn = page.locator(f'#board .pawn[data-seat="{seat}"]').bounding_box()
        assert pawn["y"] > board["y"] + board["height"] / 2

    # An illegal click: a message with the engine's reason, and nothing changes.
    play(alice, actions[0], 0)
    bob.wait_for_selector("#board .legal-dot")
    bob.click('#board rect.cell[data-row="7"][data-col="7"]')
    bob.wait_for_selector("#status-msg.error")
    # The engine's reason, in the notation on the board's edges.
    assert "You can't move to h7: cell h7 is not reachable" in bob.inner_text("#status-msg")
    assert bob.locator("#board svg").get_attribute("data-ply") == "1"
    assert pawns(bob) == {0: (2, 5), 1: (9, 5)}

    # A barrier that crosses nothing yet but would: hovering shows red with the reason.
    play(bob, actions[1], 1)
    alice.wait_for_selector("#board .legal-dot")
    play(alice, actions[2], 2)  # b5h by clicking its groove
    bob.wait_for_selector("#board .legal-dot")
    x, y = groove_point(bob, [5, 1], "V")
    bob.mouse.move(x, y)
    bob.wait_for_selector('#board .preview line[data-ok="false"]', state="attached")
    bob.wait_for_function(
        "document.getElementById('status-msg').textContent.includes('crosses barrier b5h')")
    shot(bob, "game-barrier-preview")
    bob.mouse.move(5, 5)

    # The watcher's connection drops; it shows the banner, reconnects and catches up.
    watcher.evaluate("window.bloqueioSocket.live.drop()")
    for ply in range(3, len(actions)):
        page = alice if ply % 2 == 0 else bob
        play(page, actions[ply], ply)
        if ply == 5:
            shot(alice, "game")
    final = rules.replay(actions).to_json()
    for page in (alice, bob, watcher):
        wait_ply(page, len(actions))
        page.wait_for_selector("#result:not([hidden])")
        assert "Red (alice) won: reached the goal." in page.inner_text("#result")
        assert pawns(page) == {s: tuple(p) for s, p in enumerate(final["pawns"])}
        assert walls(page) == ["5,1H"]
        moves = page.eval_on_selector_all("#moves li", "els => els.map(e => e.dataset.ply)")
        assert moves == [str(n) for n in range(1, len(actions) + 1)]
    assert watcher.inner_text("#moves").split()[-1] == "f10"
    shot(watcher, "game-over")

    # The replay viewer: every ply matches the engine, stepping forward and back.
    replay = watcher
    replay.goto(f"/games/{game_id}/replay/?ply=0")
    replay.wait_for_selector('#board svg[data-ply="0"]')
    for ply in range(len(actions) + 1):
        if ply:
            replay.keyboard.press("ArrowRight")
            replay.wait_for_selector(f'#board svg[data-ply="{ply}"]')
        state = rules.replay(actions[:ply]).to_json()
        assert pawns(replay) == {s: tuple(p) for s, p in enumerate(state["pawns"])}, ply
        assert len(walls(replay)) == len(state["barriers"]), ply
    assert replay.url.endswith(f"ply={len(actions)}")
    replay.click("#first")
    wait_ply(replay, 0)
    replay.click('#moves li[data-ply="3"] button')
    wait_ply(replay, 3)
    assert walls(replay) == ["5,1H"]
    replay.keyboard.press("ArrowLeft")
    wait_ply(replay, 2)
    assert walls(replay) == []
    replay.goto(f"/games/{game_id}/replay/?ply=8")
    wait_ply(replay, 8)
    assert pawns(replay) == {s: tuple(p) for s, p in
                             enumerate(rules.replay(actions[:8]).to_json()["pawns"])}
    shot(replay, "replay")

    alice.goto("/users/alice/")
    alice.wait_for_selector("#charts .empty")
    assert f"/games/{game_id}/replay/" in alice.content()
    shot(alice, "profile")
    alice.goto("/leaderboard/bloqueio/")
    alice.wait_for_function("document.getElementById('lb-status').textContent !== 'Loading…'")
    shot(alice, "leaderboard")
    for page in (alice, bob, watcher):
        assert page.errors == []


def test_four_players_on_phones_and_a_touch_barrier(server):
    run_in_browser(server, four_phones)


def four_phones(new_page):
    """Four phones join a Bloqueio game; each sees its own pawn at the bottom; a barrier
    placed by touch needs the confirm step."""
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
             "device_scale_factor": 2}
    names = ["ana", "ben", "cid", "dee"]
    pages = []
    for name in names:
        page = new_page(**phone)
        register(page, name)
        pages.append(page)
    pages[0].select_option("#create-kind", "bloqueio")
    pages[0].click("#create-submit")
    pages[0].wait_for_url(re.compile(r"/games/\d+/$"))
    live_game(pages[0])
    url = pages[0].url
    for page in pages[1:]:
        page.goto(url)
        with page.expect_navigation():  # the join posts and comes back to the same URL
            page.click("#join")
        live_game(page)
    for seat, page in enumerate(pages):
        page.wait_for_selector('#board svg[data-status="active"]')
        board = page.locator("#board svg").bounding_box()
        pawn = page.locator(f'#board .pawn[data-seat="{seat}"]').bounding_box()
        assert pawn["y"] > board["y"] + board["height"] * 0.75, seat

    # Red taps a cell to move; blue taps a groove, sees the confirm bar, and confirms.
    # Repaints keep what did not change: green's pawn node survives red's move.
    green_pawn = pages[2].locator('#board .pawn[data-seat="2"]').element_handle()
    pages[0].wait_for_selector("#board .legal-dot")
    # 11x11 squares are under 40 px on a phone, but a highlighted cell is played at the
    # first tap (a groove magnifies first, below; boards/zoom.js)
    pages[0].touchscreen.tap(*center(pages[0], 2, 5))
    wait_ply(pages[0], 1)
    wait_ply(pages[2], 1)
    assert green_pawn.evaluate("el => el.isConnected")
    blue = pages[1]
    blue.wait_for_selector("#board .legal-dot")
    blue.touchscreen.tap(*groove_point(blue, [4, 7], "V"))
    blue.wait_for_selector("#board svg.zoomed")
    blue.touchscreen.tap(*groove_point(blue, [4, 7], "V"))
    blue.wait_for_selector("#confirm-bar:not([hidden])")
    # Blue's board is turned a quarter: the V barrier h4v lies flat on Blue's screen.
    assert "horizontal barrier at h4v" in blue.inner_text("#confirm-text")
    assert blue.locator("#board svg").get_attribute("data-ply") == "1"
    shot(blue, "game-phone-confirm")
    blue.click("#confirm-place")
    for page in pages:
        wait_ply(page, 2)
        assert walls(page) == ["4,7V"]
    # Green types a move instead (the keyboard / screen-reader path).
    green = pages[2]
    green.wait_for_selector("#board .legal-dot")
    green.fill("#notation", "f8")
    green.press("#notation", "Enter")
    wait_ply(green, 3)
    assert pawns(pages[3])[2] == (8, 5)
    # Yellow resigns, with confirmation.
    yellow = pages[3]
    yellow.click("#resign")
    yellow.click("#resign-confirm")
    wait_ply(pages[0], 4)
    pages[0].wait_for_function(
        "document.querySelector('#players li[data-seat=\"3\"]').classList.contains('left')")
    for page in pages:
        assert page.errors == []
