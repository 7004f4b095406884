"""The blockade family's board: the spec the page draws from and the standalone SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from accounts.models import User
from games import engine, services
from games.boards import blockade as blockade_board
from games.boards import board_spec, render_svg
from games.boards.colours import contrast

SVG = "{http://www.w3.org/2000/svg}"
COMMON = {"kind", "family", "title", "summary", "rows", "cols", "colours", "seats", "measure"}

# Blockade: X c2, O c1, X b1, O a1, X a0 (each next to the opponent's last placement).
PLACES = ["c2", "c1", "b1", "a1", "a0"]
# Blockade Run: red steps down column b, green up column d, each blocking a far cell.
RUNS = ["b0^a4", "d4^e0", "b1^a3", "d3^e1"]


def play(kind: str, notation: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    rules = engine.get(kind)
    actions = [rules.parse_notation(t).to_json() for t in notation]
    return rules.replay(actions).to_json(), actions


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def nodes(root: ET.Element, cls: str) -> list[ET.Element]:
    return [n for n in root.iter() if cls in (n.get("class") or "").split()]


def at(node: ET.Element) -> tuple[int, int]:
    return int(node.get("data-row", -1)), int(node.get("data-col", -1))


@pytest.mark.parametrize("kind", ["blockade", "blockade_run"])
def test_spec_has_the_common_keys_and_the_layout(kind: str) -> None:
    spec = board_spec(kind)
    assert spec.keys() >= COMMON
    assert spec["kind"] == kind and spec["family"] == "blockade"
    assert (spec["rows"], spec["cols"]) == (5, 5)
    assert [s["seat"] for s in spec["seats"]] == [0, 1]
    assert all({"colour_ids", "initial", "text", "name"} <= s.keys() for s in spec["seats"])
    layout = spec["layout"]
    assert layout["cell"] == blockade_board.CELL and layout["margin"] == blockade_board.MARGIN
    assert {"inset", "pawn", "ink", "block", "accent", "label_ink"} <= layout.keys()
    # Text on the board meets WCAG AA: labels on the background, each seat's letters on
    # its colour.
    assert contrast(layout["label_ink"], layout["background"]) >= 4.5
    for seat in spec["seats"]:
        assert contrast(seat["ink"], seat["colour"]) >= 4.5
        assert contrast(seat["text"], "#ffffff") >= 4.5


def test_run_spec_names_starts_and_goal_rows() -> None:
    spec = board_spec("blockade_run")
    assert spec["starts"] == [[0, 2], [4, 2]]
    assert spec["goal_rows"] == [4, 0]
    assert "starts" not in board_spec("blockade")


def test_blockade_svg_draws_every_mark_and_the_last_placement() -> None:
    state, _ = play("blockade", PLACES)
    root = parse(render_svg("blockade", state, ply=len(PLACES), title="game #1"))
    assert root.get("data-kind") == "blockade" and root.get("data-ply") == str(len(PLACES))
    cells = nodes(root, "cell")
    assert sorted(at(c) for c in cells) == [(r, c) for r in range(5) for c in range(5)]
    marks = {at(m): int(m.get("data-seat")) for m in nodes(root, "mark")}
    expected = {(r, c): owner for r, row in enumerate(state["board"])
                for c, owner in enumerate(row) if owner is not None}
    assert marks == expected == {(2, 2): 0, (1, 2): 1, (1, 1): 0, (1, 0): 1, (0, 0): 0}
    # The symbol is drawn on each mark (never colour alone).
    for mark in nodes(root, "mark"):
        text = mark.find(f"{SVG}text")
        assert text is not None and text.text == ("X" if mark.get("data-seat") == "0" else "O")
    last = [at(m) for m in nodes(root, "mark") if m.get("data-last") == "true"]
    assert last == [(0, 0)] == [tuple(state["last"]["at"])]
    assert len(nodes(root, "last-ring")) == 1
    assert not nodes(root, "pawn") and not nodes(root, "block")


def test_blockade_svg_of_the_empty_board_and_its_labels() -> None:
    rules = engine.get("blockade")
    root = parse(render_svg("blockade", rules.initial().to_json()))
    assert not nodes(root, "mark") and not nodes(root, "last-ring")
    labels = [n.text for n in nodes(root, "label")]
    assert labels == ["a", "b", "c", "d", "e", "0", "1", "2", "3", "4"]


def test_run_svg_draws_pawns_blocks_goal_rows_and_the_last_run() -> None:
    state, _ = play("blockade_run", RUNS)
    root = parse(render_svg("blockade_run", state, ply=len(RUNS)))
    pawns = {int(p.get("data-seat")): at(p) for p in nodes(root, "pawn")}
    assert pawns == {s: tuple(p) for s, p in enumerate(state["pawns"])} == {0: (1, 1), 1: (3, 3)}
    blocks = sorted(at(b) for b in nodes(root, "block"))
    assert blocks == sorted(tuple(b) for b in state["blocks"]) == [(0, 4), (1, 4), (3, 0), (4, 0)]
    initials = {p.get("data-seat"): p.find(f"{SVG}text").text for p in nodes(root, "pawn")}
    assert initials == {"0": "R", "1": "G"}
    goal_cells = {at(c): c.get("data-goal") for c in nodes(root, "cell") if c.get("data-goal")}
    assert goal_cells == {**{(4, c): "0" for c in range(5)}, **{(0, c): "1" for c in range(5)}}
    last = [int(p.get("data-seat")) for p in nodes(root, "pawn") if p.get("data-last") == "true"]
    assert last == [1] == [state["last"]["seat"]]
    assert not nodes(root, "mark")


def test_run_svg_leaves_out_a_pawn_that_left() -> None:
    rules = engine.get("blockade_run")
    state = rules.leave(rules.initial(), 1).to_json()
    assert state["pawns"][1] is None
    root = parse(render_svg("blockade_run", state))
    assert [p.get("data-seat") for p in nodes(root, "pawn")] == ["0"]


@pytest.mark.parametrize("kind", ["blockade", "blockade_run"])
def test_the_title_is_escaped(kind: str) -> None:
    rules = engine.get(kind)
    svg = render_svg(kind, rules.initial().to_json(), title='<script>"x" & y</script>')
    assert "<script>" not in svg
    assert parse(svg).find(f"{SVG}title").text == '<script>"x" & y</script>'


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["blockade", "blockade_run"])
def test_board_svg_of_a_live_game(client: Any, alice: User, bob: User, kind: str) -> None:
    game = services.create_game(user=alice, kind=kind)
    services.join_game(game_id=game.pk, user=bob)
    notation = PLACES[:3] if kind == "blockade" else RUNS[:3]
    state, actions = play(kind, notation)
    for ply, action in enumerate(actions):
        user = alice if ply % 2 == 0 else bob
        services.submit_action(game_id=game.pk, user=user, action=action, ply=ply)
    response = client.get(f"/games/{game.pk}/board.svg")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    root = parse(response.content.decode())
    assert root.get("data-ply") == "3"
    if kind == "blockade":
        assert len(nodes(root, "mark")) == 3
    else:
        assert sorted(at(b) for b in nodes(root, "block")) == sorted(
            tuple(b) for b in state["blocks"])
    earlier = parse(client.get(f"/games/{game.pk}/board.svg?ply=1").content.decode())
    assert len(nodes(earlier, "mark" if kind == "blockade" else "block")) == 1
