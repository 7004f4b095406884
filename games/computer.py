"""The computer at the table: the background worker plays every bot seat whose turn it is.

A bot moves exactly as a person does, through `services.submit_action` with the ply it
thought about. If anything moved the game meanwhile (another worker, a worker killed
mid-turn and restarted, a resignation, a flag), the stale ply refuses the move, so no
turn is ever played twice. Work per tick is bounded so the worker's other duties
(clocks, matchmaking) keep their pace: at most MAX_GAMES_PER_TICK games, and thinking
stops for the tick once TICK_BUDGET_S is spent; `hard` bots share that budget between
the games waiting for them, and the games left over go first on the next tick (round
robin), so many bot games progress side by side.

The worker is one process: bots think one at a time in it. More bot games than one
core can think for need more workers: `run_worker` is safe to run several times, and
each turn is thought about by the one worker that claimed it (`_claim`).
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import connection
from django.db.models import F, IntegerField, Max, Q
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.utils import timezone

from accounts.models import User
from games import bots, engine, round_store, services
from games.errors import GameError
from games.models import Game, Seat, Status
from games.round import Round

log = logging.getLogger(__name__)

MAX_GAMES_PER_TICK = 50
TICK_BUDGET_S = 0.8  # thinking time one tick may spend, all games together
HARD_BUDGET_S = bots.DEFAULT_BUDGET_S  # a `hard` move thinks at most this long ...
MIN_HARD_BUDGET_S = 0.05  # ... and at least this long, however busy the tick
CLOCK_SHARE = 20  # ... and never more than 1/20 of the time left on its clock
CLAIM_GRACE_S = 2  # a turn claimed by a worker that died is free again this much later

# The last game served: the next tick starts after it, so no game waits behind others.
_last_served = 0


@dataclass(frozen=True)
class Turn:
    """A bot seat to move: what the worker needs to think and to submit."""

    game_id: int
    ply: int
    seat: int
    user_id: int
    level: str


def due(limit: int = MAX_GAMES_PER_TICK) -> list[Turn]:
    """Active games whose seat to move is a bot's, round robin from the last one served."""
    turn = Cast(KeyTextTransform("turn", "game__state"), IntegerField())
    rows = (Seat.objects.filter(bot=True, game__status=Status.ACTIVE)
            .annotate(turn=turn).filter(seat=F("turn"))
            .values_list("game_id", "game__ply", "seat", "user_id", "user__bot_level"))
    turns = sorted((Turn(*row) for row in rows),
                   key=lambda t: (t.game_id <= _last_served, t.game_id))
    return turns[:limit]


def _clock_left_s(round_: Round, seat: int, now: datetime) -> float | None:
    """Seconds left on `seat`'s running clock, or None in an untimed game."""
    clock = round_.clock
    if clock is None:
        return None
    spent = (now - clock.turn_started_at).total_seconds()
    return clock.remaining_ms[seat] / 1000 - spent


def budget_for(turn: Turn, round_: Round, share_s: float, now: datetime) -> float:
    """How long this move may think: the level's budget, the tick's share, the clock's."""
    budget = min(HARD_BUDGET_S, max(MIN_HARD_BUDGET_S, share_s))
    left = _clock_left_s(round_, turn.seat, now)
    if left is not None:
        budget = min(budget, max(0.01, left / CLOCK_SHARE))
    return budget


def _claim(turn: Turn, budget_s: float) -> bool:
    """Several workers think about different turns: the first to claim (game, ply) in
    the shared cache thinks; the claim lapses soon after its budget, so a worker killed
    mid-thought delays that turn by seconds, never forever."""
    key = f"bot-turn:{connection.settings_dict['NAME']}:{turn.game_id}:{turn.ply}"
    return bool(cache.add(key, 1, timeout=math.ceil(budget_s) + CLAIM_GRACE_S))


def play(turn: Turn, *, share_s: float = HARD_BUDGET_S) -> bool:
    """Think about `turn` and submit the move at the ply thought about; True if played.

    `share_s` is this move's share of the tick (hard bots only; see `budget_for`). A
    game that moved on meanwhile (stale ply, not the bot's turn, over) is no error: the
    move is simply not written.
    """
    try:
        # This worker's snapshot when it wrote the game's last move (a bot answering a
        # bot), else the row; the move is written from the same snapshot.
        loaded = round_store.load(turn.game_id, ply=turn.ply)
    except GameError:
        return False
    assert loaded is not None
    round_ = loaded.round
    if (round_.ply != turn.ply or round_.status != Status.ACTIVE
            or round_.state.turn != turn.seat):
        return False
    rules = engine.get(round_.kind)
    state = round_.state
    budget_s = budget_for(turn, round_, share_s, timezone.now())
    if not _claim(turn, budget_s):
        return False  # another worker is thinking about this very turn
    action = bots.choose(rules, state, turn.level, seed=turn.game_id, budget_s=budget_s)
    try:
        services.submit_action(game_id=turn.game_id, user=User(pk=turn.user_id),
                               action=action.to_json(), ply=turn.ply, seat=turn.seat)
    except GameError as exc:
        log.info("bot move in game %s at ply %s not played: %s", turn.game_id, turn.ply,
                 exc.code)
        return False
    return True


def tick(*, budget_s: float = TICK_BUDGET_S) -> int:
    """The worker job: play the due bot turns within the tick's budget; returns moves made.

    Passes repeat while time is left, so a bot answering a bot (three bots after your
    move in a 4-seat game) needs no extra tick.
    """
    global _last_served
    deadline = time.monotonic() + budget_s
    played = 0
    while turns := due():
        hard_left = sum(t.level in bots.THINKING for t in turns)
        played_before = played
        for turn in turns:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return played
            if turn.level in bots.THINKING:
                share = remaining / hard_left
                hard_left -= 1
            else:
                share = remaining
            played += play(turn, share_s=share)
            _last_served = turn.game_id
        if played == played_before:  # nothing could be played: try again next tick
            break
    return played


# -- games the people left -----------------------------------------------------------------

ABANDONED_AFTER = timedelta(minutes=30)


def abort_abandoned(*, now: datetime | None = None) -> int:
    """Abort casual, untimed games with the computer that wait on a person who has not
    moved for ABANDONED_AFTER; returns how many.

    The computer answers within a second, so such a game stands still only when its
    people closed the tab: without a clock nothing would ever end it, and it would stay
    under the lobby's "Live now" for good (docs/bots.md, "When everyone leaves"). A game
    with a clock ends by itself (the clock flags), and ranked games have no bots.
    """
    now = now or timezone.now()
    since = now - ABANDONED_AFTER
    stale = (Game.objects.filter(status=Status.ACTIVE, ranked=False, time_control__isnull=True,
                                 seats__bot=True, started_at__lt=since)
             .annotate(last_at=Max("events__at"))
             .filter(Q(last_at__isnull=True) | Q(last_at__lt=since)))
    aborted = 0
    for game in stale[:MAX_GAMES_PER_TICK]:
        turn = game.state.get("turn")
        waiting_on = Seat.objects.filter(game=game, seat=turn).first()
        if waiting_on is None or waiting_on.bot:
            continue  # the computer's turn: bots_tick plays it
        try:
            services.abort_game(game_id=game.pk)
        except GameError:
            continue  # it moved or ended meanwhile
        aborted += 1
        log.info("game %s aborted: its people left it to the computer", game.pk)
    return aborted
