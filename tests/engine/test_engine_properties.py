"""Every registered kind, fed junk: untrusted action, state and notation input raises
only the engine's narrow errors (``InvalidAction``, ``InvalidState``), never crashes,
and whatever it accepts reads back as it came."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import engine
from tests.engine.helpers import random_game

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 12)
    | st.integers()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=8)
)
json_junk = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
cell_like = json_junk | st.lists(st.integers(-3, 12), max_size=3)
action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["move", "barrier", "place", "run", "pass", "resign"]) | json_junk},
    optional={
        "to": cell_like,
        "at": cell_like,
        "block": cell_like,
        "orientation": st.sampled_from(["H", "V", "h", "v", "X"]) | json_junk,
        "piece": st.sampled_from(["I1", "F", "X5", "i1"]) | json_junk,
        "cells": json_junk | st.lists(cell_like, max_size=5),
        "seat": json_junk,
    },
)


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(engine.KINDS), obj=json_junk | action_like)
def test_junk_actions_raise_only_invalid_action(kind: str, obj: Any) -> None:
    rules = engine.get(kind)
    try:
        action = rules.parse_action(obj)
    except engine.InvalidAction as exc:
        assert str(exc)
        return
    assert rules.parse_action(action.to_json()) == action
    rules.is_legal(rules.initial(), action)


@settings(max_examples=400, deadline=None)
@given(
    kind=st.sampled_from(engine.KINDS),
    seed=st.integers(0, 50),
    plies=st.integers(0, 30),
    pick=st.integers(0, 20),
    junk=json_junk,
)
def test_junk_state_fields_raise_only_invalid_state(
    kind: str, seed: int, plies: int, pick: int, junk: Any
) -> None:
    """One field (or an extra key) of a position some random plies in turned to junk."""
    rules = engine.get(kind)
    _, states = random_game(rules, seed, plies=plies)
    obj = states[-1].to_json()
    fields = [*obj, "extra"]
    obj[fields[pick % len(fields)]] = junk
    try:
        state = rules.state_from_json(obj)
    except engine.InvalidState as exc:
        assert str(exc)
        return
    assert state.to_json() == obj


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(engine.KINDS), obj=json_junk)
def test_junk_whole_states_and_notation(kind: str, obj: Any) -> None:
    """A junk state is refused with a message, or read back as it came; junk notation is
    refused with a message, or its events read back from their own notation."""
    rules = engine.get(kind)
    try:
        state = rules.state_from_json(obj)
    except engine.InvalidState as exc:
        assert str(exc)
    else:
        assert state.to_json() == obj
    text = obj if isinstance(obj, str) else json.dumps(obj)
    try:
        events = rules.parse_game(text)
    except engine.InvalidAction as exc:
        assert str(exc)
    else:
        assert rules.parse_game(rules.format_game(events)) == events


@pytest.mark.parametrize("kind", engine.KINDS)
def test_notation_that_reads_is_read_back(kind: str) -> None:
    """The branch above that accepts notation, with text sure to reach it: a real game's."""
    rules = engine.get(kind)
    events, _ = random_game(rules, 7, plies=12)
    text = rules.format_game(events)
    assert text and rules.parse_game(text) == events


@pytest.mark.parametrize("kind", engine.KINDS)
def test_deeply_nested_junk_is_refused(kind: str) -> None:
    rules = engine.get(kind)
    deep: Any = 1
    for _ in range(100_000):
        deep = [deep]
    huge = [10**5000, 1]  # past Python's 4300-digit int-to-text limit: no message may show it
    junk = (deep, {"type": "move", "to": deep}, {"type": "move", "to": huge},
            {"type": "place", "at": huge}, {"type": "place", "cells": [huge]},
            {"type": "barrier", "at": huge, "orientation": "H"})
    for obj in junk:
        with pytest.raises(engine.InvalidAction):
            rules.parse_action(obj)
    with pytest.raises(engine.InvalidState):
        rules.state_from_json({"turn": deep})
