"""The "How to play" pages in Brazilian Portuguese (issue 30): the same URL, chosen by the
browser's Accept-Language, with no English sentence left, and a complete catalogue.

The rules text is the page's own (templates/rules/, games/texts.py); the board
drawing inside it is games/boards' SVG, which the site's other pages share, so it is
left out of the comparison here.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from games import engine

pytestmark = pytest.mark.django_db

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "pt_BR" / "LC_MESSAGES" / "django.po"
RULES_SOURCES = ("templates/rules/", "games/texts.py", "games/engine/")
# Words a Portuguese page keeps: the games' and the site's names. Notation (f2, e3h, I5,
# L5/0@a0), numbers and single letters (X, O, h, v) are kept too.
NAMES = {"Bloqueio", "Quoridor", "Blokus", "Duo", "Blockade", "Run", "Online"}
FIELD = re.compile(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (".*")$')
BLOCKS = {"p", "li", "h1", "h2", "figcaption", "title", "ol", "ul", "nav", "article", "br"}


class _Sentences(HTMLParser):
    """The visible text of the page's rules (its <title> and the content grid, without
    the SVG drawings), as sentences, plus its aria-labels."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.depth = 0  # inside the content grid
        self.svg = 0
        self.in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "div" and self.depth == 0 and found.get("class") == "grid-2":
            self.depth = 1
        elif self.depth and tag == "div":
            self.depth += 1
        self.in_title = tag == "title" and not self.svg
        if tag == "svg":
            self.svg += 1
        if tag in BLOCKS:
            self.parts.append("\n")
        if self.depth and not self.svg and found.get("aria-label"):
            self.parts.append(f"\n{found['aria-label']}\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self.svg -= 1
        elif tag == "div" and self.depth:
            self.depth -= 1
        if tag == "title":
            self.in_title = False
        if tag in BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if (self.depth or self.in_title) and not self.svg:
            self.parts.append(data)

    def sentences(self) -> set[str]:
        out = set()
        for block in "".join(self.parts).split("\n"):
            for sentence in re.split(r"(?<=[.:;!?])\s+", " ".join(block.split())):
                if sentence:
                    out.add(sentence)
        return out


def _sentences(client, kind: str, language: str) -> set[str]:
    response = client.get(f"/rules/{kind}/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    assert response["Content-Language"] == language.lower()
    parser = _Sentences()
    parser.feed(response.content.decode())
    found = parser.sentences()
    assert len(found) > 20, (kind, language)  # the rules were read, not just the frame
    return found


def _is_words(sentence: str) -> bool:
    """Whether `sentence` holds a word to translate: not only names, notation, numbers."""
    for word in re.findall(r"[A-Za-zÀ-ÿ]+(?:'[a-z]+)?", sentence):
        if word not in NAMES and len(word) > 1 and not re.fullmatch(r"[A-Z]\d*|[a-z]", word):
            return True
    return False


def _catalogue() -> list[dict[str, object]]:
    """The entries of the pt_BR catalogue: msgctxt, msgid, msgstr forms, flags and files."""
    entries: list[dict[str, object]] = []
    for block in CATALOGUE.read_text(encoding="utf-8").split("\n\n"):
        entry: dict[str, object] = {"files": [], "flags": [], "msgstr": [], "msgid": None}
        field = None
        for line in block.splitlines():
            if line.startswith("#:"):
                entry["files"] += line[2:].split()
            elif line.startswith("#,"):
                entry["flags"] += [f.strip() for f in line[2:].split(",")]
            elif line.startswith("#"):
                continue
            elif match := FIELD.match(line):
                field = match.group(1)
                text = _unquote(match.group(2))
                if field.startswith("msgstr"):
                    entry["msgstr"].append(text)
                else:
                    entry[field] = text
            elif line.startswith('"') and field:
                if field.startswith("msgstr"):
                    entry["msgstr"][-1] += _unquote(line)
                else:
                    entry[field] += _unquote(line)
        if entry["msgid"]:  # not the header
            entries.append(entry)
    return entries


def _unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


def test_the_catalogue_is_compiled():
    mo = CATALOGUE.with_suffix(".mo")
    assert mo.exists() and mo.stat().st_mtime >= CATALOGUE.stat().st_mtime, (
        "compile the catalogue: .venv/bin/python manage.py compilemessages")


@pytest.mark.parametrize("kind", list(engine.KINDS))
def test_rules_page_in_portuguese_keeps_no_english_sentence(client, kind):
    english = _sentences(client, kind, "en")
    portuguese = _sentences(client, kind, "pt-br")
    left = sorted(s for s in english & portuguese if _is_words(s))
    assert not left, f"English left on /rules/{kind}/ in pt-BR: {left}"
    assert any("jogador" in s for s in portuguese)  # and it is Portuguese, not empty


@pytest.mark.parametrize("kind", ["bloqueio", "quoridor4", "blockade_run", "blokus2"])
def test_a_browser_without_portuguese_reads_english(client, kind):
    response = client.get(f"/rules/{kind}/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert response["Content-Language"] == "en"
    assert "<h2>The goal</h2>" in response.content.decode()


def test_bloqueio_speaks_as_its_players_do(client):
    page = client.get("/rules/bloqueio/", HTTP_ACCEPT_LANGUAGE="pt-BR,pt;q=0.9").content.decode()
    for seat in range(1, 5):
        assert f"(Jogador {seat})" in page
    for word in ("barreiras", "peão", "casa", "zona de chegada", "Vermelho", "Amarelo"):
        assert word in page, word


def test_every_rules_message_is_translated_and_none_is_fuzzy():
    rules = [e for e in _catalogue()
             if any(f.startswith(RULES_SOURCES) for f in e["files"])]  # type: ignore[union-attr]
    assert len(rules) > 150  # the rules of nine kinds
    for entry in rules:
        assert "fuzzy" not in entry["flags"], entry["msgid"]  # type: ignore[operator]
        forms = entry["msgstr"]
        assert forms and all(forms), f"untranslated: {entry['msgid']!r}"  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", list(engine.KINDS))
def test_every_kind_title_summary_and_measure_is_in_the_catalogue(kind):
    """A new kind, or a reworded phrase, needs it marked where the family declares it
    (``gettext_noop``, games/engine/words.py) and translated: the catalogue has it, not
    fuzzy, and the compiled catalogue says it in Portuguese."""
    info = engine.get(kind).info
    phrases = [p for p in (info.title, info.summary, info.measure_name) if _is_words(p)]
    assert info.summary in phrases and info.measure_name in phrases
    entries = {e["msgid"]: e for e in _catalogue() if "msgctxt" not in e}
    for phrase in phrases:
        entry = entries.get(phrase)
        assert entry is not None, f"not in the catalogue (unmarked?): {phrase!r}"
        forms = entry["msgstr"]
        assert forms and all(forms), f"untranslated: {phrase!r}"  # type: ignore[arg-type]
        assert "fuzzy" not in entry["flags"], phrase  # type: ignore[operator]
        with translation.override("pt-br"):
            assert translation.gettext(phrase) != phrase, phrase
