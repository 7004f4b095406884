"""The engine's and the bots' English, in the reader's language.

The engine (games/engine/) and the bots (games/bots/) are pure Python without Django,
so they speak English: kind titles and summaries, colour and measure names, what each
bot level is like, why an action is refused ("cell [3,4] is occupied") and why a bot
likes a move ("shortens Red's path from 7 to 6"). The platform translates them here,
by their English text: each phrase is marked below, so `make messages` extracts it, and
is looked up with gettext when shown; a kind's title, summary and measure name are
marked where its family declares them (``gettext_noop`` of games/engine/words.py). A
sentence with parts is matched against its English pattern (`%(name)s` for each part)
and its colour names are translated too. English comes out unchanged, and so does a
sentence no pattern knows.
tests/games/test_texts.py fails when the engine or the bots say something new.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, gettext_noop, pgettext, pgettext_lazy

from games import bots, engine
from games.boards import page_spec
from games.boards.colours import kind_label, seat_styles

# Seat and piece colours (SeatInfo.name), in lower case; a capital is kept as it came.
COLOURS = {
    "red": pgettext_lazy("colour", "red"),
    "blue": pgettext_lazy("colour", "blue"),
    "green": pgettext_lazy("colour", "green"),
    "yellow": pgettext_lazy("colour", "yellow"),
    "purple": pgettext_lazy("colour", "purple"),
    "orange": pgettext_lazy("colour", "orange"),
}

# The bot levels (bots.LEVELS) and what each is like (bots.ABOUT).
LEVEL_NAMES = {
    "easy": pgettext_lazy("bot level", "easy"),
    "medium": pgettext_lazy("bot level", "medium"),
    "hard": pgettext_lazy("bot level", "hard"),
    "perfect": pgettext_lazy("bot level", "perfect"),
}
BOT_ABOUT = (
    gettext_noop("A beginner: it often moves or places at random, and medium beats it in "
                 "about nine games out of ten."),
    gettext_noop("Plays the best move it sees one move ahead, and at a four-seat table "
                 "plans the race two moves ahead: it beats a simple greedy player in "
                 "about nine two-player games out of ten in Bloqueio, Quoridor and "
                 "Blockade Run, seven in ten in Blokus Duo and Blockade, and about one "
                 "four-seat race in two against three of them."),
    gettext_noop("Thinks up to a second a move: it beats medium in most two-player games "
                 "and a simple greedy player in nearly all of them (not in Blockade, where "
                 "the first player wins with best play: there it wins half its games "
                 "against medium and two in three against the greedy player); at a "
                 "four-seat table, against three greedy players who all block the leader, "
                 "it won 15 of 24 games in Bloqueio and 19 of 24 in four-player Quoridor."),
    gettext_noop("Blockade and Blockade Run only: it proves who wins with best play and "
                 "never lets a proved win go; the first player wins both."),
)

# A game's status (games.models.Status).
STATUSES = {
    "waiting": pgettext_lazy("game status", "waiting"),
    "active": pgettext_lazy("game status", "active"),
    "finished": pgettext_lazy("game status", "finished"),
    "aborted": pgettext_lazy("game status", "aborted"),
}

# Sentences with parts. Parts named in NAME_PARTS are colour names (translated too);
# NUMBER_PARTS are whole numbers; any other part is one token (a cell "[3,4]", a piece).
NAME_PARTS = frozenset({"who", "name", "colour", "whose"})
NUMBER_PARTS = frozenset({"before", "now", "steps", "grown", "n", "mine", "theirs", "size",
                          "opened", "most", "want", "got", "seat", "lo", "hi", "count"})
# Free text with spaces: a field's name, a described value, a list of pieces.
LOOSE_PARTS = frozenset({"what", "value", "pieces"})

# Why the engine refuses an action (Rules.is_legal(...).reason).
REFUSALS = (
    gettext_noop("game is over"),
    gettext_noop("not your turn"),
    gettext_noop("no barriers left"),
    gettext_noop("no path for seat %(seat)s"),
    gettext_noop("pass is legal only when nothing else is"),
    gettext_noop("barrier anchor %(cell)s is out of range"),
    gettext_noop("cell %(cell)s is off the board"),
    gettext_noop("cell %(cell)s is not enterable"),
    gettext_noop("cell %(cell)s is occupied"),
    gettext_noop("cell %(cell)s is not reachable"),
    gettext_noop("barrier overlaps %(line)s at %(cell)s"),
    gettext_noop("barrier crosses %(line)s at %(cell)s"),
    gettext_noop("pass is never legal here: a seat that cannot act loses"),
    gettext_noop("cell %(cell)s is not next to the opponent's last placement %(last)s"),
    gettext_noop("cell %(cell)s is not a step from %(start)s"),
    gettext_noop("cell %(cell)s is blocked"),
    gettext_noop("cell %(cell)s is the opponent's"),
    gettext_noop("a winning step places no block"),
    gettext_noop("a run must block an empty cell"),
    gettext_noop("cell %(cell)s is already blocked"),
    gettext_noop("cell %(cell)s is under a pawn"),
    gettext_noop("pass is legal only when no piece can be placed"),
    gettext_noop("unknown piece %(piece)s"),
    gettext_noop("you have already placed %(piece)s"),
    gettext_noop("%(piece)s overlaps a piece on %(cell)s"),
    gettext_noop("your first piece must cover your corner %(cell)s"),
    gettext_noop("your first piece must cover your start square %(cell)s"),
    gettext_noop("%(piece)s shares an edge with your own piece"),
    gettext_noop("%(piece)s must touch a corner of your own %(colour)s piece"),
    gettext_noop("%(piece)s does not fit on the board"),
    gettext_noop("not the shape of %(piece)s: it covers %(want)s squares, not %(got)s"),
    gettext_noop("not the shape of %(piece)s"),
)

# Why an action is malformed (engine.InvalidAction): the move check's answer and the
# services' `illegal_action` detail. `what` names a field ("'to'", "'to' row"), `value` is
# the engine's brief description of what came (`"'move'"`, "a list of 3 items").
MALFORMED = (
    gettext_noop("%(what)s must be an integer, not %(value)s"),
    gettext_noop("%(what)s must be a list [row, col], not %(value)s"),
    gettext_noop("%(what)s %(cell)s is out of range %(lo)s..%(hi)s"),
    gettext_noop("an action must be a JSON object, not %(value)s"),
    gettext_noop("action 'type' must be a string, not %(value)s"),
    gettext_noop("unknown action type %(value)s"),
    gettext_noop("unknown key %(value)s in a %(type)s action"),
    gettext_noop("a %(type)s action needs %(key)s"),
    gettext_noop("orientation must be 'H' or 'V', not %(value)s"),
    gettext_noop("'piece' must be a piece name, not %(value)s"),
    gettext_noop("unknown piece %(value)s: one of %(pieces)s"),
    gettext_noop("'cells' must be a list of [row, col], not %(value)s"),
    gettext_noop("'cells' must list 1 to %(most)s squares, not %(count)s"),
    gettext_noop("'cells' lists a square twice"),
    gettext_noop("leaving is not an action: use Rules.leave()"),
)
# The parts of `what` and `value` (engine.errors.brief) that are words.
FIELD_WORDS = {
    "row": gettext_noop("%(field)s row"),
    "col": gettext_noop("%(field)s col"),
}
CELL_WORD = gettext_noop("cell")
VALUE_WORDS = (
    (re.compile(r"a (?:list|tuple) of (?P<n>\d+) items"), gettext_noop("a list of %(n)s items")),
    (re.compile(r"an object with (?P<n>\d+) keys"), gettext_noop("an object with %(n)s keys")),
)

# Why a bot likes a move (bots.explain): hints, and the replay's best move.
REASONS = (
    gettext_noop("passes: there is nothing else %(who)s can do"),
    gettext_noop("reaches %(who)s's goal and wins the game"),
    gettext_noop("shortens %(who)s's path from %(before)s to %(now)s"),
    gettext_noop("moves %(who)s's pawn aside; its path stays %(steps)s steps"),
    gettext_noop("places a barrier that changes no path; %(who)s's stays %(steps)s steps"),
    gettext_noop("blocks %(name)s, who is %(steps)s steps from goal: their path grows from "
                 "%(steps)s to %(grown)s"),
    gettext_noop("leaves %(name)s no place to go: %(who)s wins"),
    gettext_noop("leaves %(name)s %(n)s place to go"),
    gettext_noop("leaves %(name)s %(n)s places to go"),
    gettext_noop("reaches %(who)s's goal row and wins the game"),
    gettext_noop("leaves %(name)s no step to take: %(who)s wins"),
    gettext_noop("blocks %(cell)s and walls %(name)s off from its goal"),
    gettext_noop("steps to %(to)s, %(mine)s from %(who)s's goal, and blocks %(cell)s, "
                 "leaving %(name)s %(theirs)s steps from goal"),
    gettext_noop("passes: none of %(colour)s's pieces fits any more"),
    gettext_noop("places a %(size)s-square piece and opens %(opened)s new corner"),
    gettext_noop("places a %(size)s-square piece and opens %(opened)s new corners"),
    gettext_noop("places a %(size)s-square piece and opens %(opened)s new corner, "
                 "taking %(most)s of %(whose)s's"),
    gettext_noop("places a %(size)s-square piece and opens %(opened)s new corners, "
                 "taking %(most)s of %(whose)s's"),
)

_PART = re.compile(r"%\((\w+)\)s")


@dataclass(frozen=True)
class _Pattern:
    msgid: str
    regex: re.Pattern[str]


def _compile(msgid: str) -> _Pattern:
    """The English sentence `msgid` as a regex with a named group per part (a part used
    twice must repeat the same text)."""
    pieces = _PART.split(msgid)
    out, seen = [], set()
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            out.append(re.escape(piece))
        elif piece in seen:
            out.append(f"(?P={piece})")
        else:
            seen.add(piece)
            body = r"-?\d+" if piece in NUMBER_PARTS else (
                r".+?" if piece in NAME_PARTS | LOOSE_PARTS else r"\S+?")
            out.append(f"(?P<{piece}>{body})")
    return _Pattern(msgid, re.compile("".join(out)))


_PATTERNS = tuple(_compile(m) for m in (*REFUSALS, *MALFORMED, *REASONS))


def sentence(text: str) -> str:
    """`text` (a refusal or a bot's reason) in the active language; as it came when no
    pattern knows it."""
    for pattern in _PATTERNS:
        found = pattern.regex.fullmatch(text)
        if found is not None:
            parts = {k: _part(k, v) for k, v in found.groupdict().items()}
            return gettext(pattern.msgid) % parts
    return text


def _part(name: str, text: str) -> str:
    """One part of a matched sentence in the active language (colours, fields, values)."""
    if name in NAME_PARTS:
        return colour(text)
    if name == "what":
        return _field(text)
    if name == "value":
        for regex, msgid in VALUE_WORDS:
            found = regex.fullmatch(text)
            if found is not None:
                return gettext(msgid) % found.groupdict()
    return text


def _field(what: str) -> str:
    """A field as the engine names it ("'to'", "'at' row", "cell col"), in words."""
    field, _space, word = what.rpartition(" ")
    if field and word in FIELD_WORDS:
        return gettext(FIELD_WORDS[word]) % {"field": _field(field)}
    return gettext(CELL_WORD) if what == CELL_WORD else what


def colour(name: str) -> str:
    """A colour name ("Red", "blue", "Blue & Red") translated, its capitals kept."""
    if " & " in name:
        return " & ".join(colour(part) for part in name.split(" & "))
    word = COLOURS.get(name.lower())
    if word is None:
        return name  # a mark such as "X"
    text = str(word)
    return text[:1].upper() + text[1:] if name[:1].isupper() else text


def words(text: str) -> str:
    """An exact phrase of the engine or the bots (a title, a summary, a measure name, a
    level's description) in the active language."""
    return gettext(text) if text else text


def kind_title(kind: str) -> str:
    return words(kind_label(kind))


def kind_summary(kind: str) -> str:
    return words(engine.get(kind).info.summary)


def menu_label(kind: str) -> str:
    """The title with its player count, for menus ("Quoridor (2 players)")."""
    info = engine.get(kind).info
    english = kind_label(kind)
    if f"{info.seats} player" in english:  # "Bloqueio (2 players)" says it already
        return words(english)
    return gettext("%(title)s (%(count)s players)") % {"title": words(english),
                                                        "count": info.seats}


def seat_name(kind: str, seat: int) -> str:
    """A seat as people call it: its colour, or its colours ("Blue & Red" in blokus2)."""
    names = [colour(s["name"]) for s in seat_styles(kind) if s["seat"] == seat]
    return " & ".join(names) or gettext("seat %(seat)s") % {"seat": seat}


def level_name(level: str) -> str:
    """A bot level ("easy") in the active language, lower case."""
    return str(LEVEL_NAMES.get(level, level))


def level_label(level: str) -> str:
    """A bot level for a menu: "Easy"."""
    return level_name(level).capitalize()


def bot_about(level: str) -> str:
    return words(bots.ABOUT[level])


def computer(level: str) -> str:
    """How the computer's account at `level` is named on the page: "Computer (hard)"."""
    return pgettext("the bot's name", "Computer (%(level)s)") % {"level": level_name(level)}


def status(value: str) -> str:
    """A game's status ("finished") in the active language."""
    return str(STATUSES.get(value, value))


# The boards' notation help and move-box placeholder (games/boards/*.py, `words`).
NOTATION_WORDS = (
    gettext_noop("Cells are named as on the rules page and the board's edges, letter "
                 "then number (f2); a "
                 "barrier by the earliest letter and lowest number of the four cells it "
                 "touches, then h or v (e3h)."),
    gettext_noop("Cells are named as on the rules page and the board's edges, letter "
                 "then number (f2); a "
                 "wall by the earliest letter and lowest number of the four cells it "
                 "touches, then h or v (e3h)."),
    gettext_noop("Type a move: f2, e3h"),
    gettext_noop("Cells are named as on the rules page and the board's edges, letter "
                 "then number: c2 places "
                 "your mark on c2."),
    gettext_noop("Type a move: c2"),
    gettext_noop("Cells are named as on the rules page and the board's edges, letter "
                 "then number: c1^d3 "
                 "steps to c1 and blocks d3; a winning step is just its cell (c4)."),
    gettext_noop("Type a move: c1^d3"),
    gettext_noop("A move is piece/orientation@anchor: L5/0@a0 puts L5 as drawn with its "
                 "box's top-left on a0 (cells are named as on the rules page and the board's "
                 "edges, letter then number)."),
    gettext_noop("Type a move: L5/0@a0"),
)


def spec(kind: str) -> dict[str, Any]:
    """`games.boards.page_spec(kind)` (colours following the reader's theme and palette)
    with its words in the active language."""
    found = page_spec(kind)
    found["title"] = words(found["title"])
    found["summary"] = words(found["summary"])
    board_words = found.get("words") or {}
    for name in ("notation_help", "notation_placeholder"):
        if name in board_words:
            board_words[name] = words(board_words[name])
    for entry in (*found["colours"], *found["seats"]):
        entry["name"] = colour(entry["name"])
    found["measure"]["name"] = words(found["measure"]["name"])
    return found

