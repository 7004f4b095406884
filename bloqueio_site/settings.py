"""Settings, all from the environment (12-factor) with embedded defaults.

Nothing set: SQLite in the project folder, in-memory channel layer and cache, DEBUG on.
`DATABASE_URL` switches to PostgreSQL (psycopg 3), `REDIS_URL` to the Redis channel
layer and cache, `DJANGO_ENV=production` to hardened settings that demand a real
`DJANGO_SECRET_KEY` and `DJANGO_ALLOWED_HOSTS`. The README lists every variable.
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from bloqueio_site.email_config import email_settings
from bloqueio_site.env import env_bool, env_choice, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DJANGO_ENV = env_choice("DJANGO_ENV", ("development", "production"), "development")
PRODUCTION = DJANGO_ENV == "production"

DEBUG = env_bool("DJANGO_DEBUG", default=not PRODUCTION)
# Django's technical 403/404/500 pages instead of the site's own under DEBUG
# (bloqueio_site/error_pages.py).
DEBUG_ERROR_PAGES = env_bool("DJANGO_DEBUG_ERROR_PAGES", default=False)

_DEV_SECRET = "dev-only-insecure-key-never-used-in-production-0123456789abcdef"
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY is required when DJANGO_ENV=production")
    SECRET_KEY = _DEV_SECRET

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", [] if PRODUCTION else ["localhost", "127.0.0.1", "[::1]", "testserver"]
)
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS is required when DJANGO_ENV=production")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served from here: /api/docs/ offline
    "channels",
    "axes",
    "accounts",
    "games",
    "chat",
    "moderation",
    "notifications",
    "tournaments",
]

MIDDLEWARE = [
    # Outermost: every answer, error pages and refusals included (bloqueio_site/csp.py).
    "bloqueio_site.csp.ContentSecurityPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Outermost of the middleware that reach the database (sessions, auth, axes).
    "bloqueio_site.unavailable.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language: the switcher's cookie, else Accept-Language (docs/i18n.md).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in account's own language wins over the cookie and the browser's.
    "accounts.language.AccountLanguageMiddleware",
    # The site's own 403/404/500 pages under DEBUG too (in the reader's language).
    "bloqueio_site.error_pages.SiteErrorPagesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a lockout into its own response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "bloqueio_site.urls"
ASGI_APPLICATION = "bloqueio_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notifications.context.unread",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL")
if env_str("DATABASE_CONN_MAX_AGE"):
    # Under ASGI every request's sync code runs on a fresh thread, so a kept connection
    # is left behind on a dying thread (Django ticket 33497): the pool below replaced it.
    raise ImproperlyConfigured(
        "DATABASE_CONN_MAX_AGE is no longer supported: connections are pooled "
        "(DATABASE_POOL_MIN_SIZE, DATABASE_POOL_MAX_SIZE, DATABASE_POOL_TIMEOUT)"
    )
if DATABASE_URL:
    _db = dj_database_url.parse(DATABASE_URL, conn_max_age=0)
    if _db["ENGINE"] == "django.db.backends.postgresql":
        _db.setdefault("OPTIONS", {})
        # Moves must be durable before they are broadcast; never relax this here.
        _db["OPTIONS"].setdefault("connect_timeout", env_int("DATABASE_CONNECT_TIMEOUT", 5))
        # One bounded pool per process (psycopg_pool, through Django's native support):
        # requests, consumers' off-loop calls and the worker all borrow from it, so a
        # process never holds more than max_size connections, however many requests are
        # in flight; the rest wait up to `timeout` s, then get 503 `unavailable`. The
        # pool checks a connection as it leaves the pool (Django skips its own per-call
        # health check under a pool), with a round trip only when the connection's
        # socket has something to read, which on an idle connection means the server
        # is ending it: Django's backend with that check, bloqueio_site/postgres
        # (docs/operations.md, "Database connections").
        # Parameters travel beside the SQL (server-side binding) instead of being quoted
        # into it by psycopg in Python, and a statement a connection has run
        # DATABASE_PREPARE_THRESHOLD times is prepared on it, so PostgreSQL stops parsing
        # and planning it again (the move's guarded write, a game's row, a socket's
        # token): up to a third less PostgreSQL CPU under the continuous benchmark
        # (docs/performance.md). 0 turns preparing off (PgBouncer before 1.22 in
        # transaction mode; docs/operations.md, "Prepared statements").
        _db["OPTIONS"]["server_side_binding"] = True
        _prepare = env_int("DATABASE_PREPARE_THRESHOLD", 5)
        _db["OPTIONS"]["prepare_threshold"] = _prepare or None
        _db["ENGINE"] = "bloqueio_site.postgres"
        _db["CONN_HEALTH_CHECKS"] = True
        _pool_max = env_int("DATABASE_POOL_MAX_SIZE", 10, minimum=1)
        _db["OPTIONS"]["pool"] = {
            "min_size": min(env_int("DATABASE_POOL_MIN_SIZE", 2, minimum=0), _pool_max),
            "max_size": _pool_max,
            "timeout": env_float("DATABASE_POOL_TIMEOUT", 10.0, minimum=0.1),
            # A pooled connection is replaced after an hour (server-side memory growth)
            # and closed after ten idle minutes above min_size.
            "max_lifetime": 3600.0,
            "max_idle": 600.0,
            # psycopg_pool retries a lost connection with a doubling delay and no cap
            # until `reconnect_timeout` (default 5 min): after a 15 s outage its next try
            # could be 16 s away, and requests kept getting 503 long after PostgreSQL
            # was back. Giving up after a few seconds hands reconnection back to demand:
            # the next request that finds the pool empty starts a fresh attempt at once.
            "reconnect_timeout": env_float("DATABASE_POOL_RECONNECT_TIMEOUT", 5.0,
                                           minimum=0.5),
            "name": "bloqueio",
        }
        # PostgreSQL's own bounds on each of our sessions (docs/operations.md, "Database
        # timeouts"). A stalled process (SIGSTOP, a debugger, a hung thread) holding a
        # game's row lock used to make every request on that game wait with a pooled
        # connection, until the pool ran dry and /healthz answered 503. Now a lock is
        # waited for DATABASE_LOCK_TIMEOUT s, a statement runs DATABASE_STATEMENT_TIMEOUT
        # s, and a session idle inside a transaction for
        # DATABASE_IDLE_IN_TRANSACTION_TIMEOUT s is ended by the server, which releases
        # its locks; 0 turns one off. Each raises an OperationalError: 503 `unavailable`
        # with Retry-After, like a pool timeout. Maintenance commands that may rightly
        # run long (a migration's index build, a rebuild) keep the lock bound only.
        _timeouts = {
            "lock_timeout": env_float("DATABASE_LOCK_TIMEOUT", 3.0),
            "statement_timeout": env_float("DATABASE_STATEMENT_TIMEOUT", 15.0),
            "idle_in_transaction_session_timeout": env_float(
                "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT", 10.0),
        }
        if sys.argv[1:2] and sys.argv[1] in ("migrate", "rebuild_games", "loaddata",
                                              "dumpdata"):
            _timeouts["statement_timeout"] = _timeouts[
                "idle_in_transaction_session_timeout"] = 0.0
        _db["OPTIONS"]["options"] = " ".join(
            [*(f"-c {name}={round(seconds * 1000)}" for name, seconds in _timeouts.items()),
             _db["OPTIONS"].get("options", "")]).strip()  # the URL's own `options` win
else:
    _db = {"ENGINE": "django.db.backends.sqlite3", "NAME": BASE_DIR / "db.sqlite3"}
if _db["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default: Daphne and the worker (`make run` starts both) write the same
    # file. Take the write lock at BEGIN and wait for it, instead of failing at once.
    _db.setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
DATABASES = {"default": _db}
# PostgreSQL: a live move over a socket is written by the event loop itself, on at most
# this many asynchronous connections per event loop besides the pool above (0: every move
# hops to a worker thread): bloqueio_site/loop_db.py, games/table.py.
LOOP_DB_CONNECTIONS = env_int("DATABASE_LOOP_CONNECTIONS", 8, minimum=0)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and cache -----------------------------------------------------
REDIS_URL = env_str("REDIS_URL")
# "lists" (default): the fault tests cover it, including a Redis restart, where sockets
# drop and clients resync. "pubsub" measured ~8 % faster, but during a Redis outage its
# sockets stay open and miss notifications silently until the next event.
CHANNEL_LAYER = env_choice("CHANNEL_LAYER", ("pubsub", "lists"), "lists")
if REDIS_URL:
    _hosts = [{
        "address": REDIS_URL,
        # redis-py 8 caps a pool at 100 connections and fails at once past that; a connect
        # storm of sockets needs more in flight.
        "max_connections": env_int("REDIS_MAX_CONNECTIONS", 1000, minimum=10),
        # redis-py 8 times socket reads out after 5 s, exactly channels-redis' blocking
        # BZPOPMIN (5 s): a reply read a little late killed the consumer (close 1011).
        "socket_timeout": 30,
        "socket_connect_timeout": 5,
    }]
    _prefix = env_str("CHANNEL_LAYER_PREFIX", "bloqueio")
    if CHANNEL_LAYER == "pubsub":
        # One Redis PUBLISH per group message, fanned out inside each process: the work per
        # event is per game and per process, not per socket. At-most-once, like the other.
        CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": _hosts, "prefix": _prefix},
        }}
    else:
        # Redis lists per channel: a copy of every group message per socket, buffered.
        CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": _hosts,
                "prefix": _prefix,
                "capacity": env_int("CHANNEL_LAYER_CAPACITY", 1000, minimum=1),
                "expiry": 60,
            },
        }}
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_PREFIX", "bloqueio"),
            # One pool per process, not one per request's cache object (a TCP connect
            # and handshake to Redis for every rate-limited request and socket open).
            "OPTIONS": {"pool_class": "bloqueio_site.cache_pool.SharedConnectionPool",
                        "max_connections": _hosts[0]["max_connections"]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The outbox (games/outbox.py) carried out by the process that wrote the rows, after
# their commit, as well as by the worker: the default without Redis (`make run`), where
# the worker's pushes could not reach this process's sockets (an in-memory layer).
OUTBOX_IN_PROCESS = env_bool("OUTBOX_IN_PROCESS", not REDIS_URL)

# --- Auth -----------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Argon2id first: new passwords, and PBKDF2 ones rehashed at their next log-in. Both
# bounded (accounts/hashers.py): no database connection held while hashing, at most
# PASSWORD_HASH_CONCURRENCY at once, and a hash that cannot start within
# PASSWORD_HASH_MAX_WAIT seconds refused with 503 `unavailable` and Retry-After. The
# rest of Django's defaults still verify older hashes.
PASSWORD_HASHERS = [
    "accounts.hashers.BoundedArgon2PasswordHasher",  # replaces Argon2PasswordHasher
    "accounts.hashers.BoundedPBKDF2PasswordHasher",  # replaces PBKDF2PasswordHasher
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
PASSWORD_HASH_CONCURRENCY = env_int("PASSWORD_HASH_CONCURRENCY", os.cpu_count() or 2, minimum=1)
PASSWORD_HASH_MAX_WAIT = env_float("PASSWORD_HASH_MAX_WAIT", 3.0, minimum=0.0)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# E-mail (docs/operations.md, "E-mail"): EMAIL_URL says where it goes (printed when
# unset): EMAIL_BACKEND, EMAIL_HOST... set from it.
globals().update(email_settings(os.environ.get("EMAIL_URL")))
DEFAULT_FROM_EMAIL = os.environ.get("EMAIL_FROM", "Bloqueio Online <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Every link in e-mail starts with SITE_URL (default: https:// and the first allowed
# host in production; `make run` sets it to where it serves), never with a request's
# Host, which the client chooses.
SITE_URL = env_str("SITE_URL", (f"https://{ALLOWED_HOSTS[0]}" if PRODUCTION else
                                "http://127.0.0.1:8000")).rstrip("/")
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600  # a reset link, and an address's check link, last 3 days

AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
# The folded name: "Carol" and "CAROL" are one account's failures (accounts/lockout.py).
AXES_USERNAME_CALLABLE = "accounts.lockout.lockout_username"

# --- REST API -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",  # default and named tokens
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["bloqueio_site.parsers.StrictJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "EXCEPTION_HANDLER": "bloqueio_site.api_errors.exception_handler",
    # Throttles key on REMOTE_ADDR, never on a client's own X-Forwarded-For: behind a
    # proxy the ASGI server rewrites REMOTE_ADDR for the proxies it trusts
    # (FORWARDED_ALLOW_IPS), see bloqueio_site/limits.py.
    "NUM_PROXIES": 0,
}
# What one socket may have queued for its client before it counts as not reading and is
# closed with 1013 (games/live/outbox.py).
WEBSOCKET_SEND_QUEUE_BYTES = env_int("WEBSOCKET_SEND_QUEUE_BYTES", 2 * 1024 * 1024,
                                     minimum=16 * 1024)
# Every limit's count is multiplied by this (bloqueio_site/limits.py).
RATE_LIMIT_SCALE = env_float("RATE_LIMIT_SCALE", 1.0, minimum=0.001)
# Seconds a player of a live game whose sockets all closed has to come back before the
# others of a casual game may hand the seat to a bot (games/leavers.py).
LEAVER_GRACE_SECONDS = env_float("LEAVER_GRACE_SECONDS", 60.0, minimum=0.0)
# The pause between a tournament round's last game and the next round's seating, in
# which players join and withdraw (docs/tournaments.md, "Life of a tournament").
TOURNAMENT_ROUND_PAUSE_SECONDS = env_float("TOURNAMENT_ROUND_PAUSE_SECONDS", 60.0,
                                           minimum=0.0)
SPECTACULAR_SETTINGS = {
    "TITLE": "Bloqueio Online API",
    "DESCRIPTION": "REST interface for players, programs and spectators. "
    "Errors are JSON {code, detail}. The WebSocket half is described in docs/realtime.md.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name for the bot levels wherever they appear (seat.bot, bots[], level).
    "ENUM_NAME_OVERRIDES": {"BotLevelEnum": "games.bots.LEVELS",
                            "NotificationKindEnum": "notifications.models.KINDS",
                            "KindEnum": "games.engine.KINDS",
                            "StatusEnum": "games.api.serializers.GAME_STATUSES",
                            "TournamentStatusEnum": "tournaments.models.State",
                            "TournamentSystemEnum": "tournaments.models.System"},
}
# A request body larger than this is refused before it is parsed.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("MAX_REQUEST_BYTES", 64 * 1024, minimum=1024)

# --- Static files ---------------------------------------------------------------------
STATIC_URL = "static/"
# Where collectstatic writes and production serves from (deploy/collect_static.sh).
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Outside production, serve straight from the app folders (no collectstatic needed).
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = DEBUG

# --- Languages (docs/i18n.md) -----------------------------------------------------------
# English and Brazilian Portuguese, at the same URLs: LocaleMiddleware picks the language
# from the switcher's cookie, else Accept-Language; a signed-in account's own choice
# (accounts.User.language) wins over both. Catalogues: locale/<ll_CC>/LC_MESSAGES/*.po,
# compiled to .mo by `make run`, `make test` and the image build.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("pt-br", "Português (Brasil)")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["bloqueio_site.formats"]  # pt_BR dates with lower-case months
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600  # a choice made once lasts (Django's default: the session)
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Content-Security-Policy (bloqueio_site/csp.py) -------------------------------------
# Where browsers report a violation of the policy (`report-uri`); empty: nowhere.
CSP_REPORT_URI = env_str("CSP_REPORT_URI")
if any(c in CSP_REPORT_URI for c in " ;,\t\r\n"):
    raise ImproperlyConfigured("CSP_REPORT_URI must be one URL (no spaces, ';' or ',')")

# --- Production hardening -------------------------------------------------------------
if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    if env_bool("DJANGO_BEHIND_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # The load balancer's health probe talks plain HTTP to the process.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^livez$"]

LOG_LEVEL = env_choice(
    "LOG_LEVEL", ("debug", "info", "warning", "error"), "info"
).upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "filters": {"quiet_unavailable": {"()": "bloqueio_site.unavailable.QuietUnavailableFilter"},
                "quiet_sockets": {"()": "bloqueio_site.quiet_logs.QuietSocketsFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain",
                             "filters": ["quiet_unavailable"]}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        # One line per real event (bloqueio_site/quiet_logs.py): not every socket opened
        # and closed, nor django-axes' four lines a log-in, unless LOG_LEVEL=debug.
        "uvicorn.error": {"filters": [] if LOG_LEVEL == "DEBUG" else ["quiet_sockets"]},
        "axes": {"level": LOG_LEVEL if LOG_LEVEL == "DEBUG" else "WARNING"},
    },
}
if LOG_LEVEL != "DEBUG":
    from bloqueio_site.quiet_logs import quiet_static_files_warning

    quiet_static_files_warning()
