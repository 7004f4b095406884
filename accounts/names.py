"""What makes two user names the same name: one folding, computed in Python only.

A name is stored as typed (NFKC-normalized, as Django does), with two derived keys:

- `fold(name)`: the lookup key. NFKC, full Unicode case folding, NFKC again, so "Alice",
  "ALICE" and a fullwidth "alice" are one account. Every lookup (log-in, the lock-out's counter,
  tokens, `/api/users/<name>/`, the profile page, registration) compares this key, never
  PostgreSQL's LOWER(): the two disagree on names like "ΟΔΥΣΣΕΥΣ" and "İstanbul".
- `confusable_key(name)`: the UTS #39 skeleton of the folded skeleton, so names that
  look alike ("alice" with a Cyrillic a, "bi11" and "bill", "rn" and "m") share it.
  Registration refuses a name whose key another account holds.

Both keys are unique in PostgreSQL (accounts.User), so a race of two sign-ups of the
same or look-alike names is settled by the database.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

CONFUSABLES = Path(__file__).with_name("data") / "confusables.tsv"

# Default_Ignorable_Code_Point ranges (Unicode DerivedCoreProperties): they render as
# nothing, so a name holding one looks like the name without it.
_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Control, format, surrogate, private use, unassigned, and separators.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})


def fold(name: str) -> str:
    """The case-insensitive lookup key of a name (NFKC casefold)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


@cache
def _prototypes() -> dict[str, str]:
    table: dict[str, str] = {}
    for line in CONFUSABLES.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            source, target = line.split("\t")
            table[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39 skeleton: NFD, each character replaced by its prototype, NFD again."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def confusable_key(name: str) -> str:
    """Equal for names that look alike: the skeleton of the folded skeleton (so "b0b"
    meets "bob" through "O", and "biII" meets "bill" through "l"). Names equal once
    folded are caught by `fold` itself (each key has its unique constraint)."""
    return skeleton(fold(skeleton(name)))


def invisible_characters(name: str) -> list[str]:
    """The characters of `name` that show as nothing (format, control, spacing or
    default-ignorable code points), as "U+200D"."""
    found = []
    for ch in name:
        point = ord(ch)
        if (unicodedata.category(ch) in _INVISIBLE_CATEGORIES
                or any(lo <= point <= hi for lo, hi in _IGNORABLE)):
            found.append(f"U+{point:04X}")
    return found
