"""Issue 28, a newcomer's words and lists in a browser: the Hint button of a casual game
(the player to move only), a move list whose entries never overlap or break, a result
and a replay caption in words, the kind menu, the leaderboard right after a ranked
game, and a 150-character user name that stays inside the screen."""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import engine, services
from tests.e2e.conftest import live_game, log_in, run_in_browser, shot
from tests.e2e.test_blockade_in_browser import (
    DESKTOP,
    PHONE,
    RUN_SCRIPT,
    open_game,
    two_player_game,
    user,
    wait_ply,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Every entry of the move list: its box, and whether its text fits on one line.
ENTRIES_JS = """() => [...document.querySelectorAll('#moves li')].map((li) => {
  const r = li.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(li.firstElementChild || li).lineHeight) || 20;
  return {x: r.left, y: r.top, w: r.width, h: r.height, text: li.innerText,
          fits: li.scrollWidth <= li.clientWidth + 1, oneLine: r.height < 2 * line};
})"""


def _assert_entries_apart(page: Any) -> None:
    entries = page.evaluate(ENTRIES_JS)
    assert entries
    for e in entries:
        assert e["fits"] and e["oneLine"], e
    for i, a in enumerate(entries):
        for b in entries[i + 1:]:
            apart = (a["x"] + a["w"] <= b["x"] + 0.5 or b["x"] + b["w"] <= a["x"] + 0.5
                     or a["y"] + a["h"] <= b["y"] + 0.5 or b["y"] + b["h"] <= a["y"] + 0.5)
            assert apart, (a, b)


def _play(game_id: int, players: list[Any], kind: str, script: list[str]) -> None:
    rules = engine.get(kind)
    for ply, text in enumerate(script):
        services.submit_action(game_id=game_id, user=players[ply % 2],
                               action=rules.parse_notation(text).to_json(), ply=ply)


def test_hint_is_offered_to_the_player_to_move_with_its_reason(server: Any) -> None:
    game_id, _, _ = two_player_game("blockade_run")
    carol, dave = user("carol"), user("dave")
    ranked = services.start_ranked_game(kind="blockade_run", user_ids=[carol.pk, dave.pk])

    def scenario(new_page: Any) -> None:
        page = open_game(new_page, game_id, "alice")
        page.wait_for_selector("#hint", state="visible")
        page.click("#hint")
        page.wait_for_selector("#board .suggestion .suggest")
        text = page.inner_text("#hint-text")
        assert re.fullmatch(r"Hint: \S+ \(.+\)\.", text), text
        assert "you" not in text.lower()
        shot(page, "words-hint")
        other = open_game(new_page, game_id, "bob")  # not bob's turn
        assert other.locator("#hint").is_hidden()
        watcher = open_game(new_page, game_id, None)
        assert watcher.locator("#hint").count() == 0 or watcher.locator("#hint").is_hidden()
        rated = new_page(**DESKTOP)
        log_in(rated, "carol")  # the lobby sends her to her live ranked game
        rated.wait_for_url(re.compile(rf"/games/{ranked.pk}/$"))
        live_game(rated)
        rated.wait_for_selector('#board svg[data-status="active"]')
        assert rated.locator("#hint").count() == 0
        for p in (page, other, watcher, rated):
            assert p.errors == []

    run_in_browser(server, scenario)


def test_move_list_result_and_caption_in_words(server: Any) -> None:
    game_id, alice, bob = two_player_game("blockade_run")
    _play(game_id, [alice, bob], "blockade_run", RUN_SCRIPT[:6])
    services.resign(game_id=game_id, user=bob)
    fresh, _, _ = _another_game()
    timed, _, _ = _another_game("gina", "hank")
    services.remove_seat(game_id=timed, seat=1, why="timeout")  # as the clock does

    def scenario(new_page: Any) -> None:
        for options in (DESKTOP, PHONE):
            page = new_page(**options)
            live_game(page, f"/games/{game_id}/")
            page.wait_for_selector('#board svg[data-status="finished"]')
            _assert_entries_apart(page)
            result = page.inner_text("#result h2")
            assert "resigned" in result and "last player" not in result, result
            assert page.locator("#play-again").count() == 0  # signed out: "New game"
            shot(page, f"words-moves-{options['viewport']['width']}")
        replay = new_page(**DESKTOP)
        replay.goto(f"/games/{game_id}/replay/?ply=7")
        wait_ply(replay, 7)
        caption = replay.inner_text("#replay-status")
        assert "resigned" in caption and not re.search(r"resign:\d", caption), caption
        _assert_entries_apart(replay)
        empty = new_page(**PHONE)
        live_game(empty, f"/games/{fresh}/")
        empty.wait_for_selector("#moves li.empty")
        _assert_entries_apart(empty)
        log_in(empty, "alice")
        live_game(empty, f"/games/{game_id}/")
        empty.wait_for_selector("#play-again")
        assert empty.inner_text("#play-again") != "Play again"
        assert "not invited" in empty.inner_text("#result")
        lost = new_page(**PHONE)
        live_game(lost, f"/games/{timed}/")
        lost.wait_for_selector('#board svg[data-status="finished"]')
        result = lost.inner_text("#result h2")
        assert "ran out of time" in result and "last player" not in result, result
        _assert_entries_apart(lost)

    run_in_browser(server, scenario)


def _another_game(first: str = "erin", second: str = "frank") -> tuple[int, Any, Any]:
    alice, bob = user(first), user(second)
    game = services.create_game(user=alice, kind="blockade")
    services.join_game(game_id=game.pk, user=bob)
    return game.pk, alice, bob


def test_lobby_kind_menu_leaderboard_and_a_long_name(server: Any) -> None:
    long_name = "l" * 150
    alice, bob = user(long_name), user("bob")
    game = services.start_ranked_game(kind="bloqueio2", user_ids=[alice.pk, bob.pk])
    for ply, (who, to) in enumerate(((alice, [2, 5]), (bob, [8, 5]), (alice, [3, 5]),
                                     (bob, [7, 5]))):
        services.submit_action(game_id=game.pk, user=who, action={"type": "move", "to": to},
                               ply=ply)
    services.resign(game_id=game.pk, user=bob)
    casual = services.create_game(user=alice, kind="bloqueio")
    del casual

    def scenario(new_page: Any) -> None:
        for options in (PHONE, DESKTOP):
            page = new_page(**options)
            log_in(page, long_name)
            page.goto("/")
            page.wait_for_selector("#open-games li[data-game]")
            width = page.evaluate("document.documentElement.clientWidth")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            rights = page.evaluate("""() => [...document.querySelectorAll(
                '.site-header, .site-header .who, #open-games li, #open-games .uname')]
                .map((e) => [e.className, Math.round(e.getBoundingClientRect().right)])""")
            assert rights and all(right <= width for _, right in rights), (width, rights)
            labels = page.eval_on_selector_all("#computer-kind option",
                                               "os => os.map(o => o.textContent)")
            twice = [t for t in labels if re.search(r"players\).*players\)", t)]
            assert labels and not twice, labels
            assert all(re.search(r"\(\d players\)$", t) for t in labels), labels
            shot(page, f"words-long-name-{options['viewport']['width']}")
        board = new_page(**DESKTOP)
        board.goto("/leaderboard/bloqueio2/")
        board.wait_for_selector("#provisional:not([hidden])")
        board.wait_for_function("document.getElementById('lb-status').textContent !== 'Loading…'")
        status = board.inner_text("#lb-status")
        assert "Nobody has played" not in status and "provisional" in status, status

    run_in_browser(server, scenario)


def test_two_player_blokus_marks_each_move_with_the_colour_that_moved(server: Any) -> None:
    game_id, alice, bob = two_player_game("blokus2")
    rules = engine.get("blokus2")
    state = rules.initial()
    for ply in range(3):  # blue (alice), yellow (bob), red (alice)
        action = rules.legal_actions(state)[0]
        services.submit_action(game_id=game_id, user=(alice, bob)[ply % 2],
                               action=action.to_json(), ply=ply)
        state = rules.apply(state, action)

    def scenario(new_page: Any) -> None:
        page = open_game(new_page, game_id, "alice")
        marks = page.eval_on_selector_all("#moves li .who", "els => els.map(e => e.textContent)")
        assert marks == ["B", "Y", "R"], marks
        action = rules.legal_actions(state)[0].to_json()  # green, live, from bob's page
        other = open_game(new_page, game_id, "bob")  # live: past its socket's hello
        sent = other.evaluate(
            "(a) => window.bloqueioSocket.send({type: 'action', action: a, ply: 3})", action)
        assert sent is True
        page.wait_for_selector('#moves li[data-ply="4"]')
        marks = page.eval_on_selector_all("#moves li .who", "els => els.map(e => e.textContent)")
        assert marks == ["B", "Y", "R", "G"], marks

    run_in_browser(server, scenario)


def test_quoridor_pages_speak_of_walls_and_of_no_marked_cells(server: Any) -> None:
    """Quoridor has walls and goal bands outside the board; Bloqueio has barriers and
    goal cells marked with the seat's initial: each page uses its own board's words
    (the spec's `words`), in the legend, the turn line, the mode button and the notes."""
    quoridor, _, _ = two_player_game("quoridor")
    carol, dave = user("carol"), user("dave")
    bloqueio = services.create_game(user=carol, kind="bloqueio2")
    services.join_game(game_id=bloqueio.pk, user=dave)

    def scenario(new_page: Any) -> None:
        page = open_game(new_page, quoridor, "alice")
        legend = page.inner_text("#board-legend")
        assert "cells marked" not in legend and "band in your colour" in legend, legend
        texts = " ".join(page.inner_text(selector)
                         for selector in ("#board-legend", "#barrier-mode", "#status-line"))
        assert "arrier" not in texts and "wall" in texts.lower(), texts
        assert "10 walls" in page.inner_text("#players")
        page = open_game(new_page, bloqueio.pk, "carol")
        assert "cells marked" in page.inner_text("#board-legend")
        assert page.inner_text("#barrier-mode").startswith("Barrier mode")

    run_in_browser(server, scenario)
