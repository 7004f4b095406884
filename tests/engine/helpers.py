"""What the engine's tests share: seeded random games, the checks every position and
every game of any kind must pass, and the engine's command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games import engine

ROOT = Path(__file__).resolve().parents[2]

# Well-formed actions of a kind, mostly illegal where they are tried: (rules, rng) -> list
Candidates = Callable[[Any, random.Random], list[Any]]


def random_game(
    rules: engine.Rules,
    seed: int,
    *,
    plies: int | None = None,
    leave_rate: float = 0.0,
    leave_at: int | None = None,
) -> tuple[list[Any], list[Any]]:
    """A seeded game of uniformly random legal actions, to its end or ``plies`` events;
    a seat still in the game leaves at ply ``leave_at`` and, each ply, with probability
    ``leave_rate``. Returns the events and every state, the initial one first."""
    rng = random.Random(seed)
    state = rules.initial()
    events: list[Any] = []
    states = [state]
    while state.turn is not None and len(events) != plies:
        if state.ply == leave_at or (leave_rate and rng.random() < leave_rate):
            seat = rng.choice([s for s in range(rules.seats) if state.in_game[s]])
            event: Any = engine.Leave(seat, rng.choice(engine.LEAVE_REASONS))
        else:
            event = rng.choice(rules.legal_actions(state))
        state = rules.apply_event(state, event)
        events.append(event)
        states.append(state)
    return events, states


def check_game(
    rules: engine.Rules,
    events: list[Any],
    states: list[Any],
    rng: random.Random,
    *,
    sample: int | None = None,
    candidates: Candidates | None = None,
) -> None:
    """What holds in every game of every kind, position by position: the state JSON
    reads back equal; the legal actions are distinct, legal, apply, and read back from
    their JSON and notation (``sample`` of them, all in every tenth position; all if
    None); ``candidates`` are judged legal exactly when listed, with a reason when not;
    the result is there exactly when the game is over. Then the game's notation and
    JSON replay to the same end."""
    for n, state in enumerate(states):
        assert state.ply == n
        legal = rules.legal_actions(state)
        again = rules.state_from_json(json.loads(json.dumps(state.to_json())))
        assert again == state and again.to_json() == state.to_json()
        assert rules.legal_actions(again) == legal
        result = rules.result(state)
        if state.turn is None:
            assert legal == [] and result is not None
            assert len(result.ranking) == rules.seats and min(result.ranking) == 1
            continue
        assert result is None and legal and len(set(legal)) == len(legal)
        assert rules.must_pass(state) == rules.must_pass(again) == (legal == [engine.PASS])
        every = sample is None or n % 10 == 0
        for action in legal if every else rng.sample(legal, min(sample or 0, len(legal))):
            assert rules.is_legal(state, action) and rules.is_legal(again, action)
            assert rules.apply(state, action).ply == n + 1
            assert rules.parse_action(json.loads(json.dumps(action.to_json()))) == action
            assert rules.parse_notation(rules.format_action(action)) == action
        legal_set = set(legal)
        for action in candidates(rules, rng) if candidates else ():
            verdict = rules.is_legal(state, action)
            assert bool(verdict) == (action in legal_set), action
            assert verdict or verdict.reason
    final = states[-1]
    line = rules.format_game(events)
    assert rules.parse_game(line) == events
    assert rules.replay(rules.parse_game(line)) == final
    assert rules.replay([e.to_json() for e in events]) == final


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m games.engine ARGS`` in the repository, its output as text."""
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
