"""Game chat in real chromium: two players, a signed-in spectator and a phone watcher.

Players talk in the players' room, the spectator in the spectators' (which the players do
not see while the game runs); script-looking messages show as literal text and run
nothing; sending too fast shows the refusal under the input; on a phone the panel opens
from its button.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from tests.e2e.conftest import live_game, log_in, run_in_browser, shot
from tests.e2e.conftest import live_user as user

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DESKTOP = {"viewport": {"width": 1280, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(2)</script>"

HAS_TEXT = """([text]) => [...document.querySelectorAll('#chat-log .chat-text')]
    .some((e) => e.textContent === text)"""
TEXTS = "els => els.map(e => e.textContent)"


def open_game(new_page: Any, game_id: int, username: str | None, dialogs: list[str],
              options: dict[str, Any] = DESKTOP) -> Any:
    page = new_page(**options)
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    if username:
        log_in(page, username)
    live_game(page, f"/games/{game_id}/")
    page.wait_for_selector('#board svg[data-status="active"]')
    return page


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")
    page.wait_for_function("!document.getElementById('chat-input').disabled")


def wait_text(page: Any, text: str) -> None:
    page.wait_for_function(HAS_TEXT, arg=[text])


def test_players_and_spectators_chat_and_nothing_runs(server):
    alice, bob = user("alice"), user("bob")
    user("carol")
    game = services.create_game(user=alice, kind="bloqueio2")
    services.join_game(game_id=game.pk, user=bob)
    run_in_browser(server, lambda new_page: chat_scenario(new_page, game.pk))


def chat_scenario(new_page: Any, game_id: int) -> None:
    dialogs: list[str] = []
    alice = open_game(new_page, game_id, "alice", dialogs)
    bob = open_game(new_page, game_id, "bob", dialogs)
    carol = open_game(new_page, game_id, "carol", dialogs)
    assert alice.inner_text("#chat-room") == "Players' chat"
    assert carol.inner_text("#chat-room") == "Spectators' chat"
    assert not alice.is_visible("#chat-toggle")  # wide screens: always open, no button

    say(alice, IMG)
    say(alice, SCRIPT)
    for page in (alice, bob):
        wait_text(page, IMG)
        wait_text(page, SCRIPT)
        # Literal text: no element was made from it, no handler ran.
        assert page.locator("#chat-log img, #chat-log script").count() == 0
        assert page.eval_on_selector_all("#chat-log .chat-text", TEXTS) == [IMG, SCRIPT]
        assert page.evaluate("() => window.__xss === undefined")
    say(carol, "bob should wall e5")
    wait_text(carol, "bob should wall e5")
    say(bob, "thanks all https://example.org")
    for page in (alice, bob):
        wait_text(page, "thanks all https://example.org")
        assert page.locator("#chat-log a").count() == 0  # links are not made clickable
    say(carol, SCRIPT)  # the spectators' room is text only too
    wait_text(carol, SCRIPT)
    # While the game runs each side reads only its own room, as each page says: the
    # players never got the spectator's messages, the spectator never got the players'.
    for page in (alice, bob):
        assert "bob should wall e5" not in page.eval_on_selector_all("#chat-log .chat-text",
                                                                     TEXTS)
        assert "Only the players read this room" in page.inner_text("#chat-note")
    assert carol.eval_on_selector_all("#chat-log .chat-text", TEXTS) == [
        "bob should wall e5", SCRIPT]
    assert carol.locator("#chat-log img, #chat-log script").count() == 0
    assert carol.evaluate("() => window.__xss === undefined")
    assert "players' chat opens when the game is over" in carol.inner_text("#chat-note")
    shot(carol, "chat-spectator")

    # Too fast: alice has sent 2; the 6th within 10 s is refused, shown under the input.
    for i in range(3):
        say(alice, f"quick {i}")
    say(alice, "one too many")
    alice.wait_for_selector("#chat-error:not([hidden])")
    assert "Too fast" in alice.inner_text("#chat-error")
    assert alice.input_value("#chat-input") == "one too many"  # kept, to send again

    # A phone watcher (not signed in): the panel opens from its button, read only.
    phone = open_game(new_page, game_id, None, dialogs, PHONE)
    assert not phone.is_visible("#chat-log")
    phone.click("#chat-toggle")
    wait_text(phone, "bob should wall e5")
    assert phone.is_visible("#chat-log") and not phone.is_visible("#chat-form")
    shot(phone, "chat-phone")

    # The game ends (bob resigns): the rooms merge on every open page, no reload (issue 45).
    bob.click("#resign")
    bob.click("#resign-confirm")
    for page in (alice, bob):
        wait_text(page, "bob should wall e5")
    wait_text(carol, "thanks all https://example.org")
    texts = alice.eval_on_selector_all("#chat-log .chat-text", TEXTS)
    assert texts.index("bob should wall e5") < texts.index("thanks all https://example.org")
    assert texts.count(SCRIPT) == 2  # alice's own and the spectator's, each once
    shot(alice, "chat-merged")

    assert dialogs == []
    for page in (alice, bob, carol, phone):
        assert page.errors == []
