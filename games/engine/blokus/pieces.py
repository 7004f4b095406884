"""The 21 Blokus pieces as data, and their 91 fixed orientations (computed at import).

Each orientation is a tuple of ``(row, col)`` offsets sorted row-major with the top row
and left column at 0. Orientation 0 of every piece is the drawing of docs/rules.md#blokus;
the others follow in a fixed order (three clockwise quarter turns, then the mirror image
and its turns), duplicates dropped. The notation relies on that order staying fixed.
"""

from __future__ import annotations

Offset = tuple[int, int]
Shape = tuple[Offset, ...]

# The drawings of docs/rules.md#blokus, in its canonical order ("#" is a square).
_DRAWINGS: tuple[tuple[str, str], ...] = (
    ("I1", "#"),
    ("I2", "##"),
    ("I3", "###"),
    ("V3", "#./##"),
    ("I4", "####"),
    ("L4", "#../###"),
    ("T4", "###/.#."),
    ("O4", "##/##"),
    ("Z4", "##./.##"),
    ("F", ".##/##./.#."),
    ("I5", "#####"),
    ("L5", "#.../####"),
    ("N", "##../.###"),
    ("P", "##/##/#."),
    ("T5", "###/.#./.#."),
    ("U", "#.#/###"),
    ("V5", "#../#../###"),
    ("W", "#../##./.##"),
    ("X", ".#./###/.#."),
    ("Y", "####/.#.."),
    ("Z5", "##./.#./.##"),
)


def _parse(drawing: str) -> Shape:
    return tuple(
        (r, c)
        for r, line in enumerate(drawing.split("/"))
        for c, ch in enumerate(line)
        if ch == "#"
    )


def normalise(cells: object) -> Shape:
    """Shift cells so the top row and left column are 0; sort them row-major."""
    pts = list(cells)  # type: ignore[call-overload]
    r0 = min(r for r, _ in pts)
    c0 = min(c for _, c in pts)
    return tuple(sorted((r - r0, c - c0) for r, c in pts))


def _orientations(shape: Shape) -> tuple[Shape, ...]:
    found: list[Shape] = []
    for mirrored in (False, True):
        pts = [(r, -c) for r, c in shape] if mirrored else list(shape)
        for _ in range(4):
            norm = normalise(pts)
            if norm not in found:
                found.append(norm)
            pts = [(c, -r) for r, c in pts]  # a clockwise quarter turn
    return tuple(found)


NAMES: tuple[str, ...] = tuple(name for name, _ in _DRAWINGS)
INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
SHAPES: tuple[Shape, ...] = tuple(_parse(drawing) for _, drawing in _DRAWINGS)
SIZES: tuple[int, ...] = tuple(len(shape) for shape in SHAPES)
ORIENTATIONS: tuple[tuple[Shape, ...], ...] = tuple(_orientations(s) for s in SHAPES)

COUNT = len(NAMES)  # 21
FULL_HAND = (1 << COUNT) - 1  # bit i set: piece NAMES[i] is still in hand
TOTAL_SQUARES = sum(SIZES)  # 89
ALL_PLACED_BONUS = 15
I1_LAST_BONUS = 5


def hand_names(hand: int) -> tuple[str, ...]:
    """The names of a hand bitmask, in canonical order."""
    return tuple(NAMES[i] for i in range(COUNT) if (hand >> i) & 1)


def hand_squares(hand: int) -> int:
    """How many squares the pieces of a hand bitmask cover."""
    return sum(SIZES[i] for i in range(COUNT) if (hand >> i) & 1)
