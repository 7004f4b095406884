"""The per-process game snapshots (games/state_cache.py) on the one write path: a
snapshot is used only while the database agrees with it, a move made from one writes
exactly what a move read from the row writes, in one round trip."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db.models import F
from django.utils import timezone

from games import engine, round_store, services, state_cache
from games.errors import GameOver, NotYourTurn, StalePly
from games.models import Event, Game, first_version
from games.projection import check
from tests.games.helpers import race, started_game

pytestmark = pytest.mark.django_db(transaction=True)

OPENING = [{"type": "move", "to": [2, 5]}, {"type": "move", "to": [5, 8]},
           {"type": "move", "to": [8, 5]}, {"type": "move", "to": [5, 2]}]


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    state_cache.clear()
    yield
    state_cache.clear()


def _move(game: Game, users: list[Any], action: dict[str, Any], ply: int | None = None
          ) -> services.Submitted:
    game.refresh_from_db()
    return services.submit_action(game_id=game.pk, user=users[game.state["turn"]],
                                  action=action, ply=game.ply if ply is None else ply)


def _one_statement_moves(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Game ids of the writes committed from a snapshot (no read of the row at all)."""
    written: list[int] = []
    real = round_store.commit

    def spy(loaded: round_store.Loaded, *args: Any, **kwargs: Any
            ) -> round_store.Written | None:
        done = real(loaded, *args, **kwargs)
        if done is not None and loaded.cached:
            written.append(loaded.game.pk)
        return done

    monkeypatch.setattr(round_store, "commit", spy)
    return written


def test_a_committed_move_leaves_the_state_it_reached(players):
    game = started_game(players)
    _move(game, players, OPENING[0])
    game.refresh_from_db()
    kept = state_cache.get(game.pk, 1)
    assert kept is not None
    assert kept.state.to_json() == game.state
    assert state_cache.get(game.pk, 0) is None


def test_moves_from_the_snapshot_write_what_moves_from_the_row_write(players, monkeypatch,
                                                                    published):
    one_statement = _one_statement_moves(monkeypatch)
    cached = started_game(players)
    for action in OPENING:
        _move(cached, players, action)
    # every move, the first too: the game's start left the snapshot at ply 0
    assert one_statement == [cached.pk] * len(OPENING)

    uncached = started_game(players)
    for action in OPENING:
        state_cache.clear()
        _move(uncached, players, action)
    assert len(one_statement) == len(OPENING)

    cached.refresh_from_db()
    uncached.refresh_from_db()
    for name in ("ply", "state", "status", "result", "clock"):
        assert getattr(cached, name) == getattr(uncached, name)
    assert check(cached) is None  # the projection is what the events derive
    assert (list(Event.objects.filter(game=cached).values_list("ply", "seat", "action"))
            == list(Event.objects.filter(game=uncached).values_list("ply", "seat", "action")))
    # Each move was published after its commit, with the game it reached.
    mine = [m for m in published if m.game_id == cached.pk]
    assert [m.game["ply"] for m in mine][-4:] == [1, 2, 3, 4]
    assert mine[-1].game["state"] == cached.state
    assert [e["ply"] for m in mine for e in m.events] == [1, 2, 3, 4]


def test_a_stale_snapshot_is_never_used_after_another_process_wrote(players, monkeypatch):
    one_statement = _one_statement_moves(monkeypatch)
    game = started_game(players)
    _move(game, players, OPENING[0])
    behind = state_cache.get(game.pk, 1)
    assert behind is not None
    _move(game, players, OPENING[1])
    # Another process's view: its snapshot is still at ply 1, the game is at ply 2.
    state_cache.clear()
    state_cache.put(behind)
    one_statement.clear()

    with pytest.raises(StalePly):  # the old ply is refused, nothing written
        services.submit_action(game_id=game.pk, user=players[1], action=OPENING[1], ply=1)
    assert Event.objects.filter(game=game).count() == 2

    _move(game, players, OPENING[2])  # the current ply plays on from the database
    game.refresh_from_db()
    assert game.ply == 3
    assert check(game) is None
    assert one_statement == []  # both were decided from the row


