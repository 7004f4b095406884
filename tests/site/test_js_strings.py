"""No English sentence in static/js that the catalogue cannot translate (docs/web.md,
"Translating the pages' words").

A heuristic over the scripts' string literals (comments, regular expressions and the
arguments of gettext/ngettext/pgettext/npgettext left out). A literal is flagged when it
reads like words for people: two or more words with a capital, a closing stop or a common
English word; a capitalised single word ("Remove"); or any words put on the page as a
child of el()/html()/svg() (after the tag and the attributes) or as an aria-label, title,
placeholder or textContent in an attribute object. Protocol values, CSS classes, key
names and notation are not words for people: the short allow-list names the exceptions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "static" / "js"
GETTEXT = {"gettext", "ngettext", "pgettext", "npgettext"}
BUILDERS = {"el", "html", "svg", "s", "button"}  # DOM builders whose later arguments are text
CODE_KEYS = {"class", "className", "style", "id", "type", "href", "role", "name", "method",
             "action", "src", "preserveAspectRatio", "font-family", "text-anchor", "d", "points"}
TEXT_KEYS = {"aria-label", "title", "placeholder", "textContent", "aria-valuetext"}
# Common English words, and the site's own: a string of two words with one of them is text.
WORDS = """the a an to is are was were not no your you of on in for and or be yet it this
that at with has have by can cannot could all first last left out nobody every game games move
moves player players board piece pieces placed passed resigned removed deleted blocked score
rating seat seats turn square squares computer chat message ply min watching loading over pawn
replay rated check right now won played picked moved stepped wall barrier cell cells place step
"""
COMMON = set(WORDS.split())
NAMES = ("Bloqueio Online",)
# Strings that look like words but are code: key names, HTTP, DOM and SVG vocabulary.
ALLOWED = {
    "Enter", "Escape", "Home", "End", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight",
    "PageUp", "PageDown", "Accept", "Content-Type", "X-CSRFToken", "Retry-After",
    "system-ui, sans-serif", "(pointer: coarse)",
}


@dataclass(frozen=True)
class Literal:
    path: str
    line: int
    text: str
    role: str  # "code", "wrapped" (a gettext argument), "child", "text-key" or "attr"


def is_code_key(key: str) -> bool:
    """Attributes whose values are code (classes, styles, ids, URLs, data-*), not text."""
    return key in CODE_KEYS or key.startswith(("data-", "stroke", "fill"))


# Tokens after which a "/" starts a regular expression rather than a division.
REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^") | {"return", "typeof", "case", "=>", "&&", "||", "??",
                                               "?:", ""}
COMPARE = ("===", "!==", "==", "!=")


def _string_end(src: str, i: int, quote: str) -> int:
    j = i + 1
    while src[j] != quote:
        j += 2 if src[j] == "\\" else 1
    return j + 1


def _template_end(src: str, i: int) -> tuple[int, str]:
    """End of the template literal at i and its text with each ${...} as "%s"."""
    j, text, depth = i + 1, [], 0
    while True:
        ch = src[j]
        if ch == "\\":
            text.append(src[j:j + 2])
            j += 2
        elif ch == "`":
            return j + 1, "".join(text)
        elif src.startswith("${", j):
            text.append("%s")
            j += 2
            depth = 1
            while depth:  # skip the expression, nested strings and templates included
                c = src[j]
                if c in "\"'":
                    j = _string_end(src, j, c)
                    continue
                if c == "`":
                    j, _ = _template_end(src, j)
                    continue
                depth += {"{": 1, "}": -1}.get(c, 0)
                j += 1
        else:
            text.append(ch)
            j += 1


@dataclass
class Frame:
    """An open bracket: "(" of a call to `callee`, "{" or "["; which argument; open "?"s."""

    bracket: str
    callee: str = ""
    arg: int = 0
    ternaries: int = 0


def _role(prev: str, frame: Frame, key: str, assigned: str, compared: bool, template: bool) -> str:
    """What a literal is by its place: a gettext argument, text for the page, or code."""
    if compared:
        return "code"  # status === "active"
    if frame.bracket == "(" and frame.callee in GETTEXT and not template:
        return "wrapped"
    if frame.bracket == "(" and frame.callee in BUILDERS and frame.arg != 0:
        return "child"  # el("b", {...}, "text")
    named = key if prev == ":" else assigned if prev == "=" else None  # {title: "…"}, x.title = "…"
    if named is None:
        return "code"
    return "text-key" if named in TEXT_KEYS else "attr" if is_code_key(named) else "code"


def literals(src: str, name: str = "<probe>") -> list[Literal]:
    """Every string literal of a script's source, with the role its place gives it."""
    out: list[Literal] = []
    stack = [Frame("")]
    prev = ""  # the last significant token; ":" only for a key's colon ("?:" a ternary's)
    key = ""  # the key before the last key colon
    assigned = ""  # the property just assigned to (x.className = ...)
    last = ""  # the last identifier or string, a key if a colon follows
    i = 0
    while i < len(src):
        ch = src[i]
        if src.startswith("//", i):
            i = src.find("\n", i) if "\n" in src[i:] else len(src)
            continue
        if src.startswith("/*", i):
            i = src.index("*/", i) + 2
            continue
        if ch.isspace():
            i += 1
            continue
        if ch == "/" and prev in REGEX_BEFORE:
            j, klass = i + 1, False
            while src[j] != "/" or klass:
                klass = (klass or src[j] == "[") and src[j] != "]"
                j += 2 if src[j] == "\\" else 1
            i = j + 1
            while i < len(src) and src[i].isalpha():
                i += 1
            prev = "regex"
            continue
        if ch in "\"'`":
            end, text = _template_end(src, i) if ch == "`" else (_string_end(src, i, ch), "")
            text = text if ch == "`" else src[i + 1:end - 1]
            compared = prev in COMPARE or src[end:].lstrip().startswith(COMPARE)
            role = _role(prev, stack[-1], key, assigned, compared, ch == "`")
            out.append(Literal(name, src.count("\n", 0, i) + 1, text, role))
            prev = last = text
            i = end
            continue
        m = re.match(r"[A-Za-z_$][\w$]*", src[i:])
        if m:
            prev = last = m.group(0)
            i += len(prev)
            continue
        op = re.match(r"===|!==|==|!=|=>|&&|\|\||\?\?|<=|>=|\?\.", src[i:])
        token = op.group(0) if op else ch
        frame = stack[-1]
        assigned = prev if token == "=" else ""
        if token in "([{":
            stack.append(Frame(token, prev if token == "(" else ""))
        elif token in ")]}" and len(stack) > 1:
            stack.pop()
        elif token == ",":
            frame.arg += 1
        elif token == "?":
            frame.ternaries += 1
        elif token == ":" and frame.ternaries:
            frame.ternaries -= 1
            token = "?:"
        elif token == ":":
            key = last
        elif token == ";":
            frame.ternaries = 0
        prev = token
        last = ""
        i += len(token)
    return out


