"""The Blokus board in real chromium pages.

Desktop (blokus2): a refused placement explained with the engine's reason, hints that
light exactly the squares the picked piece's legal placements cover, pieces picked,
rotated, flipped and placed with the mouse and with the keyboard, and the turn hint
naming which of the player's two colours is to move. A phone (390x844) places by taps
and Confirm. A whole Blokus Duo game is played by clicking until the result box shows.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import engine, services
from games.boards import board_spec
from tests.e2e.conftest import live_game, log_in, run_in_browser, shot
from tests.e2e.conftest import live_user as user

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
Cells = list[list[int]]


# -- setup -----------------------------------------------------------------------------------


def two_player_game(kind: str) -> int:
    alice, bob = user("alice"), user("bob")
    game = services.create_game(user=alice, kind=kind)
    services.join_game(game_id=game.pk, user=bob)
    return game.pk


def open_game(new_page: Any, game_id: int, username: str, **options: Any) -> Any:
    page = new_page(**(options or DESKTOP))
    log_in(page, username)
    live_game(page, f"/games/{game_id}/")
    page.wait_for_selector('#board svg.board[data-status="active"]')
    return page


# Installed in a page: every action frame it sends from then on, in `window.sentActions`.
RECORD_SENT_ACTIONS = """() => {
    window.sentActions = [];
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
        const frame = JSON.parse(data);
        if (frame.type === "action") window.sentActions.push(frame.action);
        return send.call(this, data);
    };
}"""


# -- geometry, as the page's module computes it ----------------------------------------------

def norm(cells: Cells) -> list[tuple[int, int]]:
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return sorted((r - r0, c - c0) for r, c in cells)


def handle(shape: list[tuple[int, int]]) -> tuple[int, int]:
    """The square of a shape the pointer holds: the one nearest the box's middle."""
    h, w = max(r for r, _ in shape), max(c for _, c in shape)
    best, dist = shape[0], float("inf")
    for r, c in shape:
        d = (r - h / 2) ** 2 + (c - w / 2) ** 2
        if d < dist - 1e-9:
            best, dist = (r, c), d
    return best


def grip(cells: Cells) -> tuple[int, int]:
    """The square under the pointer when the ghost covers `cells`."""
    shape = norm(cells)
    hr, hc = handle(shape)
    return min(r for r, _ in cells) + hr, min(c for _, c in cells) + hc


def key(cells: Cells) -> str:
    return ";".join(f"{r},{c}" for r, c in sorted(map(tuple, cells)))


def parse(k: str) -> Cells:
    return [[int(v) for v in part.split(",")] for part in k.split(";")]


