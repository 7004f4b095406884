"""Property tests of the blockade kinds: random seeded games keep every invariant, and
junk input raises only the engine's narrow errors."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.engine.blockade import Place, Run

KINDS = ("blockade", "blockade_run")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def candidates(kind: str, rng: random.Random, n: int) -> list[Any]:
    """Well-formed actions, mostly illegal: any cell, any block, pass."""

    def cell() -> tuple[int, int]:
        return (rng.randrange(5), rng.randrange(5))

    out: list[Any] = [engine.PASS]
    for _ in range(n):
        out.append(Place(cell()) if kind == "blockade" else Run(cell(), rng.choice([None, cell()])))
    return out


def playout(kind: str, seed: int, leave_rate: float) -> tuple[list[Any], list[Any]]:
    rules = engine.get(kind)
    rng = random.Random(seed)
    state = rules.initial()
    events: list[Any] = []
    states = [state]
    while state.turn is not None:
        if rng.random() < leave_rate:
            seat = rng.choice([s for s in range(rules.seats) if state.in_game[s]])
            event: Any = engine.Leave(seat, rng.choice(engine.LEAVE_REASONS))
        else:
            event = rng.choice(rules.legal_actions(state))
        state = rules.apply_event(state, event)
        events.append(event)
        states.append(state)
    return events, states


@SETTINGS
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**32), leave=st.sampled_from([0, 0.03]))
def test_random_games_keep_invariants(kind: str, seed: int, leave: float) -> None:
    rules = engine.get(kind)
    rng = random.Random(seed ^ 0x5EED)
    events, states = playout(kind, seed, leave)
    for n, state in enumerate(states):
        assert state.ply == n
        legal = rules.legal_actions(state)
        result = rules.result(state)
        assert not rules.must_pass(state)
        again = rules.state_from_json(json.loads(json.dumps(state.to_json())))
        assert again == state and again.to_json() == state.to_json()
        assert rules.legal_actions(again) == legal
        if state.turn is None:
            assert n == len(states) - 1 and legal == [] and result is not None
            assert sorted(result.ranking) == [1, 2]
            continue
        assert result is None and legal and engine.PASS not in legal
        assert len(set(legal)) == len(legal)
        for action in legal:
            assert rules.is_legal(state, action)
            rules.apply(state, action)
            assert rules.parse_action(json.loads(json.dumps(action.to_json()))) == action
            assert rules.parse_notation(rules.format_action(action)) == action
        legal_set = set(legal)
        for action in candidates(kind, rng, 12):
            verdict = rules.is_legal(state, action)
            assert bool(verdict) == (action in legal_set), action
            if not verdict:
                assert verdict.reason
        for seat in range(rules.seats):
            value = rules.measure(state, seat)
            assert value is None or value >= 0
        mover_mobility = rules.measure(state, state.turn)
        assert mover_mobility is not None and mover_mobility > 0
    line = rules.format_game(events)
    assert rules.parse_game(line) == events
    assert rules.replay(rules.parse_game(line)) == states[-1]
    assert rules.replay([e.to_json() for e in events]) == states[-1]


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 7)
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=6)
)
json_junk = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)
action_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["place", "run", "pass", "move", "resign"]) | json_junk},
    optional={
        "at": json_junk | st.lists(st.integers(-1, 6), max_size=3),
        "to": json_junk | st.lists(st.integers(-1, 6), max_size=3),
        "block": json_junk | st.lists(st.integers(-1, 6), max_size=3),
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


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(KINDS),
    field=st.sampled_from(
        ["turn", "board", "pawns", "blocks", "last", "in_game", "ply", "left_order", "extra"]
    ),
    junk=json_junk,
    seed=st.integers(0, 50),
)
def test_junk_states_raise_only_invalid_state(kind: str, field: str, junk: Any, seed: int) -> None:
    rules = engine.get(kind)
    _, states = playout(kind, seed, 0.0)
    obj = states[len(states) // 2].to_json()
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


def test_every_reachable_blockade_opening_round_trips() -> None:
    """Exhaustively, the first five plies of Blockade: every state reads back equal."""
    rules = engine.get("blockade")
    frontier = [rules.initial()]
    for _ in range(5):
        nxt = []
        for state in frontier:
            for action in rules.legal_actions(state):
                child = rules.apply(state, action)
                assert rules.state_from_json(child.to_json()) == child
                nxt.append(child)
        frontier = nxt
    assert len(frontier) > 300
    assert all((rules.result(s) is None) == (s.turn is not None) for s in frontier)
    assert any(s.turn is None for s in frontier)  # a corner start can be blocked by ply 5
