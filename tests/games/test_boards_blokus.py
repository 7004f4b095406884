"""The Blokus board: the spec the page draws from and the SVG image of a position."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games import engine, services
from games.boards import board_spec, render_svg
from games.boards.colours import contrast

KINDS = ("blokus", "blokus2", "blokus_duo")
COMMON = {"kind", "family", "title", "summary", "rows", "cols", "colours", "seats", "measure"}
pytestmark = pytest.mark.django_db

NAMES = ["I1", "I2", "I3", "V3", "I4", "L4", "T4", "O4", "Z4", "F", "I5",
         "L5", "N", "P", "T5", "U", "V5", "W", "X", "Y", "Z5"]


def played(kind: str, plies: int, seed: int = 1) -> tuple[Any, Any, list[Any]]:
    """The rules, the state after `plies` random legal events, and the events."""
    rules = engine.get(kind)
    state, events = rules.initial(), []
    rnd = random.Random(seed)
    for _ in range(plies):
        if state.is_over:
            break
        action = rnd.choice(rules.legal_actions(state))
        events.append(action)
        state = rules.apply(state, action)
    return rules, state, events


def squares(svg: str) -> dict[tuple[int, int], int]:
    found = re.findall(r'class="square" data-row="(\d+)" data-col="(\d+)" data-colour="(\d+)"', svg)
    return {(int(r), int(c)): int(colour) for r, c, colour in found}


@pytest.mark.parametrize("kind", KINDS)
def test_spec_has_the_common_keys_and_the_pieces(kind: str) -> None:
    spec = board_spec(kind)
    assert set(spec) >= COMMON
    assert spec["family"] == "blokus" and spec["kind"] == kind
    size = 14 if kind == "blokus_duo" else 20
    assert spec["rows"] == spec["cols"] == spec["size"] == size
    assert [p["name"] for p in spec["pieces"]] == NAMES
    assert sum(p["size"] for p in spec["pieces"]) == spec["total_squares"] == 89
    assert sum(len(p["orientations"]) for p in spec["pieces"]) == 91
    for piece in spec["pieces"]:
        assert piece["orientations"][0] == piece["cells"]
        assert all(len(o) == piece["size"] for o in piece["orientations"])
    assert len(spec["starts"]) == len(spec["colours"]) == len(spec["colour_seats"])
    assert {"cell", "margin", "gap", "ink"} <= set(spec["layout"])
    for colour, ink in zip(spec["colours"], spec["initial_ink"], strict=True):
        assert contrast(colour["text"], "#ffffff") >= 4.5
        assert contrast(ink, colour["colour"]) >= 4.5  # the initials on squares


def test_seats_and_colours_of_each_kind() -> None:
    two = board_spec("blokus2")
    assert [s["colour_ids"] for s in two["seats"]] == [[0, 2], [1, 3]]
    assert two["starts"] == [[0, 0], [0, 19], [19, 19], [19, 0]]
    assert [s["colour_ids"] for s in board_spec("blokus")["seats"]] == [[0], [1], [2], [3]]
    duo = board_spec("blokus_duo")
    assert duo["starts"] == [[4, 4], [9, 9]]
    assert [c["initial"] for c in duo["colours"]] == ["P", "O"]


@pytest.mark.parametrize("kind", KINDS)
def test_spec_orientations_are_the_notations(kind: str) -> None:
    """Every legal placement's notation "P/o@cr" reads back through the spec: orientation
    o of the spec's piece, shifted to the anchor, covers exactly the action's cells."""
    spec = board_spec(kind)
    pieces = {p["name"]: p for p in spec["pieces"]}
    seen: set[tuple[str, int]] = set()
    for plies in (0, 6, 14):
        rules, state, _ = played(kind, plies, seed=plies + 7)
        if state.is_over:
            continue
        for action in rules.legal_actions(state):
            data = action.to_json()
            if data["type"] != "place":
                continue
            m = re.fullmatch(r"([A-Z][1-5]?)/([0-7])@([a-t])(\d+)", rules.format_action(action))
            assert m, rules.format_action(action)
            name, o, col, row = m.group(1), int(m.group(2)), ord(m.group(3)) - 97, int(m.group(4))
            cells = sorted([r + row, c + col] for r, c in pieces[name]["orientations"][o])
            assert cells == data["cells"] == sorted(data["cells"])
            seen.add((name, o))
    assert len(seen) > 40  # many pieces and orientations were exercised


@pytest.mark.parametrize(("kind", "plies"), [("blokus", 0), ("blokus", 37), ("blokus2", 60),
                                             ("blokus_duo", 19), ("blokus_duo", 200)])
def test_svg_draws_exactly_the_occupied_squares(kind: str, plies: int) -> None:
    _, state, _ = played(kind, plies, seed=plies)
    data = state.to_json()
    svg = render_svg(kind, data, ply=data["ply"], title=f"<{kind}> & co")
    spec = board_spec(kind)
    expected = {(r, c): colour for r, row in enumerate(data["board"])
                for c, colour in enumerate(row) if colour is not None}
    assert squares(svg) == expected
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert f'data-ply="{data["ply"]}"' in svg
    assert f"&lt;{kind}&gt; &amp; co" in svg  # the title is escaped
    # each square carries its colour's fill and initial
    for (r, c), colour in list(expected.items())[:30]:
        found = re.search(rf'data-row="{r}" data-col="{c}" data-colour="{colour}">(.*?)</g>', svg)
        block = found.group(1) if found else ""
        assert spec["colours"][colour]["colour"] in block
        assert f">{spec['colours'][colour]['initial']}</text>" in block
    # start squares still empty are marked, the others are not
    starts = re.findall(r'class="start" data-colour="(\d+)"', svg)
    assert [int(s) for s in starts] == [i for i, (r, c) in enumerate(spec["starts"])
                                        if data["board"][r][c] is None]
    # one outline path per colour on the board
    assert sorted(int(c) for c in re.findall(r'class="outline" data-colour="(\d+)"', svg)) \
        == sorted(set(expected.values()))


@pytest.mark.parametrize("kind", KINDS)
def test_board_svg_of_real_games(client: Any, alice: Any, bob: Any, carol: Any, dave: Any,
                                 kind: str) -> None:
    game = services.create_game(user=alice, kind=kind)
    response = client.get(f"/games/{game.pk}/board.svg")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert squares(response.content.decode()) == {}
    others = [bob, carol, dave][: engine.get(kind).seats - 1]
    for user in others:
        services.join_game(game_id=game.pk, user=user)
    users = [alice, *others]
    rules = engine.get(kind)
    state = rules.initial()
    first: dict[str, Any] = {}
    for ply in range(6):
        action = rules.legal_actions(state)[ply % 3].to_json()
        seat = state.turn
        services.submit_action(game_id=game.pk, user=users[seat], action=action, ply=ply)
        state = rules.apply(state, action)
        first = first or action
    response = client.get(f"/games/{game.pk}/board.svg")
    assert response.status_code == 200
    board = state.to_json()["board"]
    assert squares(response.content.decode()) == {
        (r, c): v for r, row in enumerate(board) for c, v in enumerate(row) if v is not None}
    early = client.get(f"/games/{game.pk}/board.svg?ply=1").content.decode()
    assert squares(early) == {(r, c): 0 for r, c in first["cells"]}

