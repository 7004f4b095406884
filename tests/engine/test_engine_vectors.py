"""The conformance vectors of every registered kind (tests/vectors/), reproduced exactly.

docs/rules.md is what they check. A registered kind without a vectors file fails, never
skips.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import engine
from tests.conftest import VECTORS

KINDS = engine.KINDS


def load(kind: str) -> list[dict[str, Any]]:
    path = VECTORS / f"{kind}.jsonl"
    # A missing vectors folder or file must fail loudly, never skip.
    assert path.is_file(), f"conformance vectors missing: {path}"
    with path.open() as f:
        return [json.loads(line) for line in f if line.strip()]


CASES = [case for kind in KINDS for case in load(kind)]


def key(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True)


def replay(rules: engine.Rules, case: dict[str, Any]) -> Any:
    if case["start"] == "initial":
        state = rules.initial()
    else:
        state = rules.state_from_json(case["start"])
        assert state.to_json() == case["start"]
    for action in case["actions"]:
        state = rules.apply_event(state, rules.parse_event(action))
    return state


def test_every_kind_has_vectors() -> None:
    for kind in KINDS:
        assert len(load(kind)) > 50, kind


def test_every_vectors_file_belongs_to_a_kind() -> None:
    # A file no registered kind reads would never be checked.
    assert {path.stem for path in VECTORS.glob("*.jsonl")} <= set(KINDS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_vector(case: dict[str, Any]) -> None:
    rules = engine.get(case["kind"])
    expect = case["expect"]
    state = replay(rules, case)
    got = state.to_json()
    for field, value in expect["state"].items():
        assert got[field] == value, field
    legal = sorted((a.to_json() for a in rules.legal_actions(state)), key=key)
    assert legal == sorted(expect["legal"], key=key)
    result = rules.result(state)
    assert (None if result is None else result.to_json()) == expect["result"]
    assert rules.must_pass(state) == (expect["legal"] == [{"type": "pass"}])
    before = state.to_json()
    for probe in expect["illegal"]:
        try:
            action = rules.parse_action(probe)
        except engine.InvalidAction:
            continue
        legality = rules.is_legal(state, action)
        assert not legality and legality.reason, probe
        with pytest.raises(engine.IllegalAction):
            rules.apply(state, action)
    assert state.to_json() == before
    assert rules.state_from_json(got) == state
