"""Load the settings in a fresh interpreter under a chosen environment (for tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUR_VARS = (
    "DJANGO_ENV", "DJANGO_DEBUG", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "DATABASE_URL",
    "REDIS_URL", "CHANNEL_LAYER", "DJANGO_SECURE_SSL_REDIRECT", "CHANNEL_LAYER_PREFIX", "LOG_LEVEL",
)

PROBE = """
import json
from django.conf import settings
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "db_engine": settings.DATABASES["default"]["ENGINE"],
    "db_name": str(settings.DATABASES["default"]["NAME"]),
    "db_host": settings.DATABASES["default"].get("HOST"),
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "layer_hosts": settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts"),
    "cache": settings.CACHES["default"]["BACKEND"],
    "secure_cookies": getattr(settings, "SESSION_COOKIE_SECURE", False),
    "hsts": getattr(settings, "SECURE_HSTS_SECONDS", 0),
    "static": settings.STORAGES["staticfiles"]["BACKEND"],
}))
"""


def clean_env(**overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in OUR_VARS}
    env["DJANGO_SETTINGS_MODULE"] = "bloqueio_site.settings"
    env.update(overrides)
    return env


def run(args: list[str], **overrides: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=clean_env(**overrides),
        capture_output=True, text=True, timeout=120,
    )


def load_settings(**overrides: str) -> dict[str, object]:
    proc = run(["-c", "import django; django.setup()\n" + PROBE], **overrides)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)
