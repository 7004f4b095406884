"""Property tests: random legal playouts keep every invariant; junk input never crashes."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.engine.barrier import Action, Barrier, Event, Move, State

KINDS = ("bloqueio", "bloqueio2", "quoridor", "quoridor4")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_candidates(rules: engine.Rules, rng: random.Random, n: int) -> list[Action]:
    """Well-formed actions, mostly not legal: any cell, any anchor, pass."""
    g = rules.geometry
    out: list[Action] = [engine.PASS]
    for _ in range(n):
        out.append(Move((rng.randrange(g.grid), rng.randrange(g.grid))))
        r = rng.randint(g.anchor_lo, g.anchor_hi)
        c = rng.randint(g.anchor_lo, g.anchor_hi)
        out.append(Barrier((r, c), rng.choice("HV")))  # type: ignore[arg-type]
    return out


def playout(
    rules: engine.Rules, seed: int, plies: int, leave_rate: float
) -> tuple[State, list[Event], list[State]]:
    rng = random.Random(seed)
    state = rules.initial()
    events: list[Event] = []
    states = [state]
    while state.turn is not None and len(events) < plies:
        playing = [s for s in range(rules.seats) if state.in_game[s]]
        if rng.random() < leave_rate:
            seat = rng.choice(playing)
            event: Event = engine.Leave(seat, rng.choice(["resign", "timeout", "removed"]))
            state = rules.leave(state, seat, event.why)
        else:
            event = rng.choice(rules.legal_actions(state))
            state = rules.apply(state, event)
        events.append(event)
        states.append(state)
    return state, events, states


@SETTINGS
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**32), plies=st.integers(1, 120))
def test_random_playouts_keep_invariants(kind: str, seed: int, plies: int) -> None:
    rules = engine.get(kind)
    rng = random.Random(seed ^ 0x5EED)
    final, events, states = playout(rules, seed, plies, leave_rate=0.01)
    for n, state in enumerate(states):
        assert state.ply == n
        legal = rules.legal_actions(state)
        result = rules.result(state)
        if state.turn is None:
            assert legal == [] and result is not None
            assert sorted(result.ranking)[0] == 1
            continue
        assert result is None and legal
        assert rules.must_pass(state) == (legal == [engine.PASS])
        for seat in range(rules.seats):
            if state.in_game[seat]:
                assert rules.shortest_path(state, seat) is not None, f"seat {seat} walled in"
        # every listed action is legal and applies; is_legal agrees on other candidates
        sample = legal if n % 10 == 0 else rng.sample(legal, min(8, len(legal)))
        for action in sample:
            assert rules.is_legal(state, action)
            rules.apply(state, action)
            assert rules.parse_action(json.loads(json.dumps(action.to_json()))) == action
            assert rules.parse_notation(rules.format_action(action)) == action
        legal_set = set(legal)
        for action in random_candidates(rules, rng, 6):
            verdict = rules.is_legal(state, action)
            assert bool(verdict) == (action in legal_set), action
            if not verdict:
                assert verdict.reason
        # state JSON round-trips exactly
        text = json.dumps(state.to_json())
        again = rules.state_from_json(json.loads(text))
        assert again == state and again.to_json() == state.to_json()
        assert rules.legal_actions(again) == legal
    # the game notation round-trips and replays to the same state
    line = rules.format_game(events)
    assert rules.parse_game(line) == events
    assert rules.replay(rules.parse_game(line)) == final


json_scalars = (
    st.none()
    | st.booleans()
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
action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["move", "barrier", "pass", "resign", "place", "run"]) | json_junk},
    optional={
        "to": json_junk | st.lists(st.integers(-3, 12), max_size=3),
        "at": json_junk | st.lists(st.integers(-3, 12), max_size=3),
        "orientation": st.sampled_from(["H", "V", "h", "v", "X"]) | json_junk,
        "seat": json_junk,
    },
)


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(KINDS), obj=json_junk | action_like)
def test_junk_actions_raise_only_invalid_action(kind: str, obj: Any) -> None:
    rules = engine.get(kind)
    try:
        action = rules.parse_action(obj)
    except engine.InvalidAction as exc:
        assert str(exc)
        return
    assert rules.parse_action(action.to_json()) == action
    rules.is_legal(rules.initial(), action)


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    field=st.sampled_from(
        ["turn", "pawns", "barriers", "barriers_left", "in_game", "ply", "left_order", "extra"]
    ),
    junk=json_junk,
)
def test_junk_states_raise_only_invalid_state(kind: str, field: str, junk: Any) -> None:
    rules = engine.get(kind)
    obj = rules.initial().to_json()
    obj[field] = junk
    try:
        state = rules.state_from_json(obj)
    except engine.InvalidState as exc:
        assert str(exc)
        return
    assert state.to_json() == obj


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(KINDS), obj=json_junk)
def test_junk_whole_states_and_notation(kind: str, obj: Any) -> None:
    rules = engine.get(kind)
    with contextlib.suppress(engine.InvalidState):
        rules.state_from_json(obj)
    text = obj if isinstance(obj, str) else json.dumps(obj)
    with contextlib.suppress(engine.InvalidAction):
        rules.parse_game(text)


def test_deeply_nested_junk_is_refused() -> None:
    rules = engine.get("bloqueio")
    deep: Any = 1
    for _ in range(100_000):
        deep = [deep]
    for obj in (deep, {"type": "move", "to": deep}, {"type": "move", "to": [10**5000, 1]}):
        try:
            rules.parse_action(obj)
        except engine.InvalidAction:
            pass
        else:
            raise AssertionError("accepted junk")
    with pytest.raises(engine.InvalidState):
        rules.state_from_json({"turn": deep})
