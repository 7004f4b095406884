"""The scripts' catalogue (docs/web.md, "Translating the pages' words"): xgettext reads
every gettext call in static/js, translations keep their placeholders, and /jsi18n/
serves the catalogue per language, cheaply asked again. That djangojs.po holds exactly the
marked strings, all translated and none fuzzy, is tests/site/test_catalogues.py's check
(for every domain)."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from bloqueio_site import jscatalog
from tests.site.test_catalogues import entries

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "pt_BR" / "LC_MESSAGES" / "djangojs.po"
GETTEXT_CALL = re.compile(r"\b(n?p?gettext)\(\s*((?:\"(?:[^\"\\]|\\.)*\"\s*,?\s*)+)")


def translations(po: Path) -> dict[tuple[str | None, str], list[str]]:
    """(msgctxt, msgid) -> its msgstr forms (tests/site/test_catalogues.py reads the file)."""
    return {(ctx, msgid): entry["forms"] for (ctx, msgid, _), entry in entries(po).items()}


def gettext_calls() -> set[tuple[str | None, str]]:
    """Every (context, msgid) the scripts pass to gettext and its kin, found by a regex."""
    found = set()
    for script in (ROOT / "static" / "js").rglob("*.js"):
        for m in GETTEXT_CALL.finditer(script.read_text(encoding="utf-8")):
            args = [ast.literal_eval(a) for a in re.findall(r'"(?:[^"\\]|\\.)*"', m.group(2))]
            context = args.pop(0) if m.group(1).startswith(("pgettext", "npgettext")) else None
            found.add((context, args[0]))
    return found


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The catalogue makemessages writes from the scripts as they are now: run on a copy
    of static/js, so that it neither reads nor rewrites the committed catalogue (it
    writes beside any `locale` folder it finds)."""
    tree = tmp_path_factory.mktemp("extract")
    shutil.copytree(ROOT / "static" / "js", tree / "static" / "js")
    here = Path.cwd()
    os.chdir(tree)
    try:
        with override_settings(LOCALE_PATHS=[tree / "out"]):
            call_command("makemessages", domain="djangojs", locale=["pt_BR"], add_location="file",
                         verbosity=0)
    finally:
        os.chdir(here)
    return tree / "out" / "pt_BR" / "LC_MESSAGES" / "djangojs.po"


def test_extraction_misses_no_gettext_call(extracted: Path) -> None:
    # xgettext reads JavaScript with a lexer of its own: a construct it misreads would
    # silently drop the calls after it. The regex finds them all (literal arguments).
    calls = gettext_calls()
    assert len(calls) > 300
    assert not calls - set(translations(extracted))


def test_placeholders_survive_translation() -> None:
    for (_, msgid), strs in translations(PO).items():
        wanted = sorted(set(re.findall(r"%\(\w+\)s", msgid)))
        for translated in strs:
            assert sorted(set(re.findall(r"%\(\w+\)s", translated))) == wanted, (msgid, translated)


@pytest.mark.django_db
def test_the_catalogue_speaks_the_readers_language(client: Client) -> None:
    pt = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="pt-BR,pt;q=0.9")
    en = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="en")
    assert pt.status_code == en.status_code == 200
    assert pt["Content-Type"].startswith("text/javascript")
    words = translations(PO)[(None, "Show best move")][0]  # as translated in the catalogue
    assert json.dumps(words) in pt.content.decode()
    assert json.dumps(words) not in en.content.decode()
    assert "nplurals" not in en.content.decode() and "(n > 1)" in pt.content.decode()
    # Only the project's words: Django admin's own djangojs catalogue is not sent.
    assert "Calendário" not in pt.content.decode()
    cookie = Client(HTTP_ACCEPT_LANGUAGE="en")
    cookie.cookies["django_language"] = "pt-br"
    assert cookie.get("/jsi18n/").content == pt.content


@pytest.mark.django_db
def test_the_catalogue_is_asked_again_for_nothing(client: Client) -> None:
    first = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="pt-BR")
    tag = first["ETag"]
    assert "no-cache" in first["Cache-Control"]
    assert {"Accept-Language", "Cookie"} <= {v.strip() for v in first["Vary"].split(",")}
    again = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="pt-BR", HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b""
    # Another language is another script: the browser's copy is not reused for it.
    other = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="en", HTTP_IF_NONE_MATCH=tag)
    assert other.status_code == 200 and other["ETag"] != tag


@pytest.mark.django_db
def test_every_page_loads_the_catalogue_before_its_scripts(client: Client) -> None:
    page = client.get("/").content.decode()
    catalogue = page.index('src="/jsi18n/"')
    assert catalogue < page.index('type="module"')
    # Deferred: it runs before the module scripts, in document order, without blocking.
    assert re.search(r'<script defer src="/jsi18n/"></script>', page)


def test_a_catalogue_is_built_once_per_language() -> None:
    jscatalog._built.cache_clear()
    first = jscatalog._built("pt-br")
    assert jscatalog._built("pt-br") is first
    assert jscatalog._built.cache_info().hits == 1
