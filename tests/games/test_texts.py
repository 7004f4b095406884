"""games.texts: what the engine and the bots say in English, in Brazilian Portuguese.

These tests watch the engine and the bots: a new title, summary, colour, level
description, refusal or bot reason that games/texts.py does not know fails here (and
English stays exactly what the engine and the bots said).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.utils import translation

from games import bots, engine, texts
from tests.conftest import client_for
from tests.games.helpers import started_game

PT = "pt-br"
# Titles that are only names: the same in every language.
NAMES = {"Bloqueio", "Quoridor", "Blockade", "Blockade Run", "Blokus", "Blokus Duo"}
MARKS = {"X", "O"}  # Blockade's marks: letters, not colour names


def _positions(kind: str, seed: int, plies: int = 40) -> list[Any]:
    """Positions of a random game of `kind` (the bots' `easy` choices), at most `plies`."""
    rules = engine.get(kind)
    state, found = rules.initial(), []
    chance = random.Random(seed)
    for _ in range(plies):
        if state.turn is None:
            break
        found.append(state)
        actions = rules.legal_actions(state)
        state = rules.apply(state, chance.choice(actions))
    return found


def _in_portuguese(text: str) -> str:
    with translation.override(PT):
        return texts.sentence(text)


@pytest.mark.parametrize("kind", engine.KINDS)
def test_every_kind_has_its_words_in_portuguese(kind):
    info = engine.get(kind).info
    with translation.override(PT):
        title = texts.kind_title(kind)
        assert title == info.title if info.title in NAMES else title != info.title
        assert texts.kind_summary(kind) != info.summary
        assert texts.words(info.measure_name) != info.measure_name
        for colour in info.colours:
            named = texts.colour(colour.name)
            assert named == colour.name if colour.name in MARKS else named != colour.name
        assert f"({info.seats} jogadores)" in texts.menu_label(kind)
    with translation.override("en"):
        assert texts.kind_title(kind) == info.title
        assert texts.kind_summary(kind) == info.summary


def test_every_bot_level_is_described_in_portuguese():
    with translation.override(PT):
        for level in bots.LEVELS:
            assert texts.bot_about(level) != bots.ABOUT[level]
            assert texts.level_name(level) != level
        assert texts.computer("hard") == "Computador (difícil)"
    with translation.override("en"):
        assert texts.computer("hard") == "Computer (hard)"
        assert [texts.bot_about(level) for level in bots.LEVELS] == [
            bots.ABOUT[level] for level in bots.LEVELS]


def test_colour_names_keep_their_capitals():
    with translation.override(PT):
        assert texts.colour("Red") == "Vermelho"
        assert texts.colour("blue") == "azul"
        assert texts.colour("Blue & Red") == "Azul & Vermelho"
        assert texts.seat_name("blokus2", 0) == "Azul & Vermelho"
        spec = texts.spec("blokus2")
        assert spec["title"] == "Blokus (2 jogadores)"
        assert [s["name"] for s in spec["seats"]] == ["Azul & Vermelho", "Amarelo & Verde"]
        assert spec["measure"]["name"] == "pontos"


@pytest.mark.parametrize("kind", engine.KINDS)
def test_every_reason_a_bot_gives_is_translated(kind):
    rules = engine.get(kind)
    reasons = set()
    for seed in range(3):
        for state in _positions(kind, seed):
            chance = random.Random(seed * 1000 + len(reasons))
            actions = rules.legal_actions(state)
            for action in chance.sample(actions, min(4, len(actions))):
                reasons.add(bots.explain(rules, state, action))
    assert reasons
    unknown = sorted(r for r in reasons if _in_portuguese(r) == r)
    assert unknown == [], "bots.explain says something games/texts.py does not know"
    with translation.override("en"):
        assert all(texts.sentence(r) == r for r in reasons)


def _candidates(kind: str, state: Any) -> list[dict[str, Any]]:
    """Actions of every shape for `kind`, most of them illegal in `state`."""
    rules = engine.get(kind)
    info = rules.info
    cells = [[r, c] for r in range(-1, info.rows + 1) for c in range(-1, info.cols + 1)]
    inside = [[r, c] for r in range(info.rows) for c in range(info.cols)]
    legal = [a.to_json() for a in rules.legal_actions(state)]
    family = info.family
    if family == "barrier":
        return [{"type": "pass"}, *({"type": "move", "to": cell} for cell in cells),
                *({"type": "barrier", "at": cell, "orientation": o}
                  for cell in cells for o in "HV")]
    if family == "blockade":
        first = legal[0]
        if first["type"] == "place":
            return [{"type": "pass"}, *({"type": "place", "at": cell} for cell in cells)]
        return [{"type": "pass"}, *({"type": "run", "to": cell} for cell in inside),
                *({"type": "run", "to": cell, "block": block}
                  for cell in inside for block in inside)]
    shifted = [{**a, "cells": [[r + dr, c + dc] for r, c in a["cells"]]}
               for a in legal[:40] if a["type"] == "place"
               for dr, dc in ((0, 1), (1, 0), (1, 1), (-3, 2), (7, -5), (19, 19))]
    return [{"type": "pass"}, *shifted,
            *({**a, "cells": a["cells"][:-1]} for a in legal[:5] if a["type"] == "place"),
            *({**a, "piece": "I1"} for a in legal[:5] if a["type"] == "place")]


@pytest.mark.parametrize("kind", engine.KINDS)
def test_every_refusal_the_engine_gives_is_translated(kind):
    rules = engine.get(kind)
    refusals = set()
    for state in _positions(kind, seed=7, plies=24)[::6]:
        for action in _candidates(kind, state):
            for seat in (None, (state.turn + 1) % rules.seats):
                try:
                    answer = rules.is_legal(state, action, seat)
                except engine.EngineError:
                    continue  # malformed for this kind (a code path of its own)
                if not answer:
                    refusals.add(answer.reason)
    assert len(refusals) >= 3, refusals
    unknown = sorted(r for r in refusals if _in_portuguese(r) == r)
    assert unknown == [], "the engine refuses in words games/texts.py does not know"


def test_the_check_and_the_hint_speak_portuguese(alice, bob, client):
    game = started_game([alice, bob], kind="bloqueio2")
    client.force_login(alice)
    answer = client.get(f"/games/{game.pk}/check", {"action": '{"type": "move", "to": [5, 5]}'},
                        HTTP_ACCEPT_LANGUAGE="pt-BR").json()
    assert answer == {"ok": False, "reason": "a casa [5,5] está fora de alcance"}
    english = client.get(f"/games/{game.pk}/check", {"action": '{"type": "move", "to": [5, 5]}'},
                         HTTP_ACCEPT_LANGUAGE="en").json()
    assert english == {"ok": False, "reason": "cell [5,5] is not reachable"}

    api = client_for(alice)
    hint = api.get(f"/api/games/{game.pk}/hint/", HTTP_ACCEPT_LANGUAGE="pt-BR").json()
    same = api.get(f"/api/games/{game.pk}/hint/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert hint["action"] == same["action"] and hint["notation"] == same["notation"]
    assert hint["reason"] != same["reason"] and "Vermelho" in hint["reason"]
    refused = client_for(bob).get(f"/api/games/{game.pk}/hint/", HTTP_ACCEPT_LANGUAGE="pt-BR")
    assert refused.json() == {"code": "not_your_turn", "detail": "A dica é para a sua vez."}


def test_the_replay_analysis_speaks_portuguese(alice, bob):
    game = started_game([alice, bob], kind="quoridor")
    api = client_for(alice)
    series = api.get(f"/api/games/{game.pk}/analysis/", HTTP_ACCEPT_LANGUAGE="pt-BR").json()
    assert series["measure"]["name"] == "passos até a chegada"
    best = api.get(f"/api/games/{game.pk}/analysis/0/best/", HTTP_ACCEPT_LANGUAGE="pt-BR")
    english = api.get(f"/api/games/{game.pk}/analysis/0/best/", HTTP_ACCEPT_LANGUAGE="en")
    assert best.json()["action"] == english.json()["action"]
    assert best.json()["reason"] == _in_portuguese(english.json()["reason"])
    assert best.json()["reason"] != english.json()["reason"]


MALFORMED = ["move", None, [1, 2], {"a": 1}, {"type": 3}, {"type": "teleport"},
             {"type": "move", "to": [2, 5], "extra": 1}, {"type": "move"},
             {"type": "move", "to": [True, 5]}, {"type": "move", "to": [2, "x"]},
             {"type": "move", "to": 5}, {"type": "move", "to": [99, 99]},
             {"type": "barrier", "at": [1, 1], "orientation": "D"},
             {"type": "place", "at": [1]}, {"type": "run", "to": [0, 0], "block": "x"},
             {"type": "place", "piece": 5, "cells": [[0, 0]]},
             {"type": "place", "piece": "Q9", "cells": [[0, 0]]},
             {"type": "place", "piece": "I2", "cells": "x"},
             {"type": "place", "piece": "I2", "cells": []},
             {"type": "place", "piece": "I2", "cells": [[0, 0], [0, 0]]},
             {"type": "place", "piece": "I1", "cells": [{"r": 0}]}]


@pytest.mark.parametrize("kind", engine.KINDS)
def test_every_malformed_action_is_refused_in_portuguese(kind):
    """The move check's (and the services') answer to an action that is not one."""
    rules = engine.get(kind)
    state = rules.initial()
    said = set()
    for action in MALFORMED:
        try:
            rules.is_legal(state, action, None)
        except engine.EngineError as exc:
            said.add(str(getattr(exc, "reason", exc)))
    assert len(said) >= 6, said
    unknown = sorted(r for r in said if _in_portuguese(r) == r)
    assert unknown == [], "a malformed action is refused in words games/texts.py does not know"
    with translation.override("en"):
        assert all(texts.sentence(r) == r for r in said)
