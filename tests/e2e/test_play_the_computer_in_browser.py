"""Playing the computer in chromium, with the real background worker moving the bot.

Alice starts a two-seat Quoridor game against the easy bot from the lobby's "Play
against the computer" form and plays it to the end by clicking cells: on each of her
turns the pawn step (from the game's legal actions) that shortens her path most. The
bot's moves arrive over the game's socket like anyone's. Game ids start again at 1 in
this test, so the game id (the bot's seed) and so the whole game are the same on every
run. A second scenario seats and unseats bots on a waiting game's open seats.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection

from games import engine
from games.models import Game
from tests.conftest import clear_cache
from tests.e2e.conftest import live_game, run_in_browser, shot
from tests.e2e.test_play_in_browser import pawns, register, walls

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

MAX_PLIES = 120  # a safety net: the game ends long before
ME = 0


def api_get(page: Any, path: str) -> Any:
    """GET an API path with the page's session (what the page itself would see)."""
    return page.evaluate(
        "async (path) => { const r = await fetch(path, {headers: {Accept: 'application/json'}});"
        " return r.json(); }", path)


def best_step(rules: Any, state: Any) -> dict[str, Any]:
    """The pawn move that leaves ME the fewest steps to goal (ties: the first cell)."""
    moves = [a for a in rules.legal_actions(state) if a.to_json()["type"] == "move"]
    scored = sorted((rules.measure(rules.apply(state, a), ME), a.to_json()["to"], a.to_json())
                    for a in moves)
    return scored[0][2]


def play_out(page: Any, game_id: int, rules: Any, *, max_plies: int = MAX_PLIES,
             on_my_turn: Any = None) -> dict[str, Any]:
    """Play seat ME's turns by clicking `best_step` until the game is over; returns the
    game's final JSON. `on_my_turn(game)` looks at the page first on each turn."""
    while True:
        page.wait_for_function(
            "document.querySelector('#board svg').dataset.status !== 'active'"
            " || document.querySelector('#board rect.cell.legal') !== null", timeout=20_000)
        game = api_get(page, f"/api/games/{game_id}/")
        if game["status"] != "active":
            return game
        assert game["state"]["turn"] == ME and game["ply"] < max_plies
        if on_my_turn is not None:
            on_my_turn(game)
        r, c = best_step(rules, rules.state_from_json(game["state"]))["to"]
        page.click(f'#board rect.cell.legal[data-row="{r}"][data-col="{c}"]')
        page.wait_for_selector(f'#board svg:not([data-ply="{game["ply"]}"])')


@pytest.fixture
def game_ids_from_1() -> Iterator[None]:
    """The next game is #1, whatever ran before (the easy bot is seeded by the game id);
    afterwards the ids go on from the highest ever used, so no later test gets an id
    again (the services keep per-game-id caches in the test process)."""
    assert not Game.objects.exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_serial_sequence(%s, 'id')", [Game._meta.db_table])
        sequence = cursor.fetchone()[0]
        cursor.execute(f"SELECT last_value FROM {sequence}")  # a name from PostgreSQL
        before = cursor.fetchone()[0]
        cursor.execute("SELECT setval(%s, 1, false)", [sequence])
    clear_cache()  # bot-turn claims of an earlier run's (game 1, ply) must not linger
    yield
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT setval(%s, GREATEST(%s, (SELECT last_value FROM {sequence})))",
                       [sequence, before])


def test_a_whole_game_against_the_computer_from_the_lobby(server, worker, game_ids_from_1):
    run_in_browser(server, lambda new_page: play_the_computer(new_page, worker))
    assert worker.poll() is None, worker.log.read_text()[-2000:]


