"""The pages' pure modules (static/js) run in Node, checked against the engine: the
notation each board module writes and reads is the engine's for every kind, Blokus's
piece orientations are the board spec's, and a Retry-After is read as the server writes
it. A change there fails here in a second, before any browser scenario runs (tests/e2e
drive the same modules through whole pages)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from games import engine
from games.boards import board_spec
from tests.engine.helpers import random_game
from tests.live.servers import ROOT

NODE = shutil.which("node")


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of static/js that Node reads as ES modules (as the browser does)."""
    assert NODE, "the front-end module tests need Node.js (apt-get install nodejs)"
    where = tmp_path_factory.mktemp("page-modules") / "js"
    shutil.copytree(ROOT / "static" / "js", where)
    (where / "package.json").write_text('{"type": "module"}')
    return where


def node(scripts: Path, body: str, data: Any) -> Any:
    """Run `body` (an ES module; `data` is the JSON it was given, `answer(x)` prints its
    result) in Node beside the page modules, and return what it answered."""
    (scripts / "check.js").write_text(
        'import { readFileSync } from "node:fs";\n'
        'const data = JSON.parse(readFileSync(0, "utf8"));\n'
        "const answer = (found) => process.stdout.write(JSON.stringify(found));\n" + body)
    done = subprocess.run([str(NODE), "check.js"], cwd=scripts, input=json.dumps(data),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def actions_of(kind: str, games: int = 4, plies: int = 30) -> list[dict[str, Any]]:
    """Every legal action of every position of a few seeded random games, and a pass."""
    rules = engine.get(kind)
    found = {json.dumps(engine.PASS.to_json(), sort_keys=True)}
    for seed in range(games):
        _, states = random_game(rules, seed, plies=plies)
        for state in states:
            found.update(json.dumps(a.to_json(), sort_keys=True)
                         for a in rules.legal_actions(state))
    return [json.loads(a) for a in sorted(found)]


MODULE = {"bloqueio": "barrier.js", "quoridor4": "barrier.js", "blockade": "blockade.js",
          "blockade_run": "blockade.js", "blokus_duo": "blokus-pieces.js"}


@pytest.mark.parametrize("kind", sorted(MODULE))
def test_a_board_module_writes_and_reads_the_engines_notation(scripts, kind):
    rules = engine.get(kind)
    actions = actions_of(kind)
    assert len(actions) > 20
    found = node(scripts, f"""
        const m = await import("./boards/{MODULE[kind]}");
        if (m.useKind) m.useKind(data.kind);
        answer(data.actions.map((a) => {{
            const text = m.formatAction(a, 0);
            return [text, m.parseNotation(text)];
        }}));""", {"kind": kind, "actions": actions})
    texts = [text for text, _ in found]
    assert texts == [rules.format_action(rules.parse_action(a)) for a in actions]
    for action, (text, read) in zip(actions, found, strict=True):
        if action["type"] != "pass":  # the box reads actions, and a pass is no choice
            assert read == action, text
            assert rules.parse_action(rules.parse_notation(text).to_json()) == \
                rules.parse_action(action)


def test_a_board_module_refuses_what_is_no_action(scripts):
    junk = ["", "z", "a", "11", "a-1", "a01", "a100", "e3x", "e3hh", "c1^", "^d3", "c1^d3^e4"]
    found = node(scripts, """
        const barrier = await import("./boards/barrier.js");
        const blockade = await import("./boards/blockade-notation.js");
        answer(data.map((t) => [barrier.parseNotation(t),
                                blockade.parseNotation(t, { kind: "blockade" }),
                                blockade.parseNotation(t, { kind: "blockade_run" })]));""",
                 junk)
    assert found == [[None, None, None]] * len(junk)
    read = node(scripts, """
        const blockade = await import("./boards/blockade-notation.js");
        answer([blockade.parseNotation("c1^d3", { kind: "blockade" }),
                blockade.parseNotation("c1^d3", { kind: "blockade_run" })]);""", None)
    assert read == [None, {"type": "run", "to": [1, 2], "block": [3, 3]}]


def test_blokus_pieces_are_the_board_specs(scripts):
    found = node(scripts, """
        const m = await import("./boards/blokus-pieces.js");
        answer({ names: m.NAMES, orients: m.NAMES.map((n) => m.ORIENTATIONS[n]),
                 sizes: m.NAMES.map((n) => m.SIZES[n]) });""", None)
    pieces = board_spec("blokus")["pieces"]
    assert found["names"] == [p["name"] for p in pieces]
    assert found["orients"] == [p["orientations"] for p in pieces]
    assert sum(found["sizes"]) == 89 and len(found["names"]) == 21  # docs/rules.md#blokus


def test_a_retry_after_is_read_as_the_server_writes_it(scripts):
    headers = ["7", " 12 ", "0", "", None, "soon",
               "Wed, 21 Oct 2015 07:28:00 GMT", "Wed, 21 Oct 2099 07:28:00 GMT"]
    found = node(scripts, """
        globalThis.document = { addEventListener() {} };  // the module's form handler
        const m = await import("./busy_retry.js");
        answer(data.map((h) => m.retryAfterSeconds(h)));""", headers)
    assert found[:6] == [7, 12, 0, None, None, None]
    assert found[6] == 0  # a date gone by: at once
    assert found[7] > 365 * 24 * 3600  # a date to come: the seconds until it


def test_words_fall_back_to_english_and_keep_unknown_placeholders(scripts):
    found = node(scripts, """
        const m = await import("./i18n.js");
        const before = [m.gettext("Resign"), m.ngettext("a ply", "plies", 1),
                        m.ngettext("a ply", "plies", 2),
                        m.interpolate("%(seat)s moved to %(cell)s", { seat: "Red" })];
        globalThis.django = { gettext: (s) => `<${s}>`, ngettext: (s, p, n) => `<${n}>` };
        answer([...before, m.gettext("Resign"), m.ngettext("a ply", "plies", 3)]);""", None)
    assert found == ["Resign", "a ply", "plies", "Red moved to %(cell)s", "<Resign>", "<3>"]
