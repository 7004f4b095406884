"""What a person reads on a page, sentence by sentence, and which sentences of a
Portuguese rendering are still the English one.

Read: text nodes and the attributes people hear or see (alt, title, aria-label,
placeholder, a button's value), outside scripts, styles, inline SVG (the boards draw
notation there) and <code> (commands, headers). A sentence of the pt-BR rendering that
is also a sentence of the English rendering is English still, unless every word in it
is allowed: names (the brand, the games, the users), notation and loanwords Brazilian
Portuguese uses as they are.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

SKIPPED = frozenset({"script", "style", "svg", "code", "template"})
READ_ATTRIBUTES = ("alt", "title", "aria-label", "placeholder")
# Words a pt-BR page shows as they are in English: the brand, the game names, the
# languages' own names (the switcher), the API, and loanwords pt-BR uses unchanged.
ALLOWED = frozenset({
    "bloqueio", "online", "quoridor", "blokus", "blockade", "run", "duo",
    "english", "português", "brasil", "api", "rating", "e-mail", "min", "offline",
    "arena",
})
_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+")
_WORD = re.compile("[^\\W\\d_](?:[\\w'\u2019-]*\\w)?")


class _Reader(HTMLParser):
    """Runs of text: each text node (between two tags) and each read attribute."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skipping = 0
        self.runs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self.skipping += 1
        if self.skipping:
            return
        found = dict(attrs)
        self.runs += [found[name] or "" for name in READ_ATTRIBUTES if found.get(name)]
        if tag == "input" and found.get("type") in ("submit", "button") and found.get("value"):
            self.runs.append(found["value"] or "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in SKIPPED:
            self.skipping -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.runs.append(data)


def sentences(html: str) -> set[str]:
    """The page's visible sentences, whitespace collapsed."""
    reader = _Reader()
    reader.feed(html)
    found = set()
    for run in reader.runs:
        for sentence in _SENTENCE_END.split(" ".join(run.split())):
            if sentence:
                found.add(sentence)
    return found


def english_left(english: str, portuguese: str, *, names: frozenset[str] = frozenset()
                 ) -> list[str]:
    """Sentences of the pt-BR page `portuguese` that are still those of `english`."""
    allowed = ALLOWED | {n.lower() for n in names}
    same = sentences(english) & sentences(portuguese)
    return sorted(s for s in same if any(_is_word(w) and w.lower() not in allowed
                                         for w in _WORD.findall(s)))


def _is_word(token: str) -> bool:
    """A word to translate: not a single letter, nor notation with a digit in it (the
    Blokus pieces I1 to Z5, squares such as f2)."""
    return len(token) > 1 and not any(c.isdigit() for c in token)
