"""A sign-up past the address's limit, in chromium (issue 45, item 3): the page says what
the limit is and when it lifts, in whole minutes, and sends nothing again by itself (a
429 is a limit, not the busy server whose 503 static/js/busy_retry.js waits out). On a
phone, in English and in Portuguese."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import run_in_browser, shot
from tests.live.servers import Server, start, stop

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery-9"
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


def test_a_refused_sign_up_names_the_limit_and_is_not_retried(server: Any) -> None:
    def scenario(new_page: Any) -> None:
        for n in range(2):  # the address's allowance, each in a fresh browser
            page = new_page(**PHONE)
            _sign_up(page, f"newbie{n}")
            page.wait_for_url(re.compile(r"^https?://[^/]+/$"))
        for language, options, said in (
                ("en", {"locale": "en-US"},
                 r"Too many sign-ups from your address \(at most 2 per hour\); "
                 r"retry in (an hour|(\d+) minutes)\."),
                ("pt", {"locale": "pt-BR"},
                 r"Cadastros demais .+\(no máximo 2 por hora\).+ (uma hora|(\d+) minutos)\.")):
            page = new_page(**PHONE, **options)
            posts = []
            page.on("request", lambda r, posts=posts: posts.append(r.url)
                    if r.method == "POST" else None)
            _sign_up(page, f"late{language}")
            error = page.locator("ul.errorlist.nonfield").first
            error.wait_for()
            text = " ".join(error.inner_text().split())
            matched = re.fullmatch(said, text)
            assert matched, text
            # The allowance was used up moments ago, so it lifts in most of an hour:
            # "an hour" while under a minute has passed (3,541 s and more round up to
            # 60 minutes), whole minutes after that.
            assert matched[2] is None or 30 <= int(matched[2]) < 60, text
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
