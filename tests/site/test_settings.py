"""Settings come from the environment, with embedded defaults and loud failures."""

from tests.settings_probe import load_settings, run

STRONG_KEY = "x" * 20 + "-Q8v#p2Lk9@zT4mR7wN1cY6bH3jF0sD5gA"


def test_nothing_set_means_sqlite_in_memory_layer_and_debug():
    s = load_settings()
    assert s["db_engine"] == "django.db.backends.sqlite3"
    assert s["db_name"].endswith("db.sqlite3")
    assert s["layer"] == "channels.layers.InMemoryChannelLayer"
    assert s["cache"].endswith("LocMemCache")
    assert s["DEBUG"] is True


def test_database_url_selects_postgres():
    s = load_settings(DATABASE_URL="postgres://postgres@db.example:5432/bloqueio")
    # Django's PostgreSQL backend with a pool check that skips the round trip on a
    # healthy connection (bloqueio_site/postgres).
    assert s["db_engine"] == "bloqueio_site.postgres"
    assert s["db_host"] == "db.example"
    assert s["db_name"] == "bloqueio"


def test_pubsub_layer_can_be_chosen():
    s = load_settings(REDIS_URL="redis://cache.example:6379/2", CHANNEL_LAYER="pubsub")
    assert s["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"


def test_redis_url_selects_redis_layer_and_cache():
    s = load_settings(REDIS_URL="redis://cache.example:6379/2")
    assert s["layer"] == "channels_redis.core.RedisChannelLayer"
    assert s["layer_hosts"] == [{"address": "redis://cache.example:6379/2",
                                 "max_connections": 1000, "socket_timeout": 30,
                                 "socket_connect_timeout": 5}]
    assert s["cache"] == "django.core.cache.backends.redis.RedisCache"


def test_production_hardens_settings():
    s = load_settings(
        DJANGO_ENV="production", DJANGO_SECRET_KEY=STRONG_KEY, DJANGO_ALLOWED_HOSTS="example.org"
    )
    assert s["DEBUG"] is False
    assert s["secure_cookies"] is True
    assert s["hsts"] >= 31_536_000
    assert s["static"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


def test_production_without_secret_key_refuses_to_start():
    proc = run(["manage.py", "check"], DJANGO_ENV="production", DJANGO_ALLOWED_HOSTS="x.org")
    assert proc.returncode != 0
    assert "DJANGO_SECRET_KEY is required" in proc.stderr


def test_production_without_allowed_hosts_refuses_to_start():
    proc = run(["manage.py", "check"], DJANGO_ENV="production", DJANGO_SECRET_KEY=STRONG_KEY)
    assert proc.returncode != 0
    assert "DJANGO_ALLOWED_HOSTS is required" in proc.stderr


def test_bad_boolean_is_a_loud_error():
    proc = run(["manage.py", "check"], DJANGO_DEBUG="maybe")
    assert proc.returncode != 0
    assert "DJANGO_DEBUG='maybe' is not a boolean" in proc.stderr


def test_deploy_check_is_clean_in_production():
    proc = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DJANGO_ENV="production", DJANGO_SECRET_KEY=STRONG_KEY, DJANGO_ALLOWED_HOSTS="example.org",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout
