"""Blokus piece data, kind info, strict parsing of actions, states and notation."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engine.blokus import RULES
from games.engine.blokus.actions import Place
from games.engine.blokus.pieces import COUNT, NAMES, ORIENTATIONS, SHAPES, SIZES, normalise
from games.engine.common import PASS, Leave
from games.engine.errors import IllegalAction, InvalidAction, InvalidState
from games.engine.notation import format_cell
from games.engine.protocol import Rules

CLASSIC = RULES["blokus"]
DUO = RULES["blokus_duo"]


def place(piece: str, *cells: tuple[int, int]) -> dict[str, Any]:
    return {"type": "place", "piece": piece, "cells": [list(c) for c in cells]}


OPENING = [
    place("I2", (0, 0), (0, 1)),
    place("I1", (0, 19)),
    place("I1", (19, 19)),
    place("I1", (19, 0)),
]


# -- piece data --------------------------------------------------------------------------


def test_21_pieces_89_squares_91_fixed_orientations() -> None:
    assert COUNT == len(NAMES) == 21
    assert " ".join(NAMES) == "I1 I2 I3 V3 I4 L4 T4 O4 Z4 F I5 L5 N P T5 U V5 W X Y Z5"
    assert sum(SIZES) == 89
    assert sum(len(o) for o in ORIENTATIONS) == 91


def test_orientations_are_distinct_and_orientation_0_is_the_drawing() -> None:
    for shape, orients in zip(SHAPES, ORIENTATIONS, strict=True):
        assert orients[0] == normalise(shape)
        assert len(set(orients)) == len(orients)
        assert all(len(o) == len(shape) for o in orients)


def test_the_pieces_are_the_21_free_polyominoes_of_sizes_1_to_5() -> None:
    canon = {min(o) for o in ORIENTATIONS}
    assert len(canon) == 21  # no two names for one free shape
    assert [SIZES.count(n) for n in range(1, 6)] == [1, 1, 2, 5, 12]


def test_kinds_and_info() -> None:
    assert list(RULES) == ["blokus", "blokus2", "blokus_duo"]
    for kind, rules in RULES.items():
        info = rules.info
        assert (info.kind, info.family, rules.family) == (kind, "blokus", "blokus")
        assert info.measure_name == "score" and info.measure_higher_is_better
        assert len(info.colours) == len(info.colour_seats) == rules.ncolours
        assert rules.max_plies == 100 * rules.seats == info.move_limit
    assert RULES["blokus"].info.title == "Blokus"
    assert RULES["blokus2"].info.title == "Blokus (2 players)"
    assert RULES["blokus2"].info.colour_seats == (0, 1, 0, 1)
    assert (DUO.info.title, DUO.info.rows, DUO.info.cols, DUO.seats) == ("Blokus Duo", 14, 14, 2)
    assert CLASSIC.info.to_json()["colours"][0]["colour"] == "#2563eb"  # palettes.json


def test_every_rules_object_has_the_whole_protocol() -> None:
    members = [m for m in dir(Rules) if not m.startswith("_")]
    members += list(Rules.__annotations__)
    for rules in RULES.values():
        for name in members:
            assert hasattr(rules, name), name


# -- actions -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "place", "piece": "I1"},
        {"type": "place", "piece": "I1", "cells": [[0, 0]], "seat": 0},
        {"type": "place", "piece": "i1", "cells": [[0, 0]]},
        {"type": "place", "piece": 1, "cells": [[0, 0]]},
        {"type": "place", "piece": "I1", "cells": [[True, 0]]},
        {"type": "place", "piece": "I1", "cells": [[0.0, 0]]},
        {"type": "place", "piece": "I1", "cells": [[20, 0]]},
        {"type": "place", "piece": "I1", "cells": [[0, -1]]},
        {"type": "place", "piece": "I1", "cells": []},
        {"type": "place", "piece": "I1", "cells": [[0, 0]] * 6},
        {"type": "place", "piece": "I2", "cells": [[0, 0], [0, 0]]},
        {"type": "place", "piece": "I1", "cells": "0,0"},
        {"type": "place", "piece": "I1", "cells": [[0, 0, 0]]},
        {"type": "pass", "piece": "I1"},
        {"type": "Place", "piece": "I1", "cells": [[0, 0]]},
        {"type": "resign", "seat": 0},
        [],
        None,
    ],
)
def test_malformed_actions_are_invalid(raw: object) -> None:
    with pytest.raises(InvalidAction):
        CLASSIC.parse_action(raw)


def test_cells_come_in_any_order_and_are_sorted() -> None:
    action = CLASSIC.parse_action(place("V3", (1, 1), (0, 0), (1, 0)))
    assert action == Place("V3", ((0, 0), (1, 0), (1, 1)))
    assert CLASSIC.parse_action({"type": "pass"}) is PASS
    assert DUO.parse_event({"type": "timeout", "seat": 1}) == Leave(1, "timeout")
    with pytest.raises(InvalidAction):
        DUO.parse_event({"type": "resign", "seat": 2})
    with pytest.raises(InvalidAction):
        DUO.parse_action(place("I1", (14, 0)))


@pytest.mark.parametrize(
    ("actions", "probe", "reason"),
    [
        ([], place("I1", (1, 1)), "your first piece must cover your corner [0,0]"),
        ([], place("O4", (0, 0), (0, 1), (1, 0), (2, 0)), "not the shape of O4"),
        ([], place("I3", (0, 0), (0, 1)), "not the shape of I3: it covers 3 squares, not 2"),
        (
            [
                place("I1", (0, 0)),
                place("I1", (0, 19)),
                place("I1", (19, 19)),
                place("I1", (19, 0)),
            ],
            place("I1", (1, 1)),
            "you have already placed I1",
        ),
        (
            OPENING,
            place("I1", (0, 2)),
            "I1 shares an edge with your own piece",
        ),
        (
            OPENING,
            place("I1", (5, 5)),
            "I1 must touch a corner of your own blue piece",
        ),
        (
            OPENING,
            place("V3", (0, 0), (1, 0), (1, 1)),
            "V3 overlaps a piece on [0,0]",
        ),
    ],
)
def test_refusals_say_why(
    actions: list[dict[str, Any]], probe: dict[str, Any], reason: str
) -> None:
    state = CLASSIC.replay(actions)
    legality = CLASSIC.is_legal(state, CLASSIC.parse_action(probe))
    assert not legality and legality.reason == reason
    with pytest.raises(IllegalAction, match="^" + reason.replace("[", r"\[")):
        CLASSIC.apply(state, probe)


def test_seat_and_pass_refusals() -> None:
    state = CLASSIC.initial()
    assert CLASSIC.is_legal(state, place("I1", (0, 0)), seat=0)
    assert CLASSIC.is_legal(state, place("I1", (0, 0)), seat=1).reason == "not your turn"
    assert not CLASSIC.is_legal(state, PASS)
    duo = DUO.apply(DUO.initial(), place("I1", (0, 0)) | {"cells": [[4, 4]]})
    assert (
        DUO.is_legal(duo, place("I1", (5, 5))).reason
        == "your first piece must cover your start square [9,9]"
    )


def test_blokus2_seat_0_plays_blue_and_red() -> None:
    rules = RULES["blokus2"]
    state = rules.replay([place("I1", (0, 0)), place("I1", (0, 19))])
    assert (state.turn, state.colour) == (0, 2)
    state = rules.apply(state, place("I1", (19, 19)))
    assert (state.turn, state.colour) == (1, 3)
    assert rules.measure(state, 0) == -176 and rules.measure(state, 1) == -88 - 89


# -- states ------------------------------------------------------------------------------


def test_initial_state_json() -> None:
    obj = DUO.initial().to_json()
    assert set(obj) == {
        "turn", "colour", "board", "hands", "out", "last_piece", "in_game", "ply", "left_order"
    }  # fmt: skip
    assert (obj["turn"], obj["colour"], obj["ply"]) == (0, 0, 0)
    assert len(obj["board"]) == 14 and all(len(row) == 14 for row in obj["board"])
    assert obj["hands"] == [list(NAMES)] * 2 and obj["last_piece"] == [None, None]


def _midgame() -> dict[str, Any]:
    state = CLASSIC.replay(OPENING)
    return state.to_json()


def _broken(change: str) -> dict[str, Any]:
    obj = copy.deepcopy(_midgame())
    if change == "extra key":
        obj["extra"] = 1
    elif change == "missing key":
        del obj["out"]
    elif change == "bool as int":
        obj["ply"] = True
    elif change == "square without piece":
        obj["board"][5][5] = 0
    elif change == "colour out of range":
        obj["board"][5][5] = 4
    elif change == "short row":
        obj["board"][3] = obj["board"][3][:-1]
    elif change == "unknown piece":
        obj["hands"][0][0] = "I6"
    elif change == "hand out of order":
        obj["hands"][1] = list(reversed(obj["hands"][1]))
    elif change == "last piece in hand":
        obj["last_piece"][0] = "I1"
    elif change == "no last piece":
        obj["last_piece"][1] = None
    elif change == "wrong seat for colour":
        obj["turn"] = 1
    elif change == "turn null while running":
        obj["turn"] = obj["colour"] = None
    elif change == "left order mismatch":
        obj["left_order"] = [2]
    elif change == "ply too small":
        obj["ply"] = 3
    elif change == "start square not covered":
        obj["board"][0][0] = None
        obj["board"][1][0] = 0
    elif change == "colour to move is out":
        obj["out"][0] = True
    return obj


@pytest.mark.parametrize(
    "change",
    [
        "extra key",
        "missing key",
        "bool as int",
        "square without piece",
        "colour out of range",
        "short row",
        "unknown piece",
        "hand out of order",
        "last piece in hand",
        "no last piece",
        "wrong seat for colour",
        "turn null while running",
        "left order mismatch",
        "ply too small",
        "start square not covered",
        "colour to move is out",
    ],
)
def test_impossible_states_are_refused(change: str) -> None:
    CLASSIC.state_from_json(_midgame())
    with pytest.raises(InvalidState):
        CLASSIC.state_from_json(_broken(change))


# -- notation and pictures ---------------------------------------------------------------


def test_notation_examples() -> None:
    assert CLASSIC.parse_notation("L5/0@a0") == Place(
        "L5", ((0, 0), (1, 0), (1, 1), (1, 2), (1, 3))
    )
    assert CLASSIC.format_action(Place("I1", ((19, 19),))) == "I1/0@t19"
    assert CLASSIC.parse_notation("pass") is PASS
    assert CLASSIC.parse_notation("resign:3") == Leave(3, "resign")
    assert CLASSIC.format_action(Leave(1, "removed")) == "removed:1"


@pytest.mark.parametrize(
    "text",
    [
        "L5/8@a0",
        "X/1@a0",
        "I5/0@q0",
        "I1/0@u0",
        "I1/0@a20",
        "I1/0@a01",
        "i1/0@a0",
        "resign:4",
        "I1 /0@a0",
        "",
    ],
)
def test_bad_notation_is_invalid(text: str) -> None:
    with pytest.raises(InvalidAction):
        CLASSIC.parse_notation(text)


def test_render_marks_colours_and_free_starts() -> None:
    picture = DUO.render(DUO.apply(DUO.initial(), place("I1", (4, 4))))
    lines = picture.splitlines()
    assert lines[0].split() == [chr(ord("a") + c) for c in range(14)]
    assert lines[1 + 4].split()[1 + 4] == "P"
    assert lines[1 + 9].split()[1 + 9] == "+"
    assert "orange (seat 1) to move" in lines[-1]


def test_duo_summary_names_the_start_squares_as_the_notation_does() -> None:
    rules = RULES["blokus_duo"]
    names = " and ".join(format_cell(cell) for cell in rules.geo.starts)
    assert f"starting from {names};" in rules.info.summary
