"""A stolen token or session cannot guess the account's password (issue #44): the
current password guards the e-mail address and the password itself, so wrong ones are
counted per account (PASSWORD_GUESS_LIMIT, 5 in 15 minutes) over the API and the pages
alike, and past the limit even the right one is refused until the window ends."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.conftest import PASSWORD, client_for, make_user

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-horse-battery-7"


def _guess_email(thief, password: str):
    return thief.patch("/api/me/", {"email": "thief@example.com", "password": password},
                       format="json")


def test_wrong_passwords_are_counted_and_then_even_the_right_one_is_refused() -> None:
    sara = make_user("sara")
    thief = client_for(sara)  # a stolen token
    for guess in range(5):
        wrong = _guess_email(thief, f"guess-{guess}")
        assert (wrong.status_code, wrong.json()["code"]) == (400, "invalid_credentials")
    refused = _guess_email(thief, PASSWORD)
    assert (refused.status_code, refused.json()["code"]) == (429, "rate_limited")
    assert int(refused["Retry-After"]) > 0
    assert "wrong passwords" in refused.json()["detail"]
    # The password's own change shares the count: same account, another door.
    door = thief.post("/api/auth/password/", {"old_password": PASSWORD,
                                              "new_password": NEW_PASSWORD}, format="json")
    assert (door.status_code, door.json()["code"]) == (429, "rate_limited")
    sara.refresh_from_db()
    assert sara.email == "" and sara.check_password(PASSWORD)


def test_the_count_is_per_account_and_the_page_counts_too() -> None:
    sara, tomas = make_user("sara"), make_user("tomas")
    page = Client()
    page.force_login(sara)  # a stolen session
    for guess in range(5):
        answer = page.post("/accounts/password/", {
            "old_password": f"guess-{guess}", "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD})
        assert answer.status_code == 200  # the form again, with its error
    right = page.post("/accounts/password/", {
        "old_password": PASSWORD, "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD})
    assert right.status_code == 200 and "Too many wrong passwords" in right.content.decode()
    assert User.objects.get(pk=sara.pk).check_password(PASSWORD)
    # Another account's count is its own.
    fine = client_for(tomas).post("/api/auth/password/", {
        "old_password": PASSWORD, "new_password": NEW_PASSWORD}, format="json")
    assert fine.status_code == 204
