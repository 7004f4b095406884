"""Differential check of bench/bgio/rules.js against games/engine: the recorded games
and random Bloqueio games played by the engine; at every position the engine's set of
legal actions compared with the set rules.js accepts (every pawn target on the board and
every barrier slot asked of `refusal`), and the position after each action (turn, pawns,
barriers, the end) with what rules.js's `apply` computes. Exit status 1 on any
difference. Needs only Node.js (not bench/bgio's node_modules).

    .venv/bin/python bench/bgio/crosscheck.py [GAMES] [SEED]
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "bench" / "games" / "bloqueio.jsonl"
sys.path.insert(0, str(ROOT))

from games.engine.barrier import RULES  # noqa: E402

NODE = r"""
const rules = require('./rules');
const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
let bad = 0;
for (const line of lines) {
  const { state, legal, over, action, next } = JSON.parse(line);
  const s = { turn: state.turn, pawns: state.pawns, barriers: state.barriers,
    barriersLeft: state.barriers_left, inGame: state.in_game, ply: state.ply,
    winner: null, over };
  const mine = [];
  if (!over) {
    for (let r = 0; r < 11; r++) for (let c = 0; c < 11; c++) {
      if (rules.refusal(s, s.turn, { type: 'move', to: [r, c] }) === null) mine.push(`m${r},${c}`);
    }
    for (let r = 0; r < 11; r++) for (let c = 0; c < 11; c++) for (const o of ['H', 'V']) {
      if (rules.refusal(s, s.turn, { type: 'barrier', at: [r, c], orientation: o }) === null) {
        mine.push(`b${r},${c}${o}`);
      }
    }
    if (rules.refusal(s, s.turn, { type: 'pass' }) === null) mine.push('pass');
  }
  const a = mine.sort().join(' ');
  const b = legal.slice().sort().join(' ');
  if (action) { // the engine's next position, from rules.js's apply
    const n = rules.apply(s, action);
    const got = JSON.stringify([n.turn, n.pawns, n.barriers, n.barriersLeft, n.ply]);
    const want = JSON.stringify([next.turn, next.pawns, next.barriers, next.barriers_left,
      next.ply]);
    if (got !== want) {
      bad += 1;
      const what = `ply ${state.ply} ${JSON.stringify(action)}`;
      if (bad <= 5) console.error(`${what}: ${got}\n  engine ${want}`);
    }
  }
  if (a !== b) {
    bad += 1;
    if (bad <= 5) console.error(`ply ${state.ply}: rules.js ${a}\n  engine ${b}`);
  }
}
console.log(`${lines.length} positions, ${bad} difference(s)`);
process.exit(bad ? 1 : 0);
"""


def key(action: object) -> str:
    obj = action.to_json()  # type: ignore[attr-defined]
    if obj["type"] == "move":
        return f"m{obj['to'][0]},{obj['to'][1]}"
    if obj["type"] == "barrier":
        return f"b{obj['at'][0]},{obj['at'][1]}{obj['orientation']}"
    return "pass"


def positions(games: int, seed: int) -> list[str]:
    """One JSON line a position: every position of the recorded games of
    bench/games/bloqueio.jsonl, then of `games` random engine games (some walling a lot,
    some racing), each with the engine's legal set and, but for the last, the action
    played and the position after it."""
    rules = RULES["bloqueio"]
    rng = random.Random(seed)
    recorded = [json.loads(line)["actions"] for line in RECORDED.read_text().splitlines()
                if line.strip()]
    lines = []
    for n in range(len(recorded) + games):
        state = rules.initial()
        script = recorded[n] if n < len(recorded) else None
        wall_bias = rng.random()
        while True:
            over = state.turn is None
            legal = [] if over else rules.legal_actions(state)
            line = {"state": state.to_json(), "legal": [key(a) for a in legal], "over": over}
            if over:
                lines.append(json.dumps(line))
                break
            if script is not None:
                action = rules.parse_action(script[state.ply])
            else:
                walls = [a for a in legal if key(a).startswith("b")]
                action = rng.choice(walls if walls and rng.random() < wall_bias * 0.5
                                    else legal)
            state = rules.apply(state, action)
            lines.append(json.dumps({**line, "action": action.to_json(),
                                     "next": state.to_json()}))
    return lines


def check(games: int = 30, seed: int = 46) -> subprocess.CompletedProcess[str]:
    """rules.js over `positions(games, seed)`: exit status 0 when it agrees throughout;
    its last line of output says how many positions and differences."""
    return subprocess.run(["node", "-e", NODE], input="\n".join(positions(games, seed)),
                          text=True, capture_output=True, cwd=Path(__file__).parent,
                          check=False)


def main() -> None:
    done = check(int(sys.argv[1]) if len(sys.argv) > 1 else 30,
                 int(sys.argv[2]) if len(sys.argv) > 2 else 46)
    sys.stderr.write(done.stderr)
    sys.stdout.write(done.stdout)
    sys.exit(done.returncode)


if __name__ == "__main__":
    main()
