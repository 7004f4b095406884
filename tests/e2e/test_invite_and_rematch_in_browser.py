"""An invitation link fills a private two-seat game, and a rematch is accepted, in real
chromium pages (docs/api.md, "Invitations and rematches").

Alice creates a private game from the lobby form, invites Carol by name and takes it
back, and copies its invitation link; Bob, signed out, opens it, logs in from the
invitation page, comes back to it and takes a seat with its button (opening the link
seats nobody): the game starts. Bob resigns; Alice asks
for a rematch, Bob sees the offer arrive live and accepts, and both pages go to the new
game, seats rotated.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import Game, Invitation, Seat
from tests.conftest import PASSWORD
from tests.e2e.conftest import live_game, run_in_browser, shot
from tests.e2e.conftest import live_user as user

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]





def log_in_here(page: Any, username: str) -> None:
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.form button[type=submit]")


def test_an_invitation_link_fills_a_private_game_and_a_rematch_is_accepted(server):
    user("alice"), user("bob"), user("carol")
    found: dict[str, Any] = {}
    run_in_browser(server, lambda new_page: scenario(new_page, found))
    old = Game.objects.get(pk=found["old"])
    new = Game.objects.get(pk=found["new"])
    assert old.private and new.private and not new.ranked
    assert dict(Seat.objects.filter(game=old).values_list("seat", "user__username")) == \
        {0: "alice", 1: "bob"}
    assert dict(Seat.objects.filter(game=new).values_list("seat", "user__username")) == \
        {0: "bob", 1: "alice"}
    assert Invitation.objects.get(game=old).status == "revoked"  # carol's, taken back


def scenario(new_page: Any, found: dict[str, Any]) -> None:
    alice = new_page()
    alice.goto("/accounts/login/")
    log_in_here(alice, "alice")
    alice.wait_for_url(lambda url: "/accounts/login/" not in url)
    alice.select_option("#create-kind", "bloqueio2")
    alice.check("#create-private")
    alice.click("#create-submit")
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    live_game(alice)
    game_id = int(re.search(r"/games/(\d+)/$", alice.url).group(1))
    found["old"] = game_id
    link = alice.input_value("#share-link")
    assert re.search(rf"/games/{game_id}/invite/[A-Za-z0-9_-]{{20,}}/$", link), link
    assert alice.is_visible("#copy-invite")
    # An invitation by name, taken back with its button.
    alice.fill("#invite-name", "carol")
    alice.click("#invite-form button[type=submit]")
    alice.wait_for_selector("#invitations li .take-back")
    assert "carol" in alice.inner_text("#invitations")
    alice.click("#invitations li .take-back")
    alice.wait_for_selector("#invitations li", state="detached")
    assert "carol" in alice.inner_text("#invite-status")
    # The lobby does not list it.
    lobby = new_page()
    lobby.goto("/")
    assert lobby.locator(f'a[href="/games/{game_id}/"]').count() == 0
    lobby.goto(f"/games/{game_id}/")
    assert "404" in lobby.title() or lobby.locator("#board").count() == 0

    bob = new_page()
    bob.goto(link)
    bob.click("#invite-login")
    log_in_here(bob, "bob")
    # Back on the link: it shows the game and seats nobody until "Take a seat" posts.
    bob.wait_for_url(link)
    bob.wait_for_selector("#take-seat")
    assert "alice" in bob.inner_text("#invite-seats")
    bob.click("#take-seat")
    bob.wait_for_url(re.compile(rf"/games/{game_id}/$"))
    live_game(bob)  # resigning goes over the socket
    bob.wait_for_selector('#board svg[data-status="active"]')
    alice.wait_for_selector('#board svg[data-status="active"]')
    shot(bob, "invite-link-seated")

    bob.click("#resign")
    bob.click("#resign-confirm")
    for page in (alice, bob):
        page.wait_for_selector('#board svg[data-status="finished"]')
        page.wait_for_selector("#rematch:not([hidden])")
    alice.click("#rematch-yes")
    # Bob hears the offer on his own socket: the button turns into an acceptance.
    bob.wait_for_selector("#rematch-no:not([hidden])")
    assert "alice" in bob.inner_text("#rematch-status")
    shot(bob, "rematch-offered")
    bob.click("#rematch-yes")
    for page in (alice, bob):
        page.wait_for_url(lambda url: re.search(r"/games/(\d+)/$", url) is not None
                          and not url.endswith(f"/games/{game_id}/"))
        live_game(page)
        page.wait_for_selector('#board svg[data-status="active"]')
    found["new"] = int(re.search(r"/games/(\d+)/$", bob.url).group(1))
    assert alice.url == bob.url
    for page in (alice, bob, lobby):
        assert page.errors == [], page.errors
