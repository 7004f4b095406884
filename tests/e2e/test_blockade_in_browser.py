"""The blockade family's board in real chromium pages: two players and a spectator.

Blockade: X and O alternate clicking marked cells (one by keyboard) until a seat cannot
place; an illegal click is refused with the engine's reason. Blockade Run: every turn is
a step click then a block click; the step is taken back once by Escape, once by the
"Undo step" button and once by clicking it again; a refused block shows the engine's
reason; the winning step is a single click. The boards match the engine at the end.
"""

from __future__ import annotations

import shutil
from typing import Any

import pytest

from accounts.models import User
from games import engine, services
from tests.e2e.conftest import live_game, log_in, run_in_browser, shot
from tests.e2e.conftest import live_user as user

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}
# Red runs down column c and wins on c4; green steps aside and up column d/e.
RUN_SCRIPT = ["c1^a0", "d4^e0", "c2^a1", "d3^e1", "c3^b0", "e3^d0", "c4"]


# In a page of the site: the board module's formatAction of each action, and its
# parseNotation of that text back (for the kind).
NOTATION_JS = """async ({kind, actions}) => {
  const game = document.querySelector('script[src*="/js/"][type="module"]').src;
  const m = await import(new URL("boards/blockade.js", game).href);
  return actions.map((a) => {
    const text = m.formatAction(a, 0);
    return [text, m.parseNotation(text, {kind})];
  });
}"""


def two_player_game(kind: str) -> tuple[int, User, User]:
    alice, bob = user("alice"), user("bob")
    game = services.create_game(user=alice, kind=kind)
    services.join_game(game_id=game.pk, user=bob)
    return game.pk, alice, bob


def open_game(new_page: Any, game_id: int, username: str | None, **options: Any) -> Any:
    page = new_page(**(options or DESKTOP))
    if username:
        log_in(page, username)
    live_game(page, f"/games/{game_id}/")
    page.wait_for_selector('#board svg[data-status="active"]')
    return page


