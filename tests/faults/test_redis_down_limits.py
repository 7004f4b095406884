"""Limits counted in Redis while Redis is stopped: sign-ups, log-in attempts and password
resets are refused with 503 `unavailable` and Retry-After (they would go unlimited);
new games, whose per-user cap is in the database, go on (issue 44, item 10).

The cache is pointed at a Redis of the test's own (tests/live/servers.py `PrivateRedis`),
which is really stopped and started again.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import Client, override_settings
from rest_framework.test import APIClient

from accounts import services
from accounts.models import User
from bloqueio_site import limits
from tests.conftest import PASSWORD, make_user
from tests.live.servers import PrivateRedis

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A private Redis as the cache, started; stopped (if still running) afterwards."""
    server = PrivateRedis(tmp_path)
    server.start()
    try:
        with override_settings(CACHES={"default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": server.url, "KEY_PREFIX": "down-limits"}}):
            yield server
    finally:
        server.kill()


def sign_up(client: APIClient, name: str):
    return client.post("/api/auth/register/", {"username": name, "password": PASSWORD},
                       format="json")


def refused_uncounted(response) -> None:
    assert response.status_code == 503, response.content
    assert int(response["Retry-After"]) == limits.UNCOUNTED_RETRY_AFTER


def test_sign_ups_and_log_ins_are_refused_while_their_limits_cannot_be_counted(redis):
    api = APIClient()
    assert sign_up(api, "before").status_code == 201  # counted in the private Redis
    make_user("alice")

    redis.kill()
    for n in range(services.SIGNUP_RATE.count + 3):  # the 8 of 8 got through
        refused = sign_up(api, f"during{n}")
        refused_uncounted(refused)
        assert refused.json()["code"] == "unavailable"
        assert "cannot be counted" in refused.json()["detail"]
    assert not User.objects.filter(username__startswith="during").exists()
    token = api.post("/api/auth/token/", {"username": "alice", "password": PASSWORD},
                     format="json")
    refused_uncounted(token)
    assert token.json()["code"] == "unavailable"

    # The pages say it on their forms, in the reader's language, with the same answer.
    page = Client(HTTP_ACCEPT_LANGUAGE="pt-BR")
    for path, form in (("/accounts/register/", {"username": "paged", "email": "",
                                                  "password1": PASSWORD,
                                                  "password2": PASSWORD}),
                       ("/accounts/login/", {"username": "alice", "password": PASSWORD}),
                       ("/accounts/password/reset/", {"email": "a@example.org"})):
        answer = page.post(path, form)
        refused_uncounted(answer)
        assert "não pode ser contado" in answer.content.decode(), path
    assert "_auth_user_id" not in page.session
    assert not User.objects.filter(username="paged").exists()

    # New games fail open: their per-user cap is counted in the database.
    player = APIClient()
    player.force_authenticate(User.objects.get(username="alice"))
    assert player.post("/api/games/", {"kind": "bloqueio"}, format="json").status_code == 201

    redis.start()  # the same port again: counting resumes, and so do sign-ups
    assert sign_up(api, "after").status_code == 201
    assert api.post("/api/auth/token/", {"username": "alice", "password": PASSWORD},
                    format="json").status_code == 200
