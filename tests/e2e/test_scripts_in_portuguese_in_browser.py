"""The scripts' words in Brazilian Portuguese, in real chromium (docs/web.md, "Translating
the pages' words").

A browser that asks for pt-BR (Playwright's `locale` and an Accept-Language header) opens
the lobby and plays a few moves against the computer: everything the scripts write (the
lobby's lists, the players' panel and its clock, the status line, the move list, chat,
buttons, the result) reads in Portuguese, and numbers, dates and relative times are
written the Brazilian way (1.512, "25 de nov. de 2026", "há 3 horas").
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.models import Game, Rating
from tests.conftest import ROOT
from tests.e2e.conftest import live_game, log_in, run_in_browser, shot
from tests.e2e.test_chat_in_browser import user

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

CATALOGUE = ROOT / "locale" / "pt_BR" / "LC_MESSAGES" / "djangojs.mo"
PORTUGUESE = {"locale": "pt-BR", "extra_http_headers": {"Accept-Language": "pt-BR,pt;q=0.9"},
              "viewport": {"width": 1280, "height": 900}}


def test_the_lobby_and_a_game_against_the_computer_read_in_portuguese(server: Any,
                                                                       worker: Any) -> None:
    assert Path(CATALOGUE).exists(), "compile the catalogues first: manage.py compilemessages"
    alice = user("alice")
    Rating.objects.create(user=alice, kind="quoridor", mu=25, sigma=2, games=30, rating=1512,
                          provisional=False)
    waiting = services.create_game(user=user("bob"), kind="quoridor",
                                   time_control={"initial": 300, "increment": 3})
    opened = timezone.now() - timedelta(hours=3, minutes=5)
    Game.objects.filter(pk=waiting.pk).update(created_at=opened)

    def scenario(new_page: Any) -> None:
        page = new_page(**PORTUGUESE)
        log_in(page, "alice")
        page.goto("/")
        assert page.evaluate("document.documentElement.lang") == "pt-br"

        # The lobby's lists, written by lobby.js.
        item = page.locator(f'#open-games li[data-game="{waiting.pk}"]')
        item.wait_for()
        text = item.inner_text()
        assert "1/2 lugares ocupados · 5 min + 3 s" in text, text
        assert item.locator("time.age").inner_text() == "há 3 horas"  # Intl.RelativeTimeFormat
        assert item.locator("button").inner_text() == "Entrar"
        join = item.locator("button")
        assert join.get_attribute("aria-label") == f"Entrar na partida {waiting.pk}"
        assert page.inner_text("#live-games") == "Ninguém está jogando agora."
        shot(page, "pt-lobby")

        # A game against the computer: the panel, the status line, chat and buttons.
        page.select_option("#computer-kind", "quoridor")
        page.select_option("#computer-bot-1", "easy")
        page.select_option("#computer-tc", "300+3")
        page.click("#computer-submit")
        page.wait_for_url(re.compile(r"/games/\d+/$"))
        live_game(page)
        page.wait_for_selector('#board svg[data-status="active"]')
        page.wait_for_selector("#board rect.cell.legal")
        assert page.inner_text("#status-line").strip().endswith(  # after the seat's chip
            "Sua vez: clique em uma casa destacada, ou em uma canaleta para pôr uma parede.")
        me = page.locator('#players li[data-seat="0"]')
        bot = page.locator('#players li[data-seat="1"]')
        assert "(você)" in me.inner_text()
        assert "rating 1.512" in me.inner_text()  # Intl.NumberFormat: a point between thousands
        assert "10 paredes" in me.inner_text() and "da vez" in me.inner_text()
        assert bot.locator(".name a").inner_text() == "Computador (fácil)"
        clock = me.locator(".clock")
        # the first move's window runs (0:30 or a little less), said in Portuguese
        assert re.fullmatch(r"0:[0-3]\d", clock.inner_text())
        assert clock.get_attribute("aria-label").startswith("Primeiro lance de Vermelho: ")
        assert page.inner_text("#first-move").startswith("Primeiro lance em até 0:")
        assert page.inner_text("#moves") == "Nenhum lance ainda."
        assert page.inner_text("#hint") == "Dica"
        assert page.inner_text("#barrier-mode") == "Modo parede: desligado"  # Quoridor's walls
        assert page.get_attribute("#chat-input", "placeholder") == "Diga alguma coisa…"
        assert page.inner_text("#chat-room") == "Bate-papo dos jogadores"
        assert page.get_attribute("#board svg", "aria-label").startswith("Tabuleiro de ")

        # Chat: a message's time, its full date the Brazilian way in its title.
        page.fill("#chat-input", "Olá!")
        page.press("#chat-input", "Enter")
        sent = page.locator("#chat-log li time")
        sent.wait_for()
        when = sent.get_attribute("title")
        assert re.fullmatch(r"\d{1,2} de [a-zç]{3,4}\.? de \d{4},? \d{2}:\d{2}", when), when

        # One move: the computer answers; the move list and the status message follow.
        page.locator("#board rect.cell.legal").first.click()
        page.wait_for_selector('#moves li[data-ply="2"]')
        said = page.inner_text("#status-msg")  # the computer's move in words
        assert re.fullmatch(
            r".+ \(Computador, fácil\) (moveu para|colocou uma parede \w+ em) \w+\.", said), said
        assert page.get_attribute('#moves li[data-ply="1"] a', "aria-label").startswith("lance 1, ")

        # Resigning: the result in words.
        page.click("#resign")
        page.click("#resign-confirm")
        page.wait_for_selector("#result:not([hidden])")
        result = page.inner_text("#result")
        assert "(Computador, fácil) venceu: " in result and "desistiu" in result, result
        assert "Rever esta partida" in result
        assert page.inner_text("#play-again") == "Jogar de novo contra o computador"
        assert "desistiu" in page.inner_text("#moves")
        shot(page, "pt-game-over")
        for english in ("Your turn", "seated", "Computer (", "No moves yet", "won:"):
            assert english not in page.inner_text("main"), english
        assert page.errors == []

    run_in_browser(server, scenario)
