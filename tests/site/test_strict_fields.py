"""Strings as sent (bloqueio_site/strict_fields.py): a non-string is refused, and a
length limit bounds the string before DRF trims it, as the schema's maxLength does."""

from __future__ import annotations

import pytest

from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_token_name_over_its_limit_is_refused_even_when_trimming_would_fit_it(alice):
    client = client_for(alice)
    for name in ("\x1d\x1c" + "*" * 49, " " + "x" * 50, "x" * 51):
        refused = client.post("/api/auth/tokens/", {"name": name}, format="json")
        assert refused.status_code == 400, name
        assert refused.json()["code"] == "invalid" and "name" in refused.json()["errors"]
    fits = client.post("/api/auth/tokens/", {"name": "\x1c" + "x" * 49}, format="json")
    assert fits.status_code == 201 and fits.json()["name"] == "x" * 49
    refused = client.post("/api/auth/tokens/", {"name": 7}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid")