def reads_as_words(literal: Literal) -> bool:
    """Whether a literal outside gettext looks like something a person reads."""
    text = literal.text.strip()
    if literal.role in ("wrapped", "attr") or text in ALLOWED:
        return False
    # Placeholders, selectors and names are not words to translate.
    plain = re.sub(r"%s|#[\w-]+|\.[a-z][\w-]*|\[[^\]]*\]|" + "|".join(NAMES), " ", text)
    if literal.role in ("child", "text-key"):
        return bool(re.search(r"[A-Za-z]{2}", plain))
    words = re.findall(r"[A-Za-z][a-z']*", plain)
    if not words or re.match(r"[\w-]+:\S", text) or "://" in text or re.search(r"[<>={}]", text):
        return False  # CSS, URLs, markup and code
    if re.fullmatch(r"[A-Z][a-z]+", text):
        return True  # "Remove", "Join"
    if " " not in text:
        return False  # identifiers, paths, protocol values
    stops = re.search(r"[.!?…]$", text) and (len(words) > 1 or "%s" in text)
    if re.match(r"[A-Z][a-z]", text) or stops:
        return True  # "Seat %s", "Ply %s of %s", "nobody is here.", "%s won: %s."
    return bool(COMMON & {w.lower() for w in words})


def scripts() -> list[Path]:
    return sorted(SCRIPTS.rglob("*.js"))


def unwrapped(paths: list[Path]) -> list[str]:
    found = []
    for path in paths:
        code = path.read_text(encoding="utf-8")
        found += [f"{lit.path}:{lit.line}: {lit.text!r}"
                  for lit in literals(code, str(path.relative_to(ROOT))) if reads_as_words(lit)]
    return found


def test_every_sentence_in_the_scripts_is_wrapped_for_translation() -> None:
    assert scripts(), "no scripts found"
    found = unwrapped(scripts())
    assert not found, "wrap these in gettext (static/js/i18n.js):\n" + "\n".join(found)


@pytest.mark.parametrize("source", [
    'el("button", {}, "Join")',
    'el("span", { class: "pill" }, "open")',
    'x.textContent = "The server is busy";',
    'el("a", { "aria-label": `Join game ${id}` }, "#")',
    "say(`You can't move to ${cell}: ${reason}.`)",
    'const t = "Nobody is playing right now.";',
    'svg("title", {}, `${name} pawn on ${cell}`)',
    'const REASONS = { goal: "reached the goal", score: "on score" };',
    'function f() { const who = seat ? seat.name : `Seat ${n}`; }',
    'say(frame.type === "resign" ? "Resigning…" : `Sent ${move}…`);',
    'return `${winner} won: ${why}.`;',
])
def test_the_check_catches_unwrapped_words(source: str) -> None:
    assert [lit for lit in literals(source) if reads_as_words(lit)], source


@pytest.mark.parametrize("source", [
    'el("button", {}, gettext("Join"))',
    'el("span", { class: "btn small secondary" }, "●", "\u2013")',
    'svg("text", { "font-family": "system-ui, sans-serif" }, "0")',
    'if (e.key === "Enter" || e.key === "Escape") go(`/games/${id}/replay/?ply=${n}`);',
    'say(interpolate(gettext("%(seat)s moved to %(cell)s"), { seat, cell }))',
    'ngettext("%(count)s barrier", "%(count)s barriers", n)',
    'pgettext("seat", "open")',
    'const m = /^([a-z])(0|[1-9][0-9]?)([hv]?)$/.exec(text); return "move";',
    'document.querySelectorAll("#computer-seats [data-seat]")',
    'line.className = "notice warn busy-status"; x.title = gettext("Close");',
    'el("p", { class: "small muted board-legend", style: "margin:.5rem 0 0" }, text)',
    'document.title = `#${id} ${label} · Bloqueio Online`;',
])
def test_the_check_lets_code_pass(source: str) -> None:
    found = [lit for lit in literals(source) if reads_as_words(lit)]
    assert not found, found
