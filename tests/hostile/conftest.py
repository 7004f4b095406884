"""Shared pieces of the hostile-input tests: the documented error codes (read from the
docs, so code and docs cannot drift apart unnoticed), a log capture that catches
tracebacks, and hypothesis strategies for what a hostile client might send."""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

# CI (`.ci/run` exports CI=true) derandomizes: every CI run tries the same inputs, so a
# red build reproduces exactly with `CI=1 make test ...` and a pass never depends on the
# luck of the draw. Locally each run explores new inputs, and hypothesis' example
# database replays any failure found before until it is fixed.
IN_CI = bool(os.environ.get("CI"))


# The marks of a fuzz module (`pytestmark = FUZZ_MARKS`). A run takes one to two
# minutes; a failing one then shrinks for up to five more (hypothesis' own limit)
# before it reports, which the suite's 300 s timeout would cut short.
FUZZ_MARKS = [pytest.mark.slow, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(900)]


def fuzz_settings(max_examples: int) -> settings:
    """Hypothesis settings for a fuzz run of `max_examples` generated examples."""
    return settings(
        max_examples=max_examples,
        deadline=None,  # one input may wait on PostgreSQL; latency is not what we test
        derandomize=IN_CI,
        database=None if IN_CI else settings.default.database,
        # Big frames and bodies are the point here, not a mistake in the strategies.
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                               HealthCheck.large_base_example],
        print_blob=True,
    )


# -- documented error codes ------------------------------------------------------------


def rest_error_codes() -> dict[str, set[int]]:
    """code -> HTTP statuses, from the error-code table in docs/api.md."""
    text = (DOCS / "api.md").read_text()
    section = text.split("## Error codes", 1)[1].split("\n## ", 1)[0]
    codes: dict[str, set[int]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].isdigit():
            for code in re.findall(r"`([a-z_]+)`", cells[1]):
                codes.setdefault(code, set()).add(int(cells[0]))
    assert codes, "no error-code table found in docs/api.md"
    return codes


def ws_error_codes() -> set[str]:
    """Error codes a game socket may send, from docs/realtime.md: the "Error codes on the
    socket" paragraph (less the client message types and frame fields it mentions, like
    `sync` and `type`) and the close-code table after it (the error frame sent first)."""
    text = (DOCS / "realtime.md").read_text()
    section = text.split("Error codes on the socket:", 1)[1].split("\n## ", 1)[0]
    paragraph = section.split("\n\n", 1)[0]
    client = text.split("Client to server:", 1)[1].split("\n\n", 1)[0]
    not_codes = set(re.findall(r"`([a-z_]+)`", client)) | set(re.findall(r'"([a-z_]+)":', text))
    codes = set(re.findall(r"`([a-z_]+)`", paragraph)) - not_codes
    for row in re.findall(r"^\| 4\d\d\d \| (.*?) \|", section, flags=re.MULTILINE):
        codes |= set(re.findall(r"`([a-z_]+)`", row))
    assert {"invalid_json", "invalid_frame"} <= codes, "socket error codes not found"
    return codes


@pytest.fixture(scope="session")
def rest_codes() -> dict[str, set[int]]:
    return rest_error_codes()


@pytest.fixture(scope="session")
def ws_codes() -> set[str]:
    return ws_error_codes()


# -- log capture -------------------------------------------------------------------------


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def warning_log() -> Iterator[list[logging.LogRecord]]:
    """Every record at WARNING and above while the test runs.

    Attached to the root logger and to `django` as well, because the project's logging
    config stops `django.*` (and so `django.request`, which logs every 500 with its
    traceback) from propagating to the root.
    """
    collector = _Collector()
    loggers = [logging.getLogger(), logging.getLogger("django")]
    for logger in loggers:
        logger.addHandler(collector)
    yield collector.records
    for logger in loggers:
        logger.removeHandler(collector)


def tracebacks(records: list[logging.LogRecord]) -> list[str]:
    """The records that carry a traceback (exc_info, stack_info or a formatted one)."""
    found = []
    for record in records:
        message = record.getMessage()
        if record.exc_info or record.exc_text or record.stack_info or "Traceback" in message:
            trace = logging.Formatter().formatException(record.exc_info) if record.exc_info \
                else record.exc_text or ""
            found.append(f"{record.name} {record.levelname}: {message[:300]}\n{trace[-1500:]}")
    return found


# -- strategies ----------------------------------------------------------------------------


def _same(value: Any) -> Any:
    return value


def often(common: st.SearchStrategy[Any], rare: st.SearchStrategy[Any],
          weight: int = 3) -> st.SearchStrategy[Any]:
    """`common` `weight` times as often as `rare`. (`one_of(a, a, b)` would not do it:
    hypothesis drops repeated branches, so each copy must be a strategy of its own.)"""
    return st.one_of(*[common.map(_same) for _ in range(weight)], rare)

