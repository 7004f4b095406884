"""docs/tournaments.md says, for every registered kind, its table size and what a round
does with the players left over; the rule it states is the one `leftover` applies."""

from __future__ import annotations

import re

from games.engine import registry
from tests.conftest import ROOT
from tournaments.seating import leftover, table_size

PAGE = (ROOT / "docs" / "tournaments.md").read_text()
ROW = re.compile(r"^\| `(\w+)` \([^)]*\) \| (\d+) \| (.+) \|$", re.MULTILINE)


def said(rule: str, remainder: int) -> str:
    """What the page's row says for ``remainder`` players left over: bye(s) or a bot."""
    for part in rule.split(";"):
        counts, what = part.strip().split(" left: ")
        if str(remainder) in re.findall(r"\d", counts):
            return "bot" if "bot" in what else "bye"
    raise AssertionError(f"{rule!r} says nothing of {remainder} left over")


def test_every_kind_has_its_row_and_the_rule_is_the_codes():
    rows = {kind: (int(size), rule) for kind, size, rule in ROW.findall(PAGE)}
    assert set(rows) == set(registry.kinds())
    for kind, (size, rule) in rows.items():
        assert size == table_size(kind)
        for remainder in range(1, size):
            field = 4 * size + remainder
            done = leftover(field, size)
            assert said(rule, remainder) == ("bot" if done.bot_seats else "bye"), kind
            assert done.byes in (0, remainder)
