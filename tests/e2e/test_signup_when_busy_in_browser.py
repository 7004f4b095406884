"""Signing up while the server is busy: the sign-up page waits out a 503 with Retry-After,
says so ("The server is busy; trying again in N s…"), sends the form again and signs up.

The live server gets one hash slot (`PASSWORD_HASH_CONCURRENCY=1`) and no wait for it
(`PASSWORD_HASH_MAX_WAIT=0`); a log-in whose stored PBKDF2 hash asks for 20 million
iterations holds that slot for seconds, so the page's first try finds it taken and is
refused. The page must keep trying until the slot is free (the hash takes from a few
seconds on an idle machine to a minute on a crowded one: the bounds are generous).
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from accounts.models import User
from tests.conftest import PASSWORD
from tests.e2e.conftest import run_in_browser, shot
from tests.live.servers import Server, http_json, start, stop

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# A PBKDF2 hash that takes seconds to check (and never matches): verifying it holds
# the server's only hash slot meanwhile.
SLOW_HASH = f"pbkdf2_sha256$20000000${'s' * 22}${'A' * 43}="


@pytest.fixture(scope="module")
def busy_server(django_db_setup: Any, django_db_blocker: Any,
                tmp_path_factory: Any) -> Iterator[Server]:
    limits = {"PASSWORD_HASH_CONCURRENCY": "1", "PASSWORD_HASH_MAX_WAIT": "0",
              "RATE_LIMIT_SCALE": "1000"}  # many sign-ups from one address here
    with django_db_blocker.unblock(), mock.patch.dict(os.environ, limits):
        server = start(tmp_path_factory.mktemp("busy"))
    try:
        yield server
    finally:
        stop(server)


def slow_log_in(server: Server) -> None:
    """Log in as slowpoke until the server takes the attempt (refused with 503 while a
    probe held the slot) and has checked its slow hash (400: it never matches)."""
    body = json.dumps({"username": "slowpoke", "password": "x"}).encode()
    while True:
        request = urllib.request.Request(f"{server.http}/api/auth/token/", data=body,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=300):
                return
        except urllib.error.HTTPError as exc:
            if exc.code != 503:
                return
        time.sleep(0.05)


def hold_the_hash_slot(server: Server) -> threading.Thread:
    """Start the slow log-in in the background and return once it holds the slot, that
    is, once another hash is refused with 503."""
    slow = threading.Thread(target=slow_log_in, args=(server,))
    slow.start()
    for _ in range(300):
        time.sleep(0.1)  # leaves the slot free for the slow log-in to take
        # An unknown user's log-in hashes too (Django's guard against telling users
        # apart by timing): 400 while the slot is free, 503 once the slow one holds it.
        status, _body = http_json("POST", f"{server.http}/api/auth/token/",
                                  {"username": f"nobody{secrets.token_hex(4)}",
                                   "password": "x"})
        if status == 503:
            return slow
        assert status == 400, status
    pytest.fail("the slow log-in never held the hash slot")


def test_the_sign_up_page_waits_out_a_busy_server_and_signs_up(busy_server: Server) -> None:
    User.objects.create(username="slowpoke", password=SLOW_HASH)
    held: list[threading.Thread] = []

    def scenario(new_page: Any) -> None:
        page = new_page()
        page.goto("/accounts/register/")
        page.fill("#id_username", "zoe")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        held.append(hold_the_hash_slot(busy_server))
        page.click("form.form button[type=submit]")
        busy = page.locator(".busy-status")
        busy.wait_for()
        assert busy.inner_text().startswith("The server is busy; trying again in")
        shot(page, "signup-busy")
        # The slow hash ends within seconds; the page keeps trying until then.
        page.wait_for_url(lambda url: "/accounts/register/" not in url, timeout=180_000)
        assert page.inner_text("header .who") == "zoe"
        assert page.errors == []

    try:
        run_in_browser(busy_server, scenario)
    finally:
        for slow in held:
            slow.join(300)
    assert User.objects.filter(username="zoe").exists()
    log = Path(busy_server.log).read_text(errors="replace")
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]


def test_form_errors_still_show_and_the_form_still_works(busy_server: Server) -> None:
    """Sent with fetch, a refused form (not a busy server) is shown as the server sent
    it, and the form shown then is sent the same way."""

    def scenario(new_page: Any) -> None:
        page = new_page()
        page.goto("/accounts/register/")
        page.fill("#id_username", "yves")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD + "x")
        page.click("form.form button[type=submit]")
        page.wait_for_selector(".errorlist")
        assert "match" in page.inner_text(".errorlist")  # the two passwords differ
        assert page.input_value("#id_username") == "yves"
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.click("form.form button[type=submit]")
        page.wait_for_url(lambda url: "/accounts/register/" not in url, timeout=60_000)
        assert page.inner_text("header .who") == "yves"
        assert page.errors == []

    run_in_browser(busy_server, scenario)