# Strings that have broken parsers, databases and terminals before.
WEIRD_STRINGS = [
    "", "\x00", "a\x00b", "\u202e", "\ufeff", "\u200b", "💥", "\U0001d54f\U0001d550",
    "e\u0301", "İ", "ß", "\\", '"', "'", "null", "NaN", "-0", "1e999", "٣", "\r\n", "\t",
    " ", "<script>",
    "%00", "../", "${jndi:x}", "\U0010ffff", "\uffff", "\uff21\uff22", "a" * 300,
]
JS_UNSAFE_INTS = [2**31, 2**53 + 1, 2**63, 2**64, -(2**63) - 1, 10**30, 10**4000]


def texts(max_size: int = 24) -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=max_size), st.sampled_from(WEIRD_STRINGS))


def ints() -> st.SearchStrategy[int]:
    return st.one_of(st.integers(-3, 12), st.integers(), st.sampled_from(JS_UNSAFE_INTS))


def scalars() -> st.SearchStrategy[Any]:
    """JSON scalars, with NaN/Infinity floats (json.dumps writes them as bare literals)."""
    return st.one_of(st.none(), st.booleans(), ints(), st.floats(), texts())


def json_values(keys: list[str] | None = None) -> st.SearchStrategy[Any]:
    key = st.one_of(texts(8), st.sampled_from(keys)) if keys else texts(8)
    return st.recursive(
        scalars(),
        lambda inner: st.one_of(st.lists(inner, max_size=4),
                                st.dictionaries(key, inner, max_size=4)),
        max_leaves=10,
    )


def coordinates() -> st.SearchStrategy[Any]:
    """Mostly plausible `[row, col]` pairs, sometimes anything at all."""
    cell = st.integers(-1, 11)
    return st.one_of(
        st.tuples(cell, cell).map(list),
        st.lists(st.one_of(cell, ints(), st.floats(), texts(3), st.none(), st.booleans()),
                 max_size=3),
        scalars(),
    )


def game_actions() -> st.SearchStrategy[Any]:
    """Action objects of random shapes: plausible moves and barriers, then anything."""
    move = st.fixed_dictionaries({"type": st.just("move"), "to": coordinates()})
    barrier = st.fixed_dictionaries({
        "type": st.just("barrier"), "at": coordinates(),
        "orientation": st.one_of(st.sampled_from(["H", "V", "h", "", "HV"]), scalars()),
    })
    other = st.fixed_dictionaries(
        {"type": st.one_of(st.sampled_from(["pass", "resign", "timeout", "removed", "place",
                                            "run", "move", "barrier"]), scalars())},
        optional={"to": coordinates(), "at": coordinates(), "orientation": scalars(),
                  "seat": ints(), "cells": json_values()},
    )
    return often(st.one_of(move, barrier), st.one_of(other, json_values(["type", "to", "at"])))


def deep_nesting() -> st.SearchStrategy[str]:
    """JSON nested far past any parser's recursion limit (or just unbalanced)."""
    depth = st.one_of(st.integers(900, 1100), st.integers(2_000, 7_000),
                      st.integers(8_000, 40_000))
    return st.one_of(
        depth.map(lambda n: "[" * n + "]" * n),
        depth.map(lambda n: '{"a":' * n + "0" + "}" * n),
        depth.map(lambda n: '{"type": "sync", "after": ' + "[" * n + "]" * n + "}"),
        depth.map(lambda n: "[" * n),
    )


# Literals the JSON grammar forbids but lenient parsers accept, in a value position.
BAD_LITERALS = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "9" * 5000, "0x10", "01",
                "+1", "1.", ".5", "undefined", "'x'", "True", "None", "1_000"]


def duplicate_keys(keys: list[str]) -> st.SearchStrategy[str]:
    """An object text with repeated keys (json.dumps can never produce one)."""
    pair = st.tuples(st.sampled_from(keys), json_values())
    return st.lists(pair, min_size=2, max_size=6).map(
        lambda pairs: "{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in pairs)
        + "}")


def huge_text(limit: int) -> st.SearchStrategy[str]:
    """Text just over / far over `limit` bytes, in ASCII or in multi-byte characters
    (so a limit counted in characters instead of bytes lets it through)."""
    return st.one_of(
        st.integers(limit + 1, limit * 4).map(
            lambda n: '{"type": "ping", "pad": "' + "x" * n + '"}'),
        st.integers(limit // 3 + 1, limit).map(
            lambda n: '{"type": "ping", "pad": "' + "€" * n + '"}'),
        st.integers(limit + 1, limit * 2).map(lambda n: " " * n),
    )
