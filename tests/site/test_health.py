"""`/healthz` checks the database and the channel layer for real, and the static files
(tests/site/test_docker_static.py checks a production build); `/livez` none of them."""

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db


def test_healthz_ok_with_postgres_and_redis(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"database": "ok", "channel_layer": "ok", "static": "ok"}


def test_healthz_503_names_a_dead_channel_layer(client):
    dead = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }
    with override_settings(CHANNEL_LAYERS=dead):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "ok"
    assert body["channel_layer"].startswith("error")


def test_livez_answers_while_postgres_and_redis_are_down(client, django_assert_num_queries):
    dead = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }
    with override_settings(CHANNEL_LAYERS=dead), django_assert_num_queries(0):
        response = client.get("/livez")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
