"""Browser tests: Playwright's sync API driving Debian's chromium against a real Daphne.

The sync API must not run inside an asyncio loop, so these tests are plain functions
(pytest-asyncio only wraps `async def` tests). Daphne is started by the shared
`tests.live.servers` helper on the test database; the tests are transactional so the
server process sees their rows. Screenshots go to `test-artifacts/`.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from accounts.models import User
from tests.conftest import PASSWORD, make_user
from tests.live.servers import ROOT, Server, start, stop
from tests.live.servers import worker as background_worker

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
LAUNCH_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]


@pytest.fixture(scope="module")
def server(django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: Any) -> Iterator[Server]:
    with django_db_blocker.unblock():
        daphne = start(tmp_path_factory.mktemp("daphne"))
    try:
        yield daphne
    finally:
        stop(daphne)


@pytest.fixture
def worker(server: Server, tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:
    """The background worker on the test database: it plays the bots' turns. Per test,
    so it has stopped before the test's rows are flushed."""
    with background_worker(tmp_path) as process:
        yield process


# Every page reports each Content-Security-Policy violation to the console (the init
# script runs outside the page's policy): `run_in_browser` fails a test that met one.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => console.error(
  `CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} ` +
  `at ${e.sourceFile || e.documentURI}:${e.lineNumber} (${e.sample || ""})`));
"""


def as_function(expression: str) -> str:
    """A `wait_for_function` expression as a function. Playwright evaluates a bare
    expression again at every poll with the page's `eval`, which the site's policy
    forbids ('unsafe-eval'); a function is compiled once, from outside the page, and
    then called."""
    head = expression.lstrip()
    if head.startswith(("(", "function", "async")) or re.match(r"[\w$]+\s*=>", head):
        return expression
    return f"() => ({expression})"


def csp_violation(text: str) -> bool:
    """A console line that tells of a violation (ours, or Chromium's own "Refused to")."""
    return text.startswith("CSP violation") or "Content Security Policy" in text


def run_in_browser(server: Server, scenario: Callable[[Callable[..., Any]], None]) -> None:
    """Run `scenario(new_page)` with a fresh chromium, in a thread of its own.

    Playwright's sync API keeps an event loop running in the thread that uses it, which
    would make Django refuse the test database's flush at teardown in that thread; a
    separate thread keeps the two apart. `new_page(**context_options)` opens a page in
    a fresh browser context (its own cookies), at the live server's base URL. Any
    Content-Security-Policy violation on any of its pages fails the test
    (bloqueio_site/csp.py).
    """
    if not Path(CHROMIUM).exists():
        pytest.fail(f"chromium is missing at {CHROMIUM}: apt-get install -y chromium")
    failure: list[BaseException] = []

    def run() -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)

                violations: list[str] = []

                def new_page(**options: Any) -> Any:
                    context = browser.new_context(base_url=server.http, **options)
                    context.set_default_timeout(15_000)
                    context.add_init_script(CSP_LISTENER)
                    page = context.new_page()
                    page.errors = []
                    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
                    page.on("console", lambda msg: violations.append(
                        f"{page.url}: {msg.text}") if csp_violation(msg.text) else None)
                    waits = page.wait_for_function
                    page.wait_for_function = lambda expression, *args, **kwargs: waits(
                        as_function(expression), *args, **kwargs)
                    return page

                try:
                    scenario(new_page)
                    assert violations == [], f"Content-Security-Policy violations: {violations}"
                finally:
                    browser.close()
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=run, name="playwright")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


def live_user(username: str, email: str = "") -> User:
    """A user the live server can log in with tests.conftest.PASSWORD: the tests' fast
    hasher is not in the server's settings, so the password is stored with the default
    PBKDF2 one. With `email`, a verified address."""
    made = make_user(username)
    hasher = PBKDF2PasswordHasher()
    made.password = hasher.encode(PASSWORD, hasher.salt())
    made.email, made.email_verified = email, bool(email)
    made.save(update_fields=["password", "email", "email_verified"])
    return made


def log_in(page: Any, username: str, password: str = PASSWORD) -> None:
    """Sign `username` in through the login form; returns once the page has left it,
    with the header naming who is signed in."""
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form.form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    assert page.locator(".site-header .who").inner_text() == username


# The game page draws its board from its HTML before its socket opens. Until the socket
# is open a frame the page sends is not sent at all (it says "You are offline"), and
# until its `hello` the server does not count the page present; a test that acted on the
# drawn board alone flaked on busy machines (a resign, a move, a leaver's "away"). The
# browser tests wait for the hello after loading a live game's page.
HELLO = "() => window.bloqueioSocket !== undefined && window.bloqueioSocket.hellos > 0"


def live_game(page: Any, path: str | None = None) -> Any:
    """Open the game page at `path` (None: the page is on it already, e.g. after a form
    sent it there) and wait until its socket has had its `hello`: from then on the page
    acts on the game as the server knows it, and is counted present. Returns `page`."""
    if path is not None:
        page.goto(path)
    page.wait_for_function(HELLO)
    return page


def shot(page: Any, name: str, **options: Any) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), **options)
    return path