def center(page: Any, r: int, c: int) -> tuple[float, float]:
    box = page.locator(f'#board rect.cell[data-row="{r}"][data-col="{c}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def click_cell(page: Any, cell: list[int]) -> None:
    page.mouse.click(*center(page, *cell))


def wait_ply(page: Any, ply: int) -> None:
    page.wait_for_selector(f'#board svg[data-ply="{ply}"]')


def legal_cells(page: Any) -> list[tuple[int, int]]:
    page.wait_for_selector("#board .legal-dot")
    found = page.eval_on_selector_all(
        "#board rect.cell.legal", "els => els.map(e => [e.dataset.row, e.dataset.col])")
    return sorted((int(r), int(c)) for r, c in found)


def cells_of(page: Any, selector: str) -> dict[tuple[int, int], str]:
    found = page.eval_on_selector_all(
        f"#board svg {selector}",
        "els => els.map(e => [e.dataset.row, e.dataset.col, e.dataset.seat || ''])")
    return {(int(r), int(c)): s for r, c, s in found}


def status(page: Any) -> str:
    return page.inner_text("#status-msg")


def save(page: Any, name: str) -> None:
    path = shot(page, name)
    shutil.copy(path, f"/tmp/{name}.png")


# -- Blockade -----------------------------------------------------------------------------

def test_blockade_two_players_and_a_spectator(server: Any) -> None:
    game_id, _, _ = two_player_game("blockade")
    run_in_browser(server, lambda new_page: blockade_game(new_page, game_id))


def blockade_game(new_page: Any, game_id: int) -> None:
    rules = engine.get("blockade")
    players = [open_game(new_page, game_id, "alice"), open_game(new_page, game_id, "bob", **PHONE)]
    watcher = open_game(new_page, game_id, None, **PHONE)
    for page in (*players, watcher):
        assert page.locator("#board svg").get_attribute("data-rotation") == "0"
    state = rules.initial()
    actions: list[dict[str, Any]] = []
    while rules.result(state) is None:
        ply = len(actions)
        page = players[state.turn]
        expected = sorted(tuple(a.to_json()["at"]) for a in rules.legal_actions(state))
        assert legal_cells(page) == expected, ply
        cell = [2, 2] if ply == 0 else list(expected[0])
        if ply == 1:
            # O's first turn: an occupied cell is refused with the engine's reason.
            click_cell(page, [2, 2])
            page.wait_for_selector("#status-msg.error")
            assert "You can't place on c2: cell c2 is occupied" in status(page)
            assert page.locator("#board svg").get_attribute("data-ply") == "1"
            save(page, "blockade-phone-refused")
        if ply == 2:
            # X's second turn by keyboard: the first arrow shows the cursor on O's last
            # placement, the next one moves it onto the chosen cell, Enter places.
            last = state.to_json()["last"]["at"]
            dr, dc = cell[0] - last[0], cell[1] - last[1]
            arrow = {(-1, 0): "ArrowUp", (1, 0): "ArrowDown", (0, -1): "ArrowLeft",
                     (0, 1): "ArrowRight"}[(dr, dc)]
            page.focus("#board svg")
            page.keyboard.press(arrow)
            page.keyboard.press(arrow)
            assert page.locator("#board rect.cell.cursor").get_attribute("data-row") == str(cell[0])
            assert f"Cursor on {_name(cell)}, empty" in status(page)
            page.keyboard.press("Enter")
        else:
            click_cell(page, cell)
        action = {"type": "place", "at": cell}
        wait_ply(page, ply + 1)
        actions.append(action)
        state = rules.apply(state, action)
        if ply == 6:
            save(players[0], "blockade-desktop")
    final = state.to_json()
    result = rules.result(state)
    assert result is not None and result.reason == "blocked"
    winner = ["X (alice)", "O (bob)"][result.winner]
    marks = {(r, c): str(v) for r, row in enumerate(final["board"]) for c, v in enumerate(row)
             if v is not None}
    for page in (*players, watcher):
        wait_ply(page, len(actions))
        page.wait_for_selector("#result:not([hidden])")
        assert f"{winner} won: the opponent was blocked." in page.inner_text("#result")
        assert cells_of(page, ".mark") == marks
        assert cells_of(page, '.mark[data-last="true"]') == {tuple(final["last"]["at"]): str(
            final["last"]["seat"])}
        assert page.locator("#board .legal-dot").count() == 0
        moves = page.eval_on_selector_all("#moves li", "els => els.map(e => e.dataset.ply)")
        assert moves == [str(n) for n in range(1, len(actions) + 1)]
    assert watcher.inner_text("#moves").split()[-1] == rules.format_action(
        rules.parse_action(actions[-1]))
    save(watcher, "blockade-phone-over")

    texts = watcher.evaluate(NOTATION_JS, {"kind": "blockade", "actions": actions})
    assert [a for _, a in texts] == actions
    assert [t for t, _ in texts] == [rules.format_action(rules.parse_action(a)) for a in actions]

    watcher.goto(f"/games/{game_id}/replay/?ply={len(actions)}")
    wait_ply(watcher, len(actions))
    for ply in range(len(actions), -1, -1):
        if ply < len(actions):
            watcher.keyboard.press("ArrowLeft")
            wait_ply(watcher, ply)
        st = rules.replay(actions[:ply]).to_json()
        assert cells_of(watcher, ".mark") == {
            (r, c): str(v) for r, row in enumerate(st["board"]) for c, v in enumerate(row)
            if v is not None}, ply
        assert set(cells_of(watcher, '.mark[data-last="true"]')) == (
            {tuple(st["last"]["at"])} if st["last"] else set()), ply
    save(watcher, "blockade-phone-replay")
    for page in (*players, watcher):
        assert page.errors == []


def _name(cell: list[int]) -> str:
    return f"{chr(ord('a') + cell[1])}{cell[0]}"


# -- Blockade Run ---------------------------------------------------------------------------

def test_blockade_run_two_step_turns_to_a_win(server: Any) -> None:
    game_id, _, _ = two_player_game("blockade_run")
    run_in_browser(server, lambda new_page: run_game(new_page, game_id))


def run_game(new_page: Any, game_id: int) -> None:
    rules = engine.get("blockade_run")
    actions = [rules.parse_notation(t).to_json() for t in RUN_SCRIPT]
    final = rules.replay(actions)
    assert rules.result(final).winner == 0
    red = open_game(new_page, game_id, "alice")
    green = open_game(new_page, game_id, "bob", **PHONE)
    watcher = open_game(new_page, game_id, None)
    players = [red, green]

    # Each player sees its own start side at the bottom: red's board is turned around.
    assert red.locator("#board svg").get_attribute("data-rotation") == "2"
    assert green.locator("#board svg").get_attribute("data-rotation") == "0"
    for page, seat in ((red, 0), (green, 1)):
        board = page.locator("#board svg").bounding_box()
        pawn = page.locator(f'#board .pawn[data-seat="{seat}"]').bounding_box()
        assert pawn["y"] > board["y"] + board["height"] / 2, seat
    assert watcher.locator("#board svg").get_attribute("data-rotation") == "0"

    # Repaints keep what did not change: green's pawn node survives red's first run.
    green_pawn = watcher.locator('#board .pawn[data-seat="1"]').element_handle()
    state = rules.initial()
    for ply, action in enumerate(actions):
        if ply == 1:
            assert green_pawn.evaluate("el => el.isConnected")
        page = players[state.turn]
        legal = rules.legal_actions(state)
        steps = sorted({tuple(a.to_json()["to"]) for a in legal})
        assert legal_cells(page) == steps, ply
        to, block = action["to"], action.get("block")
        if ply == 5:
            # Typed instead of clicked: the module's parseNotation reads "e3^d0".
            page.fill("#notation", RUN_SCRIPT[ply])
            page.press("#notation", "Enter")
            wait_ply(page, ply + 1)
        elif block is None:
            # The winning step: a single click sends it, no block asked.
            assert page.locator("#board .win-dot").count() >= 1
            click_cell(page, to)
            wait_ply(page, ply + 1)
            assert page.locator("#step-bar").is_hidden()
        else:
            blocks = sorted(tuple(a.to_json()["block"]) for a in legal
                            if a.to_json()["to"] == to)
            click_cell(page, to)
            page.wait_for_selector("#step-bar:not([hidden])")
            assert "Now block a cell (Esc to undo the step)" in status(page)
            assert cells_of(page, ".ghost") == {tuple(to): str(state.turn)}
            assert legal_cells(page) == blocks
            assert page.locator("#board .block-dot").count() == len(blocks)
            if ply in (0, 1, 2):
                if ply == 0:
                    save(page, "run-desktop-block-step")
                    page.keyboard.press("Escape")
                elif ply == 1:
                    page.click("#undo-step")
                else:
                    click_cell(page, to)  # the step again
                page.wait_for_selector("#step-bar", state="hidden")
                assert page.locator("#board .ghost").count() == 0
                assert legal_cells(page) == steps
                assert "Step taken back" in status(page)
                click_cell(page, to)
                page.wait_for_selector("#step-bar:not([hidden])")
            if ply == 3:
                # Blocking the cell under the opponent's pawn is refused, with the reason.
                other = state.to_json()["pawns"][1 - state.turn]
                click_cell(page, other)
                page.wait_for_selector("#status-msg.error")
                assert (f"You can't block {_name(other)}: cell {_name(other)} "
                        "is under a pawn") in status(page)
                assert page.locator("#step-bar").is_visible()
                save(page, "run-phone-refused-block")
            click_cell(page, block)
            wait_ply(page, ply + 1)
        state = rules.apply(state, action)
        watcher.wait_for_selector(f'#board svg[data-ply="{ply + 1}"]')
        assert cells_of(watcher, ".pawn") == {
            tuple(p): str(s) for s, p in enumerate(state.to_json()["pawns"])}

    end = final.to_json()
    for page in (*players, watcher):
        wait_ply(page, len(actions))
        page.wait_for_selector("#result:not([hidden])")
        assert "Red (alice) won: reached the goal." in page.inner_text("#result")
        assert cells_of(page, ".pawn") == {tuple(p): str(s) for s, p in enumerate(end["pawns"])}
        assert set(cells_of(page, ".block")) == {tuple(b) for b in end["blocks"]}
        assert cells_of(page, '.pawn[data-last="true"]') == {(4, 2): "0"}
        assert page.locator("#board .ghost").count() == 0
    assert watcher.inner_text("#moves").split()[-1] == "c4"
    assert "c3^b0" in watcher.inner_text("#moves")
    save(green, "run-phone-over")
    save(red, "run-desktop-over")

    # The module's notation is the engine's, for every action of the game.
    texts = watcher.evaluate(NOTATION_JS, {"kind": "blockade_run", "actions": actions})
    assert [t for t, _ in texts] == RUN_SCRIPT
    assert [a for _, a in texts] == actions

    # The replay viewer draws every ply as the engine has it.
    watcher.goto(f"/games/{game_id}/replay/?ply=0")
    wait_ply(watcher, 0)
    assert watcher.locator("#board svg").get_attribute("data-rotation") == "0"
    for ply in range(len(actions) + 1):
        if ply:
            watcher.keyboard.press("ArrowRight")
            wait_ply(watcher, ply)
        st = rules.replay(actions[:ply]).to_json()
        assert cells_of(watcher, ".pawn") == {tuple(p): str(s) for s, p in enumerate(st["pawns"])}
        assert set(cells_of(watcher, ".block")) == {tuple(b) for b in st["blocks"]}, ply
        lit = set(cells_of(watcher, '.block[data-last="true"]'))
        assert lit == ({tuple(actions[ply - 1]["block"])} if ply and "block" in actions[ply - 1]
                       else set()), ply
    save(watcher, "run-replay")
    for page in (*players, watcher):
        assert page.errors == []
