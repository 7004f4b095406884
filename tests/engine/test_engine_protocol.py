"""Every registered kind implements the whole ``Rules`` protocol, and the package's
public surface stays family-neutral (the platform never names a family's classes)."""

from __future__ import annotations

import json
import re

import pytest

from games import engine
from tests.engine.helpers import ROOT, run_cli

HEX = re.compile(r"#[0-9a-f]{6}")
METHODS = (
    "initial",
    "state_from_json",
    "parse_action",
    "parse_event",
    "legal_actions",
    "is_legal",
    "must_pass",
    "result",
    "apply",
    "leave",
    "apply_event",
    "replay",
    "format_action",
    "parse_notation",
    "format_game",
    "parse_game",
    "render",
    "measure",
)


def test_registry_order_is_stable() -> None:
    assert engine.KINDS[:6] == (
        "bloqueio",
        "bloqueio2",
        "quoridor",
        "quoridor4",
        "blockade",
        "blockade_run",
    )
    assert len(set(engine.KINDS)) == len(engine.KINDS)


@pytest.mark.parametrize("kind", engine.KINDS)
def test_kind_implements_the_protocol(kind: str) -> None:
    rules = engine.get(kind)
    assert rules.kind == kind
    for name in METHODS:
        assert callable(getattr(rules, name)), name
    info = rules.info
    assert isinstance(info, engine.KindInfo)
    assert info.kind == kind and info.family == rules.family and info.family.isidentifier()
    assert info.title and info.summary and "\n" not in info.summary
    assert info.seats == rules.seats >= 2
    assert info.rows > 0 and info.cols > 0
    assert info.move_limit == rules.max_plies == 100 * rules.seats
    assert info.measure_name
    seats_of_colours = info.colour_seats or tuple(range(info.seats))
    assert len(info.colours) == len(seats_of_colours)
    assert set(seats_of_colours) == set(range(info.seats))
    for colour in info.colours:
        assert isinstance(colour, engine.SeatInfo)
        assert colour.name and HEX.fullmatch(colour.colour) and len(colour.initial) == 1
    assert len({c.colour for c in info.colours}) == len(info.colours)
    assert len({c.initial for c in info.colours}) == len(info.colours)
    assert json.loads(json.dumps(info.to_json()))["kind"] == kind


@pytest.mark.parametrize("kind", engine.KINDS)
def test_initial_state_behaves(kind: str) -> None:
    rules = engine.get(kind)
    state = rules.initial()
    assert state.turn == 0 and state.ply == 0 and not state.is_over
    assert state.in_game == (True,) * rules.seats
    assert rules.state_from_json(json.loads(json.dumps(state.to_json()))) == state
    assert rules.result(state) is None and not rules.must_pass(state)
    legal = rules.legal_actions(state)
    assert legal and all(rules.is_legal(state, a) for a in legal[:20])
    first = legal[0]
    assert rules.parse_action(first.to_json()) == first
    assert rules.parse_notation(rules.format_action(first)) == first
    for seat in range(rules.seats):
        value = rules.measure(state, seat)
        # an int (a score may be negative; a count of steps or moves never is)
        assert value is None or type(value) is int
        if value is not None and not rules.info.measure_higher_is_better:
            assert value >= 0
    after = rules.leave(state, 1, "timeout")
    assert after.ply == 1 and not after.in_game[1]
    assert rules.parse_event({"type": "removed", "seat": 1}) == engine.Leave(1, "removed")
    assert rules.measure(after, 1) is None
    with pytest.raises(engine.InvalidAction):
        rules.parse_action({"type": "resign", "seat": 0})
    assert isinstance(rules.render(state), str)


def test_top_level_names_no_family() -> None:
    for name in ("Move", "Barrier", "State", "PlacedBarrier", "Place", "Run", "Action"):
        assert not hasattr(engine, name), name


def test_engine_imports_no_django() -> None:
    for path in (ROOT / "games" / "engine").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"^\s*(from|import) django", text, re.M), path


def test_cli_lists_every_kind_and_shows_each() -> None:
    done = run_cli("kinds")
    assert done.returncode == 0 and tuple(done.stdout.split()) == engine.KINDS
    for kind in engine.KINDS:
        done = run_cli("show", kind)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip()
