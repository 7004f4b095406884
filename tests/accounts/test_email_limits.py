"""Confirmation mail is limited (issue 44: the site mailed any address as often as
asked): a pause before the same link to the same address, then counts per account and
per recipient, on the API, the e-mail page and sign-up; read from a real SMTP server."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts import addresses
from accounts.models import User
from tests.conftest import PASSWORD, clear_cache, client_for, make_user
from tests.mailbox import Mailbox

pytestmark = pytest.mark.django_db(transaction=True)  # mail goes after commit


def _pause_over() -> None:
    clear_cache(f"limit:{addresses.CONFIRM_COOLDOWN.name}:")


def _set(client: APIClient, email: str, **extra: str):  # type: ignore[no-untyped-def]
    return client.patch("/api/me/", {"email": email, "password": PASSWORD}, format="json",
                        **extra)


def test_the_same_link_again_waits_for_the_pause(mailbox: Mailbox) -> None:
    user = make_user("olga")
    client = client_for(user)
    assert _set(client, "victim@example.com").status_code == 200
    mailbox.wait(1)
    again = _set(client, "victim@example.com")  # twenty of these mailed twenty times
    assert again.status_code == 429 and again.json()["code"] == "rate_limited"
    wait = int(again["Retry-After"])
    assert again.json()["retry_after"] == wait and 0 < wait <= addresses.CONFIRM_COOLDOWN.seconds
    assert "sent to victim@example.com moments ago" in again.json()["detail"]
    assert "retry in" in again.json()["detail"]
    _pause_over()
    assert _set(client, "victim@example.com").status_code == 200
    assert len(mailbox.wait(2)) == 2
    assert [m["To"] for m in mailbox.messages] == ["victim@example.com"] * 2


def test_one_account_mails_a_limited_number_of_links(mailbox: Mailbox) -> None:
    client = client_for(make_user("pavel"))
    most = addresses.CONFIRM_ACCOUNT_RATE.count
    for n in range(most):  # a new address each time: no pause applies
        assert _set(client, f"inbox{n}@example.com").status_code == 200
    refused = _set(client, "one-more@example.com")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    detail = refused.json()["detail"]
    assert "confirmation e-mails for your account" in detail and f"at most {most}" in detail
    assert client.get("/api/me/").json()["email"] == f"inbox{most - 1}@example.com"  # kept
    mailbox.wait(most)
    assert not mailbox.to("one-more@example.com")


def test_one_recipient_gets_a_limited_number_of_links_from_all_accounts(
        mailbox: Mailbox) -> None:
    most = addresses.CONFIRM_RECIPIENT_RATE.count
    for n in range(most):
        assert _set(client_for(make_user(f"puppet{n}")), "Victim@Example.com").status_code == 200
    refused = _set(client_for(make_user("puppetx")), "VICTIM@example.com")  # any casing
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "confirmation e-mails to VICTIM@example.com" in refused.json()["detail"]
    assert User.objects.get(username="puppetx").email == ""  # nothing changed
    # Sign-up names the address too: refused whole, no account made.
    signup = APIClient().post("/api/auth/register/", {
        "username": "newcomer", "password": PASSWORD, "email": "victim@example.com"},
        format="json")
    assert signup.status_code == 429 and "confirmation e-mails to" in signup.json()["detail"]
    assert not User.objects.filter(username="newcomer").exists()
    assert len(mailbox.wait(most)) == most
    assert len(mailbox.to("example.com")) == most


def test_a_refusal_is_in_the_readers_language_on_the_page(mailbox: Mailbox) -> None:
    user = make_user("rita")
    user.language = "pt-br"
    user.save()
    page = Client()
    page.force_login(user)
    assert page.post("/accounts/email/", {"email": "rita@example.com",
                                          "password": PASSWORD}).status_code == 302
    refused = page.post("/accounts/email/", {"resend": "1"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    text = refused.content.decode()
    assert "rita@example.com" in text and "tente de novo em" in text, text
    api = client_for(user).patch("/api/me/", {"email": "rita@example.com"}, format="json")
    assert api.status_code == 429 and "tente de novo em" in api.json()["detail"]
    assert len(mailbox.wait(1)) == 1
