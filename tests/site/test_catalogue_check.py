"""A configured language without its compiled catalogues is caught: a system check
(an error in production, a warning in development), and a production web process
refuses to start, instead of serving English under lang="pt-br" (issue 44, item 13)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import checks
from django.test import override_settings

from bloqueio_site import catalogues
from tests.live.servers import ROOT, free_port
from tests.settings_probe import clean_env


def uncompiled(tmp_path: Path) -> Path:
    """A copy of the committed catalogues (.po) without the compiled ones (.mo)."""
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "locale", locale, ignore=shutil.ignore_patterns("*.mo"))
    return locale


def test_the_compiled_catalogues_are_found() -> None:
    assert catalogues.problems() == []  # `make test` compiled them
    assert catalogues.check_catalogues() == []


def test_a_missing_catalogue_is_an_error_in_production_and_a_warning_elsewhere(tmp_path):
    locale = uncompiled(tmp_path)
    assert catalogues.problems(paths=[locale]) == ["pt_BR/django.mo", "pt_BR/djangojs.mo"]
    with override_settings(LOCALE_PATHS=[locale], PRODUCTION=True):
        found = checks.run_checks(tags=[checks.Tags.translation])
    assert [(type(m), m.id) for m in found] == [(checks.Error, catalogues.E_MISSING)]
    assert "pt_BR/django.mo" in found[0].msg and "compile_messages" in found[0].hint
    with override_settings(LOCALE_PATHS=[locale], PRODUCTION=False):
        found = checks.run_checks(tags=[checks.Tags.translation])
    assert [(type(m), m.id) for m in found] == [(checks.Warning, catalogues.W_MISSING)]
    with override_settings(LOCALE_PATHS=[locale], LANGUAGES=[("en", "English")]):
        assert catalogues.problems() == []  # English needs none


def production_env(locale: Path) -> dict[str, str]:
    return clean_env(DJANGO_ENV="production", DJANGO_SECRET_KEY="x" * 50,
                     DJANGO_ALLOWED_HOSTS="127.0.0.1", DJANGO_SECURE_SSL_REDIRECT="false",
                     DJANGO_SETTINGS_MODULE="tests.site.no_catalogues_settings",
                     TEST_LOCALE_PATHS=str(locale), LOG_LEVEL="warning")


@pytest.mark.slow
def test_a_production_server_without_catalogues_refuses_to_start(tmp_path):
    from bloqueio_site.serve import command

    env = production_env(uncompiled(tmp_path))
    done = subprocess.run(command(["127.0.0.1", str(free_port())], "uvicorn"), cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "pt_BR/django.mo" in done.stderr + done.stdout
    checked = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
    assert checked.returncode != 0 and catalogues.E_MISSING in checked.stderr
