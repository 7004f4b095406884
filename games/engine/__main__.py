"""Command line: ``python -m games.engine show KIND ["<game notation>"]`` and
``python -m games.engine kinds``.

Prints the position after the given events (board, whose turn, result); exit status 2
on a bad kind, bad notation or an illegal event, with the reason on stderr.
"""

from __future__ import annotations

import argparse
import sys

from .errors import EngineError
from .registry import get, kinds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    show = sub.add_parser("show", help="print the position after a game in notation")
    show.add_argument("kind", help=f"one of: {', '.join(kinds())}")
    show.add_argument(
        "game", nargs="*", help='events, e.g. "f2 f8 d3h resign:1" (bloqueio), "c2 c1" (blockade)'
    )
    sub.add_parser("kinds", help="list the game kinds")
    args = parser.parse_args(argv)
    if args.command == "kinds":
        print("\n".join(kinds()))
        return 0
    try:
        rules = get(args.kind)
        events = rules.parse_game(" ".join(args.game))
        state = rules.initial()
        for n, event in enumerate(events, 1):
            try:
                state = rules.apply_event(state, event)
            except EngineError as exc:
                raise EngineError(f"event {n} ({rules.format_action(event)}): {exc}") from None
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(rules.render(state))
    return 0


if __name__ == "__main__":
    sys.exit(main())
