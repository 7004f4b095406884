"""An account's e-mail address and password resets, read from a real SMTP server
(tests/mailbox.py): the links in what arrived are followed as a person would."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import signing
from django.test import Client
from rest_framework.test import APIClient

from accounts import addresses
from accounts.models import User
from bloqueio_site.email_config import email_settings
from tests.conftest import PASSWORD, clear_cache, client_for, make_user
from tests.mailbox import Mailbox, body, free_port, link, site_path

pytestmark = pytest.mark.django_db(transaction=True)  # mail goes after commit

NEW_PASSWORD = "a-brand-new-secret-42"


def _signed_up(email: str, username: str = "erin", **extra: Any) -> tuple[User, APIClient]:
    answer = APIClient().post("/api/auth/register/", {"username": username,
                              "password": PASSWORD, "email": email}, format="json", **extra)
    assert answer.status_code == 201, answer.content
    user = User.objects.get(username=username)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return user, client


def test_sign_up_mails_a_link_that_confirms_the_address(mailbox: Mailbox) -> None:
    _user, client = _signed_up("Erin@Example.COM")
    assert client.get("/api/me/").json()["email_verified"] is False
    [message] = mailbox.wait(1)
    assert message["To"] == "Erin@example.com"  # the domain lower-cased
    assert "Confirm your e-mail address" in message["Subject"]
    page = Client().get(site_path(link(message)))  # no log-in needed
    assert page.status_code == 200 and "Address confirmed" in page.content.decode()
    me = client.get("/api/me/").json()
    assert me["email"] == "Erin@example.com" and me["email_verified"] is True


def test_a_link_confirms_only_the_address_it_was_sent_to(mailbox: Mailbox) -> None:
    user, client = _signed_up("first@example.com")
    [first] = mailbox.wait(1)
    assert client.patch("/api/me/", {"email": "second@example.com", "password": PASSWORD},
                        format="json").status_code == 200
    second = mailbox.wait(2)[1]
    assert second["To"] == "second@example.com"
    old = Client().get(site_path(link(first))).content.decode()
    assert "does not work" in old and "not valid" in old
    user.refresh_from_db()
    assert not user.email_verified
    assert Client().get(site_path(link(second))).status_code == 200
    user.refresh_from_db()
    assert user.email_verified and user.email == "second@example.com"


def test_forged_and_expired_links_confirm_nothing(settings: Any) -> None:
    user = make_user("frank")
    user.email = "frank@example.com"
    user.save()
    forged = signing.dumps({"user": user.pk, "email": user.email}, salt="another.salt")
    assert "does not work" in Client().get(f"/accounts/email/verify/{forged}/").content.decode()
    good = signing.dumps({"user": user.pk, "email": user.email}, salt=addresses.SALT)
    settings.PASSWORD_RESET_TIMEOUT = -1  # every link is past its age
    assert "does not work" in Client().get(f"/accounts/email/verify/{good}/").content.decode()
    user.refresh_from_db()
    assert not user.email_verified


def test_the_api_refuses_a_malformed_address_and_removes_one(mailbox: Mailbox) -> None:
    user, client = _signed_up("gina@example.com", username="gina")
    refused = client.patch("/api/me/", {"email": "not an address", "password": PASSWORD},
                           format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_email"
    assert client.patch("/api/me/", {"email": "", "password": PASSWORD},
                        format="json").json()["email"] == ""
    user.refresh_from_db()
    assert user.email == "" and not user.email_verified


def test_the_email_page_sets_and_resends_after_a_pause(mailbox: Mailbox) -> None:
    user = make_user("hank")
    page = Client()
    page.force_login(user)
    assert page.post("/accounts/email/", {"email": "hank@example.com",
                                          "password": PASSWORD}).status_code == 302
    [first] = mailbox.wait(1)
    assert first["To"] == "hank@example.com"
    shown = page.get("/accounts/email/").content.decode()
    assert "hank@example.com" in shown and "not confirmed yet" in shown
    # "Send again" at once: the pause before the same link again (issue 44).
    again = page.post("/accounts/email/", {"resend": "1"})
    assert again.status_code == 429 and 0 < int(again["Retry-After"]) <= 300
    assert "sent to hank@example.com moments ago" in again.content.decode()
    assert "retry in" in again.content.decode()
    clear_cache(f"limit:{addresses.CONFIRM_COOLDOWN.name}:")  # the pause is over
    assert page.post("/accounts/email/", {"resend": "1"}).status_code == 302
    assert mailbox.wait(2)[1]["To"] == "hank@example.com"
    bad = page.post("/accounts/email/", {"email": "nope@", "password": PASSWORD})
    assert bad.status_code == 400 and "valid e-mail address" in bad.content.decode()
    assert len(mailbox.messages) == 2


def _verified(username: str, email: str, language: str = "") -> User:
    user = make_user(username)
    user.email, user.email_verified, user.language = email, True, language
    user.save()
    return user


def test_a_password_reset_from_the_mailed_link(mailbox: Mailbox) -> None:
    user = _verified("ivy", "ivy@example.com")
    token_client = client_for(user)
    sent = Client().post("/accounts/password/reset/", {"email": "IVY@example.com"})
    assert sent.status_code == 302 and sent["Location"] == "/accounts/password/reset/sent/"
    [message] = mailbox.wait(1)
    assert message["To"] == "ivy@example.com" and "ivy" in body(message)
    browser = Client()
    opened = browser.get(site_path(link(message)))  # Django swaps the token for a session key
    assert opened.status_code == 302
    form_url = opened["Location"]
    assert "validlink" not in browser.get(form_url).content.decode()
    done = browser.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/accounts/password/reset/done/"
    assert APIClient().post("/api/auth/token/", {"username": "ivy", "password": NEW_PASSWORD},
                            format="json").status_code == 200
    assert token_client.get("/api/me/").status_code == 401  # the old token is revoked
    again = Client().get(site_path(link(message)))  # the link worked once
    assert "does not work" in Client().get(again["Location"]).content.decode() \
        if again.status_code == 302 else "does not work" in again.content.decode()


def test_a_reset_mails_no_unverified_address_and_says_the_same(mailbox: Mailbox) -> None:
    user = make_user("jack")
    user.email = "jack@example.com"
    user.save()  # never confirmed
    sent = Client().post("/accounts/password/reset/", {"email": "jack@example.com"})
    unknown = Client().post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert sent.status_code == unknown.status_code == 302  # nothing told apart
    _verified("kate", "kate@example.com")
    Client().post("/accounts/password/reset/", {"email": "kate@example.com"})
    [only] = mailbox.wait(1)
    assert only["To"] == "kate@example.com" and len(mailbox.messages) == 1


def test_mail_is_written_in_the_accounts_language(mailbox: Mailbox) -> None:
    _verified("lia", "lia@example.com", language="pt-br")
    Client().post("/accounts/password/reset/", {"email": "lia@example.com"},
                  HTTP_ACCEPT_LANGUAGE="en")
    [message] = mailbox.wait(1)
    assert "senha" in message["Subject"].lower() and "Olá lia" in body(message)


def test_reset_requests_from_one_address_are_limited(mailbox: Mailbox) -> None:
    for _ in range(addresses.RESET_RATE.count):
        assert Client().post("/accounts/password/reset/",
                             {"email": "x@example.com"}).status_code == 302
    refused = Client().post("/accounts/password/reset/", {"email": "x@example.com"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


def test_an_unreachable_mail_server_loses_no_sign_up(settings: Any, caplog: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nobody listens
    _user, client = _signed_up("mia@example.com", username="mia")
    assert client.get("/api/me/").json()["email"] == "mia@example.com"
    assert "not sent" in caplog.text


@pytest.mark.parametrize(("url", "expected"), [
    (None, {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
    ("console://", {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
    ("smtp://mailer:p%40ss@mail.example.com:587?tls=1", {
        "EMAIL_HOST": "mail.example.com", "EMAIL_PORT": 587, "EMAIL_HOST_USER": "mailer",
        "EMAIL_HOST_PASSWORD": "p@ss", "EMAIL_USE_TLS": True, "EMAIL_USE_SSL": False}),
    ("smtps://mail.example.com", {"EMAIL_PORT": 465, "EMAIL_USE_SSL": True,
                                  "EMAIL_USE_TLS": False}),
    ("smtp://localhost", {"EMAIL_PORT": 25, "EMAIL_USE_TLS": False}),
])
def test_email_url(url: str | None, expected: dict[str, Any]) -> None:
    got = email_settings(url)
    assert {k: got[k] for k in expected} == expected


@pytest.mark.parametrize("url", ["http://mail.example.com", "smtp://", "mail.example.com"])
def test_a_malformed_email_url_stops_the_process(url: str) -> None:
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured):
        email_settings(url)


def test_links_start_with_site_url_whatever_host_the_request_named(mailbox: Mailbox) -> None:
    """Issue 44: `Host: localhost:9999` put that port in the mailed links."""
    _signed_up("nora@example.com", username="nora", HTTP_HOST="localhost:9999")
    _verified("omar", "omar@example.com")
    Client().post("/accounts/password/reset/", {"email": "omar@example.com"},
                  HTTP_HOST="localhost:9999")
    confirm, reset = mailbox.wait(2)
    for message in (confirm, reset):
        assert link(message).startswith("https://bloqueio.example/accounts/"), body(message)
        assert "9999" not in body(message)
