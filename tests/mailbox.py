"""A real SMTP server on loopback (aiosmtpd) that keeps what it receives, for tests that
read the e-mail the site sends (`mailbox` fixture: the site's EMAIL_* point at it, and
its SITE_URL at `SITE`, which every mailed link must start with: `site_path`)."""

from __future__ import annotations

import email
import email.policy
import re
import socket
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller

SITE = "https://bloqueio.example"


class Mailbox:
    """Every message the server took, parsed; `wait` for the next ones to arrive."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self._arrived = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._arrived:
            self.messages.append(message)  # type: ignore[arg-type]
            self._arrived.notify_all()
        return "250 OK"

    def wait(self, count: int = 1, timeout: float = 10) -> list[EmailMessage]:
        """The first `count` messages, waiting up to `timeout` s for them."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while len(self.messages) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.messages)} e-mails arrived, not {count}")
                self._arrived.wait(left)
            return self.messages[:count]

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if address in str(m["To"])]


def body(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]


def link(message: EmailMessage) -> str:
    """The one http(s) link in a message's text."""
    found = re.findall(r"https?://\S+", body(message))
    assert len(found) == 1, found
    return found[0]


def site_path(url: str) -> str:
    """A mailed link's path, the link checked to start with SITE_URL (never with the
    host a request named)."""
    assert url.startswith(SITE + "/"), url
    return urlsplit(url).path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def mailbox(settings: Any) -> Iterator[Mailbox]:
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.SITE_URL = SITE
    try:
        yield box
    finally:
        controller.stop()