def play_the_computer(new_page, worker):
    rules = engine.get("quoridor")
    page = new_page(viewport={"width": 1280, "height": 860})
    register(page, "alice")

    # The form: one level select for Quoridor's one other seat, named by its colour.
    page.select_option("#computer-kind", "quoridor")
    # lobby.js, a module run once the page is parsed, hides the seats the kind lacks: under
    # load the page may be here first
    page.wait_for_selector('#computer-seats [data-seat="2"]', state="hidden")
    assert page.locator("#computer-seats [data-seat]:visible").count() == 1
    assert page.inner_text('#computer-seats [data-seat="1"] label').strip().endswith("Blue")
    offered = ('#computer-bot-1 option:not([hidden]):not([disabled])')
    assert "perfect" not in page.eval_on_selector_all(offered, "os => os.map(o => o.value)")
    page.select_option("#computer-kind", "blockade_run")  # solved: `perfect` is offered
    assert "perfect" in page.eval_on_selector_all(offered, "os => os.map(o => o.value)")
    page.select_option("#computer-bot-1", "perfect")
    page.select_option("#computer-kind", "quoridor")  # not offered there: another level
    assert page.input_value("#computer-bot-1") != "perfect"
    page.select_option("#computer-bot-1", "easy")
    shot(page, "lobby-computer")
    page.click("#computer-submit")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    live_game(page)
    game_id = int(page.url.rstrip("/").split("/")[-1])
    assert game_id == 1
    page.wait_for_selector('#board svg[data-status="active"]')

    # The bot's seat is the computer, with a badge and a link to its profile.
    bot = page.locator('#players li[data-seat="1"]')
    assert bot.locator(".name a").inner_text() == "Computer (easy)"
    assert bot.locator(".pill.bot").inner_text() == "bot"
    assert bot.locator(".name a").get_attribute("href") == "/users/easy-bot/"
    assert page.locator("#waiting").is_hidden()

    bot_plies = 0

    def bot_moved(game: dict[str, Any]) -> None:
        nonlocal bot_plies
        if game["ply"]:
            bot_plies += 1
            # The bot's move is on the board: the page shows the server's position.
            assert page.locator("#board svg").get_attribute("data-ply") == str(game["ply"])
            assert pawns(page) == {s: tuple(p) for s, p in enumerate(game["state"]["pawns"])}
            assert len(walls(page)) == len(game["state"]["barriers"])
            assert page.locator(f'#moves li[data-ply="{game["ply"]}"]').count() == 1
            if bot_plies == 2:
                shot(page, "game-vs-computer")

    game = play_out(page, game_id, rules, on_my_turn=bot_moved)

    page.wait_for_selector("#result:not([hidden])")
    result = page.inner_text("#result")
    winner = game["result"]["winner"]
    expected = "Red (alice) won" if winner == ME else "Blue (Computer, easy) won"
    assert expected in result, result
    assert "Blue (Computer, easy)" in result  # the ranking names the computer too
    assert bot_plies >= 3
    assert pawns(page) == {s: tuple(p) for s, p in enumerate(game["state"]["pawns"])}
    moves = page.eval_on_selector_all("#moves li", "els => els.map(e => e.dataset.ply)")
    assert moves == [str(n) for n in range(1, game["ply"] + 1)]
    shot(page, "game-vs-computer-over")

    # "Play again" starts the same match against the computer at once.
    page.click("#play-again")
    page.wait_for_url(re.compile(r"/games/2/$"))
    live_game(page)
    page.wait_for_selector('#board svg[data-status="active"]')
    assert page.locator('#players li[data-seat="1"] .name a').inner_text() == "Computer (easy)"

    # The bot's profile: the computer at its level, its rating from this game.
    page.click('#players li[data-seat="1"] .name a')
    page.wait_for_url("**/users/easy-bot/")
    assert page.inner_text("#profile-name").startswith("Computer (easy)")
    assert "playing at the easy level" in page.inner_text("#bot-about")
    page.wait_for_selector("#charts svg, #charts .empty")
    shot(page, "profile-bot")
    assert page.errors == []


def test_seating_and_unseating_bots_on_a_waiting_game(server):
    run_in_browser(server, add_and_remove_bots)


def add_and_remove_bots(new_page):
    page = new_page(viewport={"width": 1280, "height": 860})
    register(page, "bob")
    page.select_option("#create-kind", "quoridor4")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    live_game(page)
    page.wait_for_selector("#waiting-bots:not([hidden])")

    # Every open seat offers a bot; a bot seat offers "Remove".
    assert page.locator("[data-add-bot]").count() == 3
    page.select_option('[data-bot-level="2"]', "hard")
    page.click('[data-add-bot="2"]')
    seat = page.locator('#players li[data-seat="2"]')
    seat.locator(".pill.bot").wait_for()
    assert seat.locator(".name a").inner_text() == "Computer (hard)"
    assert page.locator("[data-add-bot]").count() == 2
    assert "2 of 4 seats taken" in page.inner_text("#status-line")
    shot(page, "game-add-bot")

    page.click('[data-remove-bot="2"]')
    seat.locator("text=open seat").wait_for()
    assert page.locator("[data-remove-bot]").count() == 0

    # A spectator sees the bots, but no controls.
    watcher = new_page(viewport={"width": 1100, "height": 800})
    live_game(watcher, page.url)
    watcher.wait_for_selector('#board svg[data-status="waiting"]')
    page.click('[data-add-bot="1"]')  # easy, the first level
    watcher.locator('#players li[data-seat="1"] .pill.bot').wait_for()
    assert watcher.locator("[data-add-bot], [data-remove-bot]").count() == 0
    assert watcher.locator("#waiting-bots").is_hidden()

    # The last seat filled by a bot starts the game; the controls go.
    page.locator('[data-add-bot="2"]').wait_for()
    page.click('[data-add-bot="2"]')
    page.locator('[data-add-bot="3"]').wait_for()
    page.click('[data-add-bot="3"]')
    for viewer in (page, watcher):
        viewer.wait_for_selector('#board svg[data-status="active"]')
        assert viewer.locator("[data-add-bot], [data-remove-bot]").count() == 0
    assert page.locator("#players .pill.bot").count() == 3
    shot(page, "game-bots-seated")

    # The lobby's live list names the computer too.
    game_id = page.url.rstrip("/").split("/")[-1]
    watcher.goto("/")
    live = watcher.locator(f'#live-games li[data-game="{game_id}"]')
    live.wait_for()
    assert live.locator(".pill.bot").count() == 3
    assert "Computer (hard)" in live.inner_text()
    assert page.errors == [] and watcher.errors == []
