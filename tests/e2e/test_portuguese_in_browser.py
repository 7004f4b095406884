"""A newcomer with a Portuguese browser, in chromium: signs up, reads the Bloqueio rules,
plays the computer to the end and reads the result, all in Brazilian Portuguese.

The browser says `pt-BR` (Playwright's `locale`, so Accept-Language and
navigator.language); nobody touches the language switcher. Every page along the way
says `<html lang="pt-br">`, shows the Portuguese words checked below, and none of the
English sentences the site shows English readers. The game is two-seat Bloqueio against
the easy bot, played to the end by stepping the pawn along its shortest path.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import engine
from tests.conftest import PASSWORD
from tests.e2e.conftest import live_game, run_in_browser, shot
from tests.e2e.test_play_the_computer_in_browser import play_out

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

KIND = "bloqueio2"
MAX_PLIES = 160  # a safety net: the game ends long before
# English the site shows English readers, page by page (whole words, any case): none
# may show in the Portuguese pages.
ENGLISH = {
    "lobby": ["Open games", "Live now", "Register to play", "Log in", "The games", "Rules of",
              "players", "Loading", "Play against the computer", "Time control", "Seat",
              "Easy", "Medium", "Hard", "Your games"],
    "register": ["Create your account", "Username", "Password", "Already registered",
                 "Register"],
    "rules": ["How to play", "players", "board", "ranked games use a clock",
              "The starting position", "Every game", "Leaderboard", "barrier", "pawn",
              "goal", "your pawn", "moves", "turn", "wins"],  # not "move": Portuguese too
    "game": ["Players", "watching", "Moves", "Resign", "Your turn", "to move", "Chat",
             "Show chat", "No messages yet", "Replay", "Report", "Hint", "Red", "Green",
             "Computer", "barriers", "left", "won", "wins", "Play again", "New game",
             "ranking", "plies", "Finished", "Game over"],
}


def body_text(page: Any) -> str:
    """What the page shows, with its labels for screen readers."""
    return page.evaluate(
        "() => document.body.innerText + ' ' + [...document.querySelectorAll("
        "'[aria-label],[title],[placeholder],[alt]')].map(e => [e.getAttribute('aria-label'),"
        " e.getAttribute('title'), e.getAttribute('placeholder'), e.getAttribute('alt')]"
        ".filter(Boolean).join(' ')).join(' ')")


def english_in(text: str, words: list[str]) -> list[str]:
    return [w for w in words if re.search(rf"\b{re.escape(w)}\b", text, re.I)]


def assert_portuguese(page: Any, where: str, *expected: str) -> None:
    assert page.get_attribute("html", "lang") == "pt-br", where
    text = body_text(page)
    for words in expected:
        assert words in text, (where, words)
    assert english_in(text, ENGLISH[where]) == [], (where, english_in(text, ENGLISH[where]))


def test_a_portuguese_newcomer_signs_up_reads_the_rules_and_beats_the_computer(server,
                                                                               worker):
    run_in_browser(server, newcomer)
    assert worker.poll() is None, worker.log.read_text()[-2000:]


def newcomer(new_page: Any) -> None:
    page = new_page(locale="pt-BR", viewport={"width": 1280, "height": 900})
    page.goto("/")
    assert_portuguese(page, "lobby", "Partidas abertas", "Cadastre-se para jogar",
                      "Os jogos", "Regras de Bloqueio")
    shot(page, "pt-lobby-visitor")

    # Sign up.
    page.click("text=Cadastre-se para jogar")
    page.wait_for_url("**/accounts/register/")
    assert_portuguese(page, "register", "Crie a sua conta", "Nome de usuário", "Senha")
    page.fill("#id_username", "joana")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/$"))
    assert page.locator(".site-header .who").inner_text() == "joana"
    assert_portuguese(page, "lobby", "Jogar contra o computador", "Suas partidas",
                      "Controle de tempo")

    # Read the rules of Bloqueio.
    page.click('#games li[data-kind="bloqueio"] a[href="/rules/bloqueio/"]')
    page.wait_for_url("**/rules/bloqueio/")
    assert_portuguese(page, "rules", "Bloqueio", "barreira", "peão", "Jogador 1")
    shot(page, "pt-rules-bloqueio")

    # Play the computer: two-seat Bloqueio against the easy bot.
    page.goto("/#computer")
    page.select_option("#computer-kind", KIND)
    page.select_option("#computer-bot-1", "easy")
    level = page.inner_text('#computer-bot-1 option[value="easy"]')
    assert level == "Fácil", level
    page.click("#computer-submit")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    live_game(page)
    game_id = int(page.url.rstrip("/").split("/")[-1])
    page.wait_for_selector('#board svg[data-status="active"]')
    assert_portuguese(page, "game", "Jogadores", "Lances", "Vermelho", "Verde")
    shot(page, "pt-game-vs-computer")

    game = play_out(page, game_id, engine.get(KIND), max_plies=MAX_PLIES)

    # The result, in Portuguese.
    page.wait_for_selector("#result:not([hidden])")
    result = page.inner_text("#result")
    winner = ("Vermelho", "Verde")[game["result"]["winner"]]
    assert winner in result and "joana" in result and "Computador" in result, result
    assert_portuguese(page, "game", "Vermelho", "Verde")
    shot(page, "pt-game-vs-computer-over")
    assert page.errors == []
