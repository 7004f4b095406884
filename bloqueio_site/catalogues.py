"""Every configured language has its compiled translation catalogues, or the site says so.

The catalogues are committed as `.po` and compiled to `.mo` by `make run`, `make test`
and the image build (deploy/compile_messages.sh); the `.mo` files are not committed. A
deploy from a checkout that skipped the compile served English under `lang="pt-br"`,
and nothing said why: Django falls back to the source strings without a word.

`problems()` names each language of `LANGUAGES` (but the source language, English) and
domain (`django`: Python and templates; `djangojs`: static/js) with no `.mo` in
`LOCALE_PATHS`. It is a system check (`bloqueio.i18n.E001`, an error in production, so
`check`, `migrate` and the worker refuse to start; `bloqueio.i18n.W001`, a warning in
development) and runs again as a web process loads (`require`, bloqueio_site/asgi.py):
in production the process stops with the message, in development it logs a warning.
"""

from __future__ import annotations

import gettext
import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import to_locale

log = logging.getLogger(__name__)

DOMAINS = ("django", "djangojs")
SOURCE_LANGUAGE = "en"  # the strings in the code are English: no catalogue needed
E_MISSING = "bloqueio.i18n.E001"
W_MISSING = "bloqueio.i18n.W001"
HINT = ("Compile them with `sh deploy/compile_messages.sh` (GNU gettext's msgfmt; `make "
        "run`, `make test` and the Docker image do it) wherever the site runs from a "
        "checkout (docs/operations.md, \"Production checklist\").")


def problems(languages: Iterable[tuple[str, str]] | None = None,
             paths: Iterable[str | Path] | None = None) -> list[str]:
    """"pt_BR/django.mo", ...: each catalogue a configured language lacks, compiled."""
    languages = settings.LANGUAGES if languages is None else languages
    paths = [str(p) for p in (settings.LOCALE_PATHS if paths is None else paths)]
    missing = []
    for code, _name in languages:
        if code.split("-")[0] == SOURCE_LANGUAGE:
            continue
        locale = to_locale(code)
        for domain in DOMAINS:
            if not any(gettext.find(domain, path, [locale]) for path in paths):
                missing.append(f"{locale}/{domain}.mo")
    return missing


def _message(missing: list[str]) -> str:
    return ("Translation catalogues are not compiled: "
            f"{', '.join(missing)} (in {', '.join(map(str, settings.LOCALE_PATHS))}); "
            "pages in those languages would be served in English.")


def check_catalogues(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """The system check: an error in production, a warning elsewhere."""
    missing = problems()
    if not missing:
        return []
    kind = checks.Error if settings.PRODUCTION else checks.Warning
    return [kind(_message(missing), hint=HINT,
                 id=E_MISSING if settings.PRODUCTION else W_MISSING)]


def require() -> None:
    """As a web process loads: refuse to start in production, warn loudly elsewhere."""
    missing = problems()
    if not missing:
        return
    if settings.PRODUCTION:
        raise ImproperlyConfigured(f"{_message(missing)} {HINT}")
    log.warning("%s %s", _message(missing), HINT)
