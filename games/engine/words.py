"""Marks the engine's English for translation, without Django.

The engine speaks English (kind titles, summaries, measure names); the platform shows it
in the reader's language by looking each phrase up with gettext (games/texts.py). For
the phrase to be in the catalogue, ``makemessages`` must find it: it runs xgettext,
which extracts the string argument of any call named ``gettext_noop``. So a family
writes ``gettext_noop("...")`` where it declares a phrase, and the phrase is marked
where it lives. A title that is only a name ("Quoridor") is left unmarked.
"""

from __future__ import annotations


def gettext_noop(text: str) -> str:
    """``text`` itself: the call only marks it for ``makemessages``."""
    return text
