"""A sign-up past the address's limit, in chromium (issue 45, item 3): the page says what
the limit is and when it lifts (the end of the hour's window, in whole minutes), and
sends nothing again by itself (a 429 is a limit, not the busy server whose 503
static/js/busy_retry.js waits out). On a phone, in English and in Portuguese."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from bloqueio_site import limits
from tests.e2e.conftest import run_in_browser, shot
from tests.live.servers import Server, start, stop

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-9"
HOUR = 3600
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def server(django_db_setup: Any, django_db_blocker: Any,
           tmp_path_factory: Any) -> Iterator[Server]:
    """A server of its own: these sign-ups use up its address's allowance."""
    with django_db_blocker.unblock():
        found = start(tmp_path_factory.mktemp("signups"), env={"SIGNUP_LIMIT": "2"})
    try:
        yield found
    finally:
        stop(found)


def _sign_up(page: Any, name: str) -> None:
    page.goto("/accounts/register/")
    page.fill("#id_username", name)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button[type=submit]")


def _lifts_in(now: float) -> float:
    """Seconds until the hour's window of sign-ups ends (bloqueio_site/limits.py: fixed
    windows, counted from the epoch)."""
    return HOUR - now % HOUR


def _said_waits(language: str, lo: float, hi: float) -> set[str]:
    """How the refusal words each wait the server may have computed between `lo` and
    `hi` seconds (rounded up, as it does), in `language`."""
    words = set()
    with translation.override(language):
        for wait in range(max(1, math.ceil(lo)), math.ceil(hi) + 1):
            detail = limits.refusal(limits.Rate("signup", 2, HOUR), "x", wait).detail
            words.add(_tail(detail))
    return words


def _tail(detail: str) -> str:
    """What follows the limit in a refusal: "retry in 19 minutes." (its last clause)."""
    return detail.split("); ", 1)[1]


def test_a_refused_sign_up_names_the_limit_and_is_not_retried(server: Any) -> None:
    def scenario(new_page: Any) -> None:
        if _lifts_in(time.time()) < 120:  # the scenario inside one window of the limit
            time.sleep(_lifts_in(time.time()) + 1)
        for n in range(2):  # the address's allowance, each in a fresh browser
            page = new_page(**PHONE)
            _sign_up(page, f"newbie{n}")
            page.wait_for_url(re.compile(r"^https?://[^/]+/$"))
        for language, options, said in (
                ("en", {"locale": "en-US"},
                 r"Too many sign-ups from your address \(at most 2 per hour\); (.+)"),
                ("pt-br", {"locale": "pt-BR"},
                 r"Cadastros demais .+\(no máximo 2 por hora\); (.+)")):
            page = new_page(**PHONE, **options)
            posts = []
            page.on("request", lambda r, posts=posts: posts.append(r.url)
                    if r.method == "POST" else None)
            before = time.time()
            _sign_up(page, f"late{language}")
            error = page.locator("ul.errorlist.nonfield").first
            error.wait_for()
            after = time.time()
            text = " ".join(error.inner_text().split())
            matched = re.fullmatch(said, text)
            assert matched, text
            # When the window ends, as the server counted it while the request was in
            # flight: whole minutes past two minutes, "an hour" at its very start.
            assert matched[1] in _said_waits(language, _lifts_in(after),
                                             _lifts_in(before)), text
            assert "busy" not in page.locator("main").inner_text()
            assert page.locator(".busy-status").count() == 0
            assert page.locator("form[data-retry-busy] button[type=submit]").is_enabled()
            shot(page, f"signup-limit-phone-{language}")
            # Nothing is sent again by itself: the only POST is the one the click made,
            # also once the page has answered and any timer would have fired.
            page.wait_for_function("() => document.readyState === 'complete'")
            assert len(posts) == 1, posts
            assert page.errors == []

    run_in_browser(server, scenario)
