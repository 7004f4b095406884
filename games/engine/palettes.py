"""The seat colours, by palette: `palettes.json` beside this module is their one source.

Every palette names the same slots (red, blue, green, yellow, purple, orange). The
``standard`` palette is the colour each kind's seats carry (``SeatInfo.colour``, the
API's ``colour``, the server's SVG images); the site offers the others instead, by
slot, and builds its CSS from this file (games/boards/palettes.py). Every palette keeps
any two seats of a kind apart under protanopia, deuteranopia and tritanopia
(tests/site/test_palettes.py; docs/web.md, "Colours and themes").
"""

from __future__ import annotations

import json
from pathlib import Path

SOURCE = Path(__file__).with_name("palettes.json")

PALETTES: dict[str, dict[str, str]] = json.loads(SOURCE.read_text(encoding="utf-8"))
STANDARD: dict[str, str] = PALETTES["standard"]
SLOTS: tuple[str, ...] = tuple(STANDARD)
