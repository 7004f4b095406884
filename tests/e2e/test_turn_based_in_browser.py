"""A turn-based four-player game among four people over several "days", in real chromium
pages, with the e-mail read from a real SMTP server (aiosmtpd on loopback) that both the
web server and the worker send to (docs/api.md, "Notifications").

Alice opts in to "your turn" e-mails on the notifications page and creates a Bloqueio
game of one day a move from the lobby; three friends take the other seats. Her page
shows days left instead of a ticking clock and her badge lights up; the worker mails
her; she moves and Bob's badge (on another page) lights up live. A day passes for Bob
(the clock injected: `days_pass`), the worker flags him and the others play on; most of
another day passes on Alice's turn and her page counts the hours left. Alice
opens the e-mail's link, and a signed-out browser stops those e-mails with the
e-mail's unsubscribe link. Dave, who forgot his password, resets it from the e-mail.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller

from accounts.models import User
from games import engine, services
from games.models import Game, Seat
from notifications.services import email_choice
from tests.e2e.conftest import live_game, log_in, run_in_browser, shot
from tests.e2e.conftest import live_user as user
from tests.games.time_travel import days_pass
from tests.live.servers import Server, start, stop
from tests.live.servers import worker as background_worker
from tests.mailbox import Mailbox, body, free_port
from tests.threads import in_thread

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "a-new-horse-battery-77"


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield box, controller.port
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def mail_server(smtp: tuple[Mailbox, int], django_db_setup: Any, django_db_blocker: Any,
                tmp_path_factory: Any) -> Iterator[Server]:
    """A web server whose e-mail (password resets) goes to the test's SMTP server, its
    links starting with its own address (SITE_URL: a link never takes the request's)."""
    port = free_port()
    with django_db_blocker.unblock():
        daphne = start(tmp_path_factory.mktemp("daphne"), port=port,
                       env={"EMAIL_URL": f"smtp://127.0.0.1:{smtp[1]}",
                            "SITE_URL": f"http://127.0.0.1:{port}"})
    try:
        yield daphne
    finally:
        stop(daphne)


@pytest.fixture
def mail_worker(mail_server: Server, smtp: tuple[Mailbox, int], tmp_path: Path
                ) -> Iterator[Any]:
    """The worker (clocks, notification e-mail), mailing to the test's SMTP server with
    links to the live server."""
    with background_worker(tmp_path, env={"EMAIL_URL": f"smtp://127.0.0.1:{smtp[1]}",
                                          "SITE_URL": mail_server.http}) as process:
        yield process




db = in_thread  # Django's sync ORM, off Playwright's loop


def move_for_the_seat_to_move(game_id: int) -> str:
    """The seat to move plays its first legal pawn move (as a program would, over the
    services); returns who moved."""
    game = Game.objects.get(pk=game_id)
    rules = engine.get(game.kind)
    state = rules.state_from_json(game.state)
    action = next(a.to_json() for a in rules.legal_actions(state)
                  if a.to_json()["type"] == "move")
    mover = Seat.objects.get(game=game, seat=game.state["turn"]).user
    services.submit_action(game_id=game_id, user=mover, action=action, ply=game.ply)
    return mover.username


def mails_to(box: Mailbox, address: str, count: int = 1, timeout: float = 30) -> list[Any]:
    """The e-mails to `address`, once `count` of them arrived (up to `timeout` s)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = box.to(address)
        if len(found) >= count:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{len(box.to(address))} e-mails to {address}, not {count}")


def test_a_turn_based_table_of_four_with_badges_and_email(mail_server, mail_worker, smtp):
    box, _port = smtp
    user("alice", "alice@example.org"), user("bob"), user("carol"), user("dave")
    found: dict[str, Any] = {}
    run_in_browser(mail_server, lambda new_page: scenario(new_page, box, found))
    game = Game.objects.get(pk=found["game"])
    assert game.time_control == {"days": 1}
    assert email_choice(User.objects.get(username="alice").pk).your_turn is False


def scenario(new_page: Any, box: Mailbox, found: dict[str, Any]) -> None:
    alice = new_page()
    log_in(alice, "alice")
    alice.goto("/notifications/")
    alice.check('input[name="email_your_turn"]')
    alice.click("#email-choices button[type=submit]")
    assert alice.is_checked('input[name="email_your_turn"]')
    alice.goto("/")
    alice.select_option("#create-kind", "bloqueio")
    alice.select_option("#create-tc", "1d")
    alice.click("#create-submit")
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    live_game(alice)
    game_id = int(re.search(r"/games/(\d+)/$", alice.url).group(1))
    found["game"] = game_id

    bob = new_page()
    log_in(bob, "bob")
    bob.goto("/")
    assert bob.locator("#notif-badge").is_hidden()
    for name in ("bob", "carol", "dave"):
        db(lambda name=name: services.join_game(
            game_id=game_id, user=User.objects.get(username=name)))

    # The table is full: Alice moves first. Her page counts days, not seconds, and her
    # badge lights up without a reload; the worker mails her.
    alice.wait_for_selector('.player.turn[data-seat="0"] .clock.days.running')
    clock = alice.locator('.player[data-seat="0"] .clock').inner_text()
    assert re.search(r"(day|h) .*left|left", clock), clock
    alice.wait_for_function("document.getElementById('notif-badge').textContent === '1'")
    [mail] = mails_to(box, "alice@example.org")
    assert f"Your turn in game #{game_id} (Bloqueio)." in mail["Subject"]
    shot(alice, "turn-based-alice")

    assert db(move_for_the_seat_to_move, game_id) == "alice"
    bob.wait_for_function("document.getElementById('notif-badge').textContent === '1'")
    alice.wait_for_function("document.getElementById('notif-badge').hidden")  # settled

    # A day passes for Bob, who does not move: the worker flags him, the others go on.
    db(days_pass, game_id, days=1, minutes=1)
    alice.wait_for_selector('.player.left[data-seat="1"]', timeout=20_000)
    assert db(lambda: Game.objects.get(pk=game_id).state["turn"]) == 2
    assert db(move_for_the_seat_to_move, game_id) == "carol"
    assert db(move_for_the_seat_to_move, game_id) == "dave"
    alice.wait_for_function("document.getElementById('notif-badge').textContent === '1'")
    # Most of a second day goes by on Alice's turn: her page counts down the hours left.
    db(days_pass, game_id, hours=21)
    alice.reload()
    live_game(alice)
    alice.wait_for_selector('.player.turn[data-seat="0"] .clock.days.running')
    left = alice.locator('.player[data-seat="0"] .clock').inner_text()
    assert "day" not in left and re.search(r"\b[23] h\b", left), left

    # The e-mail's links: the game, and (signed out) stopping these e-mails.
    links = re.findall(r"https?://\S+", body(mail))
    alice.goto(links[0])
    assert urlsplit(alice.url).path == f"/games/{game_id}/"
    stranger = new_page()
    stranger.goto(str(mail["List-Unsubscribe"]).strip().strip("<>"))
    stranger.click("#unsubscribe")
    assert "no more" in stranger.inner_text("#unsubscribed")
    assert not alice.errors and not bob.errors

    # Dave forgot his password: the reset link comes by e-mail.
    db(lambda: User.objects.filter(username="dave").update(email="dave@example.org",
                                                           email_verified=True))
    dave = new_page()
    dave.goto("/accounts/password/reset/")
    dave.fill("#id_email", "dave@example.org")
    dave.click("form.form button[type=submit]")
    [reset] = mails_to(box, "dave@example.org")
    dave.goto(re.findall(r"https?://\S+", body(reset))[0])
    dave.fill("#id_new_password1", NEW_PASSWORD)
    dave.fill("#id_new_password2", NEW_PASSWORD)
    dave.click("form button[type=submit]")
    log_in(new_page(), "dave", NEW_PASSWORD)
