"""The computer through the real background worker (`manage.py run_worker` processes on
the test database and Redis): a bot game played to the end and watched over a real
WebSocket, and a worker killed mid-thought (its bot held there by the test,
tests/live/held_worker.py) that, restarted, plays the turn once."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest
from channels.db import database_sync_to_async

from accounts.models import User
from games import engine, selectors, services
from games.models import Event, Game
from games.ranked import clocks
from tests.conftest import clear_cache, make_user
from tests.live.servers import live_servers, worker
from tests.live.ws_client import Client
from tests.waiting import wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def legal_history(game: Game) -> list[tuple[int, int]]:
    """(ply, seat) of every event, each checked legal when played, in order."""
    rules = engine.get(game.kind)
    state = rules.initial()
    seen = []
    for event in Event.objects.filter(game=game).order_by("ply"):
        if event.action["type"] not in ("resign", "timeout"):
            assert event.seat == state.turn, (event.ply, event.seat, state.turn)
        state = rules.apply_event(state, selectors.engine_event(event.action, event.seat))
        seen.append((event.ply, event.seat))
    assert [ply for ply, _ in seen] == list(range(1, len(seen) + 1))  # no gap, no duplicate
    return seen


async def test_a_bot_game_runs_to_the_end_through_the_worker(tmp_path: Path) -> None:
    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(services.create_game)(
        user=alice, kind="bloqueio", bots=["easy", "medium", "easy"])
    with live_servers(1, tmp_path) as [server]:
        watcher = Client("spectator", server.ws, game.pk)
        await watcher.connect()
        with worker(tmp_path):
            # alice's first move, then she leaves the table: the computer plays on.
            rules = engine.get("bloqueio")
            first = rules.legal_actions(rules.initial())[0].to_json()
            await database_sync_to_async(services.submit_action)(
                game_id=game.pk, user=alice, action=first, ply=0)
            await database_sync_to_async(services.resign)(game_id=game.pk, user=alice)
            await asyncio.wait_for(watcher.run(limit=120), timeout=130)
        await watcher.close()
    await database_sync_to_async(game.refresh_from_db)()
    assert game.status == "finished" and game.result["ranking"][0] == 4  # alice left first
    history = await database_sync_to_async(legal_history)(game)
    assert history[0] == (1, 0) and history[1] == (2, 0)  # her move, her resignation
    assert {seat for _, seat in history[2:]} == {1, 2, 3}
    # The spectator saw every move of the worker, in order, over Redis and Daphne.
    assert [e["ply"] for e in watcher.events] == [ply for ply, _ in history]
    assert watcher.game["status"] == "finished"


def test_a_worker_killed_mid_thought_never_plays_the_turn_twice(tmp_path: Path) -> None:
    clear_cache()
    alice = make_user("alice")
    game = services.create_game(user=alice, kind="quoridor", bots=["hard"])
    hard = User.objects.get(bot_level="hard")
    rules = engine.get("quoridor")
    hold = tmp_path / "hold"
    hold.mkdir()
    with worker(tmp_path, "doomed", hold=hold) as doomed:
        wait_for(clocks.last_beat, "the doomed worker's first tick")
        assert Event.objects.filter(game=game).count() == 0  # nothing was due
        services.submit_action(game_id=game.pk, user=alice, ply=0,
                               action=rules.legal_actions(rules.initial())[0].to_json())
        # The bot claimed the turn and is thinking (held there until the kill).
        wait_for(lambda: list(hold.iterdir()), "the bot to start thinking")
        assert [p.name for p in hold.iterdir()] == [f"thinking-{game.pk}-1"]
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(10)
    assert Event.objects.filter(game=game).count() == 1  # killed before it could move
    with worker(tmp_path, "restarted"), worker(tmp_path, "second"):
        # Two workers now: the one turn is claimed by one of them (once the dead
        # worker's claim lapsed) and played once.
        wait_for(lambda: Event.objects.filter(game=game).count() >= 2, "the bot's move")
        # alice answers at ply 2, accepted only if nothing else was written meanwhile;
        # after it a late move for ply 1 is stale, whoever would send it.
        game.refresh_from_db()
        state = rules.state_from_json(game.state)
        services.submit_action(game_id=game.pk, user=alice, ply=2,
                               action=rules.legal_actions(state)[0].to_json())
        wait_for(lambda: Event.objects.filter(game=game).count() >= 4, "the bot's answer")
    events = list(Event.objects.filter(game=game).order_by("ply").values_list("seat", "ply"))
    assert events == [(0, 1), (1, 2), (0, 3), (1, 4)], events  # the bot moved once a turn
    game.refresh_from_db()
    assert game.ply == 4 and game.state["turn"] == 0
    assert legal_history(game) == [(1, 0), (2, 1), (3, 0), (4, 1)]
    assert hard.pk == game.seats.get(seat=1).user_id
