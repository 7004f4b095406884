"""The translation catalogues are complete and current.

`make messages` is run (its own command line, read from the Makefile) on a copy of the
project, merging into a copy of the committed catalogues. Then for each domain
(`django` for Python and templates, `djangojs` for static/js): the committed catalogue
holds exactly the strings the code marks (none missing, none stale), and every one is
translated (no empty msgstr) and not fuzzy.
"""

from __future__ import annotations

import ast
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

LOCALE = "pt_BR"
DOMAINS = ("django", "djangojs")
COPY_IGNORES = shutil.ignore_patterns(".venv", ".git", "staticfiles", "node_modules",
                                      "test-artifacts", "__pycache__", ".pytest_cache",
                                      ".ruff_cache", ".hypothesis", "*.mo", "db.sqlite3")


def makemessages_arguments() -> list[str]:
    """The arguments of `manage.py` in the Makefile's MAKEMESSAGES."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    found = re.search(r"^MAKEMESSAGES = \$\(PY\) manage\.py (.+)$", text, re.M)
    assert found, "the Makefile has no MAKEMESSAGES line"
    return shlex.split(found.group(1))


def entries(path: Path) -> dict[tuple[str | None, str, str | None], dict]:
    """The catalogue's live entries by (context, msgid, plural msgid): their msgstr
    forms and flags. The header (empty msgid) and obsolete entries (#~) are left out."""
    found = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        flags: set[str] = set()
        key = None
        for line in block.splitlines():
            if line.startswith("#,"):
                flags |= {flag.strip() for flag in line[2:].split(",")}
                continue
            if line.startswith("#"):
                continue
            head = re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (\".*\")$", line)
            if head:
                key = head.group(1)
                fields[key] = _unquote(head.group(2))
            elif line.startswith('"') and key:
                fields[key] += _unquote(line)
        if fields.get("msgid"):
            forms = [v for k, v in fields.items() if k.startswith("msgstr")]
            found[(fields.get("msgctxt"), fields["msgid"], fields.get("msgid_plural"))] = {
                "forms": forms, "flags": flags}
    return found


def _unquote(text: str) -> str:
    """A PO string literal's text (C escapes: \\" \\\\ \\n)."""
    value = ast.literal_eval(text)
    assert isinstance(value, str)
    return value


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project after `make messages`: its locale/ merged afresh."""
    copy = tmp_path_factory.mktemp("messages") / "project"
    shutil.copytree(ROOT, copy, ignore=COPY_IGNORES, symlinks=True)
    for domain in ("django", "djangojs"):
        done = subprocess.run(
            [sys.executable, "manage.py", *makemessages_arguments(),
             *(["-d", domain] if domain != "django" else [])],
            cwd=copy, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    return copy / "locale" / LOCALE / "LC_MESSAGES"


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_catalogue_holds_every_marked_string(domain, extracted):
    committed = ROOT / "locale" / LOCALE / "LC_MESSAGES" / f"{domain}.po"
    fresh = extracted / f"{domain}.po"
    if not fresh.exists():  # nothing of this domain is marked for translation yet
        assert not committed.exists() or entries(committed) == {}, committed
        return
    assert committed.exists(), f"{committed} is missing: run `make messages`"
    wanted, have = set(entries(fresh)), set(entries(committed))
    assert sorted(wanted - have, key=str) == [], "not in the catalogue: run `make messages`"
    assert sorted(have - wanted, key=str) == [], "no longer marked: run `make messages`"


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_entry_is_translated_and_none_is_fuzzy(domain):
    committed = ROOT / "locale" / LOCALE / "LC_MESSAGES" / f"{domain}.po"
    # A domain nothing marks yet has no catalogue (the test above checks that).
    found = entries(committed) if committed.exists() or domain == "django" else {}
    untranslated = [key for key, entry in found.items() if not all(entry["forms"])]
    fuzzy = [key for key, entry in found.items() if "fuzzy" in entry["flags"]]
    assert untranslated == [], f"untranslated in {committed.name}: {untranslated}"
    assert fuzzy == [], f"fuzzy in {committed.name}: {fuzzy}"


def test_the_catalogue_parser_sees_a_missing_and_a_fuzzy_entry(tmp_path):
    """The checks above can fail: an empty msgstr and a fuzzy flag are found."""
    sample = tmp_path / "sample.po"
    sample.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                      'msgid "Play"\nmsgstr ""\n\n'
                      '#, fuzzy, python-format\nmsgid "%(n)s game"\nmsgid_plural "%(n)s games"\n'
                      'msgstr[0] "%(n)s partida"\nmsgstr[1] "%(n)s partidas"\n\n'
                      'msgctxt "colour"\nmsgid "red"\nmsgstr "vermelho"\n', encoding="utf-8")
    found = entries(sample)
    assert found[(None, "Play", None)]["forms"] == [""]
    assert "fuzzy" in found[(None, "%(n)s game", "%(n)s games")]["flags"]
    assert found[("colour", "red", None)]["forms"] == ["vermelho"]
    assert len(found) == 3
