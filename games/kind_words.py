"""The engine's words a rules page shows, in the reader's language.

The engine (games/engine/) is pure Python without Django, so its kind titles and
summaries are English. They are marked here so `makemessages` extracts them, and looked
up by their English text with gettext where a page shows them; a title that is a name
alone ("Quoridor") has nothing to translate. tests/games/test_rules_pages_i18n.py fails
when a kind says something this list lacks.
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

KIND_WORDS = (
    gettext_noop("Bloqueio (2 players)"),
    gettext_noop("Quoridor (4 players)"),
    gettext_noop("Blokus (2 players)"),
    gettext_noop("Four pawns race across a 9x9 board into their goal zones; 6 barriers each."),
    gettext_noop("Two pawns race to the opposite goal zone; 12 barriers each."),
    gettext_noop("Reach the far row of a 9x9 board first; 10 walls each, never seal a path."),
    gettext_noop("Four pawns race to the opposite sides of a 9x9 board; 5 walls each."),
    gettext_noop("Place your mark next to your opponent's last one; whoever cannot, loses."),
    gettext_noop("Race to the far row of a 5x5 board, blocking one cell after every step."),
    gettext_noop("Four colours fit their 21 pieces on a 20x20 board, each touching its own "
                 "only corner to corner."),
    gettext_noop("Classic Blokus for two: each player plays two colours (blue and red, "
                 "yellow and green)."),
    gettext_noop("Two colours on a 14x14 board, starting from e4 and j9; most squares "
                 "placed wins."),
)


def words(text: str) -> str:
    """An exact phrase of the engine (a kind's title or summary) in the active language."""
    return gettext(text) if text else text