def center(page: Any, r: int, c: int) -> tuple[float, float]:
    box = page.locator(f'#board rect.cell[data-row="{r}"][data-col="{c}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def ghost(page: Any) -> tuple[str, Cells, str]:
    g = page.locator("#board .ghost")
    g.wait_for(state="attached")
    cells = parse(g.get_attribute("data-cells"))
    return g.get_attribute("data-piece"), cells, g.get_attribute("data-ok")


def wait_ghost(page: Any, cells: Cells) -> None:
    page.wait_for_selector(f'#board .ghost[data-cells="{key(cells)}"]', state="attached")


def wait_ply(page: Any, ply: int) -> None:
    page.wait_for_selector(f'#board svg.board[data-ply="{ply}"]')


def legal(page: Any, game_id: int) -> list[dict[str, Any]]:
    return page.evaluate(
        "async (id) => (await (await fetch(`/api/games/${id}/legal-actions/`)).json()).actions",
        game_id)


def state(page: Any, game_id: int) -> dict[str, Any]:
    return page.evaluate("async (id) => (await (await fetch(`/api/games/${id}/`)).json())", game_id)


def squares(page: Any) -> dict[tuple[int, int], int]:
    found = page.eval_on_selector_all(
        "#board g.square", "els => els.map(e => [e.dataset.row, e.dataset.col, e.dataset.colour])")
    return {(int(r), int(c)): int(v) for r, c, v in found}


def board_of(st: dict[str, Any]) -> dict[tuple[int, int], int]:
    return {(r, c): v for r, row in enumerate(st["board"])
            for c, v in enumerate(row) if v is not None}


def hint_says(page: Any, text: str) -> None:
    page.wait_for_function(
        "(t) => document.getElementById('status-line').textContent.includes(t)", arg=text)


def turn_to(page: Any, target: Cells, *, keys: bool = False, tap: bool = False) -> None:
    """Rotate / flip the picked piece until it has the shape of `target` (R R R F R R R
    visits all eight)."""
    want = norm(target)
    for step in ["", "r", "r", "r", "f", "r", "r", "r"]:
        if step:
            if keys:
                page.keyboard.press(step.upper())
            else:
                button = page.locator(".bk-rotate" if step == "r" else ".bk-flip")
                button.tap() if tap else button.click()
        if norm(ghost(page)[1]) == want:
            return
    raise AssertionError(f"never reached the shape of {target}")


def place_by_mouse(page: Any, action: dict[str, Any]) -> None:
    page.click(f'.bk-piece[data-piece="{action["piece"]}"]')
    turn_to(page, action["cells"])
    page.mouse.move(*center(page, *grip(action["cells"])))
    page.wait_for_selector(f'#board .ghost[data-cells="{key(action["cells"])}"][data-ok="true"]',
                           state="attached")
    page.mouse.click(*center(page, *grip(action["cells"])))


def place_by_keys(page: Any, action: dict[str, Any]) -> None:
    page.focus(f'.bk-piece[data-piece="{action["piece"]}"]')
    page.keyboard.press("Enter")  # picks it; the board takes the focus
    page.wait_for_function("document.activeElement?.classList.contains('board')")
    turn_to(page, action["cells"], keys=True)
    k = int(page.locator("#board svg.board").get_attribute("data-rotation"))
    (r0, c0), (r1, c1) = grip(ghost(page)[1]), grip(action["cells"])
    dr, dc = r1 - r0, c1 - c0
    for _ in range(k):  # the logical step as seen on the turned board
        dr, dc = dc, -dr
    steps = ((dr, "ArrowDown"), (-dr, "ArrowUp"), (dc, "ArrowRight"), (-dc, "ArrowLeft"))
    for count, name in steps:
        for _ in range(max(0, count)):
            page.keyboard.press(name)
    wait_ghost(page, action["cells"])
    page.keyboard.press("Enter")


def place_by_taps(page: Any, action: dict[str, Any]) -> None:
    page.tap(f'.bk-piece[data-piece="{action["piece"]}"]')
    turn_to(page, action["cells"], tap=True)
    page.touchscreen.tap(*center(page, *grip(action["cells"])))
    wait_ghost(page, action["cells"])
    page.tap(".bk-confirm")


def orientation(kind: str, action: dict[str, Any]) -> int:
    piece = next(p for p in board_spec(kind)["pieces"] if p["name"] == action["piece"])
    return [norm(o) for o in piece["orientations"]].index(norm(action["cells"]))


# -- the tests -------------------------------------------------------------------------------

def test_desktop_mouse_keyboard_hints_and_a_refusal(server: Any) -> None:
    game_id = two_player_game("blokus2")
    rules = engine.get("blokus2")

    def scenario(new_page: Any) -> None:
        alice = open_game(new_page, game_id, "alice")
        bob = open_game(new_page, game_id, "bob")
        hint_says(alice, "Your turn: place a Blue piece")
        assert "waiting for your turn" in bob.inner_text(".bk-tray-head")

        # A refused placement: L5 in the middle of the board, with the engine's reason.
        alice.click('.bk-piece[data-piece="L5"]')
        alice.mouse.move(*center(alice, 10, 10))
        alice.wait_for_selector('#board .ghost[data-ok="false"]', state="attached")
        _, cells, _ = ghost(alice)
        alice.mouse.click(*center(alice, 10, 10))
        alice.wait_for_selector("#status-msg.error")
        refused = {"type": "place", "piece": "L5", "cells": cells}
        reason = rules.is_legal(rules.initial(), refused, 0).reason
        # The engine's reason, its [row, col] in the board's cell names ("[0,0]" -> "a0").
        in_words = re.sub(r"\[(\d+),\s*(\d+)\]",
                          lambda m: f"{chr(97 + int(m[2]))}{m[1]}", reason or "")
        assert reason and in_words in alice.inner_text("#status-msg")
        assert alice.locator("#board svg.board").get_attribute("data-ply") == "0"

        # Hints: exactly the squares L5's legal placements cover, lit by the click itself
        # (how fast is bench's business, not a test's).
        actions = legal(alice, game_id)
        alice.evaluate("() => document.querySelector('.bk-hints').click()")
        lit = {tuple(map(int, x)) for x in alice.eval_on_selector_all(
            "#board rect.cell.hint", "els => els.map(e => [e.dataset.row, e.dataset.col])")}
        assert lit == {tuple(c) for a in actions if a["piece"] == "L5" for c in a["cells"]}
        fits = set(alice.eval_on_selector_all(".bk-piece.fits",
                                              "els => els.map(e => e.dataset.piece)"))
        assert fits == {a["piece"] for a in actions}
        shot(alice, "blokus-hints")
        alice.keyboard.press("Escape")
        alice.click(".bk-hints")  # off again

        # The page's notation is the engine's, and its orientation order the spec's.
        js = alice.evaluate("""async (actions) => {
            const m = await import('/static/js/boards/blokus-pieces.js');
            return { orients: m.NAMES.map((n) => m.ORIENTATIONS[n]),
                     texts: actions.map((a) => m.formatAction(a)),
                     back: actions.map((a) => m.parseNotation(m.formatAction(a))) }; }""", actions)
        assert js["orients"] == [p["orientations"] for p in board_spec("blokus2")["pieces"]]
        assert js["texts"] == [rules.format_action(rules.parse_action(a)) for a in actions]
        assert js["back"] == actions

        # Blue: a placement needing a flip, picked, flipped and placed with the mouse.
        flipped = [a for a in actions
                   if a["piece"] in ("L5", "N", "Y", "F") and orientation("blokus2", a) >= 4]
        place_by_mouse(alice, flipped[0])
        for page in (alice, bob):
            wait_ply(page, 1)

        # Yellow (bob) with the keyboard only.
        hint_says(bob, "Your turn: place a Yellow piece")
        wanted = [a for a in legal(bob, game_id)
                  if a["piece"] == "V5" and orientation("blokus2", a) > 0]
        place_by_keys(bob, wanted[0])
        wait_ply(alice, 2)

        # Red is alice's second colour: the turn hint says so; placed with the mouse.
        hint_says(alice, "Your turn: place a Red piece")
        red = alice.locator('.bk-scores li[data-colour="2"]')
        assert red.get_attribute("aria-current") == "true"
        place_by_mouse(alice, next(a for a in legal(alice, game_id) if a["piece"] == "Z5"))
        wait_ply(bob, 3)
        place_by_keys(bob, next(a for a in legal(bob, game_id) if a["piece"] == "W"))
        wait_ply(alice, 4)
        st = state(alice, game_id)["state"]
        for page in (alice, bob):
            assert squares(page) == board_of(st)
        assert alice.inner_text('.bk-scores li[data-colour="0"] .bk-score') == str(-(89 - 5))
        shot(alice, "blokus-desktop")
        for page in (alice, bob):
            assert page.errors == []

    run_in_browser(server, scenario)


def test_phone_places_by_taps_and_confirm(server: Any) -> None:
    game_id = two_player_game("blokus2")

    def scenario(new_page: Any) -> None:
        alice = open_game(new_page, game_id, "alice", **PHONE)
        box = alice.locator("#board svg.board").bounding_box()
        assert 330 <= box["width"] <= 390 and box["x"] >= 0  # the 20x20 board fits the width
        action = next(a for a in legal(alice, game_id)
                      if a["piece"] == "P" and orientation("blokus2", a) > 0)
        place_by_taps(alice, action)
        wait_ply(alice, 1)
        assert squares(alice) == {tuple(c): 0 for c in action["cells"]}
        # nothing is placed by a tap alone: the page sends no action until Confirm (it
        # sends from the tap's own handler, so once the ghost shows the tap was handled)
        bob = open_game(new_page, game_id, "bob", **PHONE)
        bob.evaluate(RECORD_SENT_ACTIONS)
        move = legal(bob, game_id)[0]
        bob.tap(f'.bk-piece[data-piece="{move["piece"]}"]')
        turn_to(bob, move["cells"], tap=True)
        bob.touchscreen.tap(*center(bob, *grip(move["cells"])))
        wait_ghost(bob, move["cells"])
        assert bob.evaluate("window.sentActions") == []
        bob.tap(".bk-move[data-dir='up']")  # the arrow buttons move the ghost
        bob.touchscreen.tap(*center(bob, *grip(move["cells"])))
        wait_ghost(bob, move["cells"])
        assert bob.evaluate("window.sentActions") == []
        assert bob.locator("#board svg.board").get_attribute("data-ply") == "1"
        shot(bob, "blokus-phone")
        bob.tap(".bk-confirm")
        wait_ply(bob, 2)
        assert [key(a["cells"]) for a in bob.evaluate("window.sentActions")] == [
            key(move["cells"])]
        for page in (alice, bob):
            assert page.errors == []

    run_in_browser(server, scenario)


def test_a_whole_duo_game_played_by_clicking(server: Any) -> None:
    game_id = two_player_game("blokus_duo")
    sizes = {p["name"]: p["size"] for p in board_spec("blokus_duo")["pieces"]}

    def scenario(new_page: Any) -> None:
        pages = [open_game(new_page, game_id, "alice"), open_game(new_page, game_id, "bob")]
        for _ in range(60):
            game = state(pages[0], game_id)
            if game["status"] != "active":
                break
            ply, seat = game["ply"], game["state"]["turn"]
            page = pages[seat]
            wait_ply(page, ply)
            page.wait_for_selector("#board .bk-controls:not([hidden])")
            actions = [a for a in legal(page, game_id) if a["type"] == "place"]
            assert actions, "the server records passes itself"
            # big pieces first, preferring orientations that need no turning
            best = max(actions, key=lambda a: (sizes[a["piece"]], -orientation("blokus_duo", a)))
            place_by_mouse(page, best)
            page.wait_for_function(
                f"Number(document.querySelector('#board svg.board').dataset.ply) > {ply}")
        final = state(pages[0], game_id)
        assert final["status"] == "finished" and final["result"]["reason"] == "score"
        for page in pages:
            page.wait_for_selector("#result:not([hidden])")
            wait_ply(page, final["ply"])
            assert squares(page) == board_of(final["state"])
            assert "score" in page.inner_text("#result")
            assert page.errors == []
        shot(pages[0], "blokus-duo-over")

        # The replay draws every position the server has (a board without a tray).
        replay = pages[1]
        for ply in (0, 5, final["ply"]):
            replay.goto(f"/games/{game_id}/replay/?ply={ply}")
            wait_ply(replay, ply)
            at = replay.evaluate("async ([id, n]) => (await (await fetch("
                                 "`/api/games/${id}/replay/?ply=${n}`)).json())", [game_id, ply])
            assert squares(replay) == board_of(at["state"])
            assert replay.locator(".bk-piece").count() == 0
        assert replay.errors == []

    run_in_browser(server, scenario)