def test_a_snapshot_whose_clock_moved_since_is_not_written_over(players, monkeypatch):
    one_statement = _one_statement_moves(monkeypatch)
    game = started_game(players, ranked=True)
    _move(game, players, OPENING[0])
    one_statement.clear()
    game.refresh_from_db()
    # The clock worker moved the turn without a ply (giving back its downtime): a change
    # to the row, one version on, as every writer of it does.
    later = game.turn_started_at + timedelta(seconds=5)
    Game.objects.filter(pk=game.pk).update(turn_started_at=later,
                                           deadline=game.deadline + timedelta(seconds=5),
                                           version=F("version") + 1)
    _move(game, players, OPENING[1])
    assert one_statement == []  # the row no longer matched the snapshot
    game.refresh_from_db()
    assert game.ply == 2
    assert check(game) is None


def test_a_reused_game_id_never_takes_the_old_games_snapshot(players):
    game = started_game(players)
    _move(game, players, OPENING[0])
    kept = state_cache.get(game.pk, 1)
    assert kept is not None
    # Same id and ply, another game (a restored database): a different position, and
    # the version a game created now starts at (games/models.py).
    other = {**engine.get("bloqueio").initial().to_json(), "ply": 1}
    Game.objects.filter(pk=game.pk).update(state=other,
                                           created_at=kept.game.created_at.replace(year=2001),
                                           version=first_version() + 1)
    with pytest.raises(NotYourTurn):  # seat 0 to move in the stored state, not seat 1
        services.submit_action(game_id=game.pk, user=players[1], action=OPENING[1], ply=1)


def test_refusals_from_a_snapshot_come_from_the_locked_row(players):
    game = started_game(players)
    _move(game, players, OPENING[0])
    with pytest.raises(NotYourTurn):
        services.submit_action(game_id=game.pk, user=players[0], action=OPENING[1], ply=1)
    with pytest.raises(StalePly):
        services.submit_action(game_id=game.pk, user=players[1], action=OPENING[1], ply=0)
    assert Event.objects.filter(game=game).count() == 1


def test_two_writers_of_one_ply_from_the_same_snapshot_write_once(players):
    game = started_game(players)
    _move(game, players, OPENING[0])
    assert state_cache.get(game.pk, 1) is not None
    def write() -> str:
        services.submit_action(game_id=game.pk, user=players[1], action=OPENING[1], ply=1)
        return "ok"

    outcomes = ["stale" if isinstance(r, StalePly) else r for r in race([write, write])]
    assert sorted(outcomes) == ["ok", "stale"]
    assert list(Event.objects.filter(game=game).values_list("ply", flat=True)) == [1, 2]


def test_the_cache_is_bounded(players, monkeypatch):
    monkeypatch.setattr(state_cache, "MAX_GAMES", 1)
    first, second = started_game(players), started_game(players)
    _move(first, players, OPENING[0])
    _move(second, players, OPENING[0])
    assert state_cache.get(first.pk) is None
    assert state_cache.get(second.pk, 1) is not None


def test_an_aborted_game_refuses_a_move_its_snapshot_would_allow(players):
    game = started_game(players)
    _move(game, players, OPENING[0])
    services.abort_game(game_id=game.pk)  # no ply: the snapshot still says active
    with pytest.raises(GameOver):
        services.submit_action(game_id=game.pk, user=players[1], action=OPENING[1], ply=1)
    assert Event.objects.filter(game=game).count() == 1


