"""Redis down costs the leaderboard its cache, never its answer (docs/api.md: no 500s)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from games.models import Rating
from tests.conftest import client_for, make_user

pytestmark = pytest.mark.django_db

DEAD_CACHE = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": "redis://127.0.0.1:1/0"}}


def _established(name: str, rating: int) -> None:
    Rating.objects.create(user=make_user(name), kind="bloqueio", mu=25, sigma=2, games=20,
                          rating=rating, provisional=False,
                          last_played_at=timezone.now() - timedelta(days=1))


def test_leaderboard_answers_from_the_database_while_the_cache_is_down(settings):
    settings.LEADERBOARD_CACHE_SECONDS = 30
    _established("ann", 1600)
    _established("ben", 1500)
    with override_settings(CACHES=DEAD_CACHE):
        response = client_for(None).get("/api/leaderboard/bloqueio/")
        page = client_for(None).get("/leaderboard/bloqueio/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    assert [(r["rank"], r["username"]) for r in body["results"]] == [(1, "ann"), (2, "ben")]
    assert page.status_code == 200
