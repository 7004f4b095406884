"""Replay analysis: every seat's measure after each ply, and the `hard` bot's choice at a ply
(the `perfect` bot's, with the position's exact value, where the kind is solved).

Read-only and derived from the event log (the truth), through the engine's protocol only
(`Rules.measure`, `info.measure_name`), so every family gets it unchanged. Both answers
are cached: a ply's position never changes once written (events are append-only), and
the keys carry the game's creation time, so a restored database that reuses game ids
never serves another game's numbers. A ranked game is refused while it runs: the
analysis would be computer assistance for its players.
"""

from __future__ import annotations

import time
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from bloqueio_site import soft_cache
from games import bots, engine, selectors
from games.errors import GameError, GameNotFound
from games.models import Game, Status

LEVEL = "hard"
BUDGET_S = 0.5  # the bot's thinking time at most (a node budget, see docs/bots.md)
OVER = (Status.FINISHED, Status.ABORTED)
SERIES_TTL_OVER = 7 * 24 * 3600  # a finished game's series never changes
SERIES_TTL_LIVE = 600  # a live game's key names its ply, so it is soon unused
BEST_TTL = 24 * 3600


class NoAnalysisInRanked(GameError):
    code = "no_analysis_in_ranked"
    status = 403


class PlyOutOfRange(GameError):
    code = "ply_out_of_range"
    status = 400


class NoSeatToMove(GameError):
    code = "no_seat_to_move"
    status = 400


def analysable_game(game_id: int) -> Game:
    """The game, if its analysis may be shown now; refusals have codes."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(_("No game %(id)s.") % {"id": game_id})
    if game.ranked and game.status not in OVER:
        raise NoAnalysisInRanked(_(
            "Analysis of a ranked game opens when it is over; until then it would be "
            "computer assistance."))
    return game


def series(*, game_id: int) -> dict[str, Any]:
    """`{game, ply, measure: {name, higher_is_better}, series}`: `series[p][s]` is seat
    s's measure after p plies (None where the engine has none), for p in 0..ply."""
    game = analysable_game(game_id)
    key = _key(game, "series", game.ply)
    found = soft_cache.get(key)
    if found is None:
        found = compute_series(game)
        soft_cache.set(key, found, SERIES_TTL_OVER if game.status in OVER else SERIES_TTL_LIVE)
    return found


def compute_series(game: Game) -> dict[str, Any]:
    """Replay the event log through the engine, measuring every seat after each ply."""
    rules = engine.get(game.kind)
    state = rules.initial()
    rows = [_measures(rules, state)]
    for event in selectors.engine_events(game.pk, upto=game.ply):
        state = rules.apply_event(state, event)
        rows.append(_measures(rules, state))
    return {
        "game": game.pk,
        "ply": len(rows) - 1,
        "measure": {"name": rules.info.measure_name,
                    "higher_is_better": rules.info.measure_higher_is_better},
        "series": rows,
    }


def _measures(rules: engine.Rules, state: Any) -> list[int | None]:
    return [rules.measure(state, seat) for seat in range(rules.seats)]


def cached_best_move(*, game_id: int, ply: int) -> tuple[Game, str, dict[str, Any] | None]:
    """The game (checked), the cache key of its best move at `ply`, and the cached answer
    if there is one: the view throttles only the searches, never a cached answer."""
    game = analysable_game(game_id)
    if ply > game.ply:
        raise PlyOutOfRange(ngettext(
            "The game has %(last)s ply; ply must be 0 to %(last)s.",
            "The game has %(last)s plies; ply must be 0 to %(last)s.",
            game.ply) % {"last": game.ply})
    key = _key(game, "best", ply)
    return game, key, soft_cache.get(key)


def best_move(game: Game, ply: int, key: str) -> dict[str, Any]:
    """The `hard` bot's choice for the seat to move after `ply` plies, with its reason.

    Deterministic (the seed is the game id; the budget is nodes) and bounded by
    `BUDGET_S`; the answer is cached under `key` (from `cached_best_move`).
    """
    rules = engine.get(game.kind)
    state = rules.replay(selectors.engine_events(game.pk, upto=ply))
    if state.turn is None:
        raise NoSeatToMove(_("Nobody is to move after ply %(ply)s: the game is over there.")
                           % {"ply": ply})
    started = time.perf_counter()
    level = bots.strongest(rules, LEVEL)
    try:
        choice = bots.think(rules, state, level, seed=game.pk, budget_s=BUDGET_S)
    except ValueError as exc:  # no legal action: the position is over in all but name
        raise NoSeatToMove(_("There is no move to suggest after ply %(ply)s: %(why)s.")
                           % {"ply": ply, "why": exc}) from None
    ms = round((time.perf_counter() - started) * 1000)
    try:
        reason = bots.explain(rules, state, choice.action)
    except ValueError:  # an explanation must never cost the answer
        reason = ""
    found = {
        "game": game.pk, "ply": ply, "seat": state.turn, "level": level,
        "action": choice.action.to_json(), "notation": rules.format_action(choice.action),
        "reason": reason, "nodes": choice.nodes, "depth": choice.depth, "ms": ms,
        **exact_value(rules, state, choice),
    }
    soft_cache.set(key, found, BEST_TTL)
    return found


def exact_value(rules: engine.Rules, state: Any, choice: bots.Choice) -> dict[str, Any]:
    """`{value: "win"|"loss", exact: true, plies}` for the seat to move where the kind is
    solved and the proof fits in the budget (the bot's own, or a forced move's); else {}."""
    verdict = choice.verdict
    if verdict is None and bots.SOLVED_ONLY in bots.levels(rules):
        verdict = bots.solve(rules, state, budget_s=BUDGET_S)
    return {} if verdict is None else verdict.to_json()


def _key(game: Game, what: str, ply: int) -> str:
    born = int(game.created_at.timestamp() * 1_000_000)
    return f"analysis:v1:{what}:{game.pk}:{born}:{ply}"