def test_a_repaired_position_at_the_same_ply_is_never_played_over(players, monkeypatch):
    """Same id, ply and creation time, another stored position (a projection repaired
    while the site runs, or a restore that played on elsewhere): the move is checked
    against the stored row, never against the snapshot."""
    one_statement = _one_statement_moves(monkeypatch)
    game = started_game(players)
    _move(game, players, OPENING[0])
    assert state_cache.get(game.pk, 1) is not None
    # The row at ply 1 now holds another position, with seat 0 to move (written as
    # `rebuild_games` writes a repair: one version on).
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(state={**game.state, "turn": 0},
                                           version=F("version") + 1)
    one_statement.clear()
    with pytest.raises(NotYourTurn):  # seat 1 moves in the snapshot, seat 0 in the row
        services.submit_action(game_id=game.pk, user=players[1], action=OPENING[1], ply=1)
    assert one_statement == []
    assert Event.objects.filter(game=game).count() == 1


def test_a_timed_game_from_snapshots_keeps_the_clocks_the_locked_path_keeps(
        players, monkeypatch):
    one_statement = _one_statement_moves(monkeypatch)
    control = {"initial": 300, "increment": 5}
    cached = started_game(players, time_control=control)
    uncached = started_game(players, time_control=control)
    start = timezone.now()
    second = [{"type": "move", "to": [3, 5]}, {"type": "move", "to": [5, 7]},
              {"type": "move", "to": [7, 5]}, {"type": "move", "to": [5, 3]}]
    for n, action in enumerate(OPENING + second):
        when = start + timedelta(seconds=3 * n + 1)
        for game, clear in ((cached, False), (uncached, True)):
            if clear:
                state_cache.drop(game.pk)
            game.refresh_from_db()
            services.submit_action(game_id=game.pk, user=players[game.state["turn"]],
                                   action=action, ply=game.ply, now=when)
    assert one_statement.count(cached.pk) == 8
    assert uncached.pk not in one_statement
    cached.refresh_from_db()
    uncached.refresh_from_db()
    assert cached.clock == uncached.clock
    assert cached.clock["moved"] == [True] * 4
    assert cached.clock["remaining_ms"] != [300_000] * 4  # the second round was charged
    assert (cached.deadline - cached.turn_started_at) == (
        uncached.deadline - uncached.turn_started_at)
    assert check(cached) is None


def test_a_game_never_takes_seats_kept_for_an_old_game_under_its_id(players):
    """An id reused after a restore: seats kept for an old game under that id must not
    decide who moves in the new one when its row is read (another ply)."""
    others = list(reversed(players))
    other = started_game(others)  # players[0] holds seat 3 there
    _move(other, others, OPENING[0])
    old = state_cache.get(other.pk, 1)
    assert old is not None
    game = services.create_game(user=players[0], kind="bloqueio",
                                bots=["easy", "easy", "easy"])
    assert game.status == "active"
    state_cache.clear()
    renamed = copy.copy(old.game)
    renamed.pk = renamed.id = game.pk  # the old game's snapshot, under the new id
    state_cache.put(state_cache.Snapshot(renamed, old.seats, old.round, old.state_text))
    done = services.submit_action(game_id=game.pk, user=players[0], action=OPENING[0],
                                  ply=0)
    assert done.event.seat == 0


def test_a_move_from_the_snapshot_is_one_round_trip(players, django_assert_num_queries):
    game = started_game(players)
    _move(game, players, OPENING[0])
    assert state_cache.get(game.pk, 1) is not None
    with django_assert_num_queries(1):
        services.submit_action(game_id=game.pk, user=players[1], action=OPENING[1], ply=1)
    game.refresh_from_db()
    assert game.ply == 2
    assert check(game) is None


def test_a_row_read_outside_a_transaction_is_kept_for_the_next_write(players):
    game = started_game(players)
    state_cache.clear()
    _move(game, players, OPENING[0])  # read from the row, then written
    assert state_cache.get(game.pk, 1) is not None
    state_cache.clear()
    loaded = round_store.load(game.pk)
    assert loaded is not None and not loaded.cached
    assert state_cache.get(game.pk, 1) is not None


def test_a_finished_game_is_forgotten(players):
    game = started_game(players)
    _move(game, players, OPENING[0])
    for loser in (1, 2, 3):
        services.resign(game_id=game.pk, user=players[loser])
    game.refresh_from_db()
    assert game.status == "finished"
    assert state_cache.get(game.pk) is None
