"""The bridge from committed changes to the sockets.

`on_committed` is registered as a `games.live.broadcast` listener. It runs right after the
commit of every game write (in the writer's thread) and fans the change out through
`games.live.fanout` (one Redis PUBLISH, encoded once per process): to the game's sockets,
to the lobby's, and as personal notifications to the players' (`/ws/me/`). Account
notices (a ban) take the same path to every socket of the account. It only notifies;
clients recover anything lost from the database with `sync`.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from asgiref.sync import SyncToAsync

from games.live import fanout, writers
from games.live.broadcast import Committed

log = logging.getLogger(__name__)

LOBBY_TOPIC = "lobby"


def lobby_summary(game: dict[str, Any]) -> dict[str, Any]:
    """What the lobby shows of a game (no board state)."""
    return {key: game[key] for key in (
        "id", "kind", "ranked", "status", "seats", "ply", "time_control", "result",
        "created_at", "started_at", "finished_at",
    )}


def _fanout_messages(change: Committed) -> list[tuple[str, dict[str, Any]]]:
    """(topic, message) pairs: the game's sockets, the lobby's (unless it is only a
    move), then players' personal notifications (`/ws/me/`)."""
    game = change.game
    if change.events:
        out = [(fanout.game_topic(change.game_id),
                {"type": "game.events", "v": change.v, "events": change.events,
                 "game": game})]
    else:
        out = [(fanout.game_topic(change.game_id),
                {"type": "game.changed", "v": change.v, "change": change.change,
                 "game": game})]
    # The lobby lists games (a private one nowhere): a move or time given back changes
    # nothing it shows.
    if change.change not in ("events", "clock", "annulled") and not game.get("private"):
        out.append((LOBBY_TOPIC, {"type": "lobby", "change": change.change,
                                  "game": lobby_summary(game)}))
    notes: dict[int, str] = {}
    if change.change == "started":
        notes = {uid: "game_started" for uid in change.seat_users if uid is not None}
    elif change.change == "matched":  # ranked matchmaking formed this game: go to the board
        notes = {uid: "matched" for uid in change.seat_users if uid is not None}
    elif change.change == "finished":
        notes = {uid: "game_over" for uid in change.seat_users if uid is not None}
    elif change.events and game["status"] == "active":
        turn = game["state"].get("turn")
        if turn is not None and turn < len(change.seat_users):
            uid = change.seat_users[turn]
            if uid is not None:
                notes = {uid: "your_turn"}
    for uid, what in notes.items():
        out.append((fanout.user_topic(uid), {"type": "notify", "event": what,
                                             "game_id": change.game_id,
                                             "game": lobby_summary(game)}))
    return out


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The server's event loop when called from one of its worker threads, else None."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


async def _publish(topics: list[tuple[str, dict[str, Any]]]) -> None:
    try:
        await fanout.hub().publish(*topics)
    except Exception as exc:
        # The write is committed; the other processes' sockets catch up when this
        # writer's lease ends (games/live/writers.py). Never fail the caller.
        log.warning("realtime: fan-out to %s failed: %r", topics[0][0], exc)
        writers.lost()


_sending: set[asyncio.Task[None]] = set()  # the loop keeps only weak references to tasks


def _send_soon(topics: list[tuple[str, dict[str, Any]]], what: str) -> None:
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is not None:  # on the event loop itself: a move it wrote (games/table.py)
        task = running.create_task(_publish(topics))
        _sending.add(task)
        task.add_done_callback(_sending.discard)
        return
    loop = _server_loop()
    if loop is not None:
        asyncio.run_coroutine_threadsafe(_publish(topics), loop)
        return
    try:
        fanout.publish_sync(*topics)
    except Exception:
        log.warning("realtime: fan-out of %s failed", what, exc_info=True)


def on_user_banned(sender: Any, *, user_id: int, **kwargs: Any) -> None:
    """Close every socket the banned user has open, on every server process."""
    _send_soon([(fanout.user_topic(user_id), {"type": "account.banned"})],
               f"ban of user {user_id}")


def on_credentials_revoked(sender: Any, *, user_id: int, **kwargs: Any) -> None:
    """Have every socket of the user check the token or session it was opened with
    (a token revoked, the password changed); those whose credential is gone close."""
    _send_soon([(fanout.user_topic(user_id), {"type": "account.credentials_revoked"})],
               f"revocation for user {user_id}")


def send_to_game(game_id: int, message: dict[str, Any]) -> None:
    """Fan a committed change that is not an event (a chat message) out to the game's
    sockets: the same one PUBLISH and per-process delivery as events. Services do not
    call it: `games.announce.send_on_commit(ToGame(...))` does, after commit."""
    _send_soon([(fanout.game_topic(game_id), message)], f"{message['type']} of game {game_id}")


def send_to_topic(topic: str, message: dict[str, Any]) -> None:
    """Fan a committed change out to the sockets of `topic`, one an app above games
    names (a tournament's, `tournament:{id}`): the same one PUBLISH and per-process
    delivery. Services do not call it: `games.announce.send_on_commit(ToTopic(...))`
    does, after commit."""
    _send_soon([(topic, message)], f"{message['type']} on {topic}")


def notify_users(user_ids: list[int], message: dict[str, Any]) -> None:
    """A personal `notify` message to each of `user_ids`' `/ws/me/` sockets, on every
    process (a notification and the unread count, a rematch offered, answered, started).
    Services do not call it: `games.announce.send_on_commit(ToUsers(...))` does, after
    commit; it only notifies."""
    if user_ids:
        _send_soon([(fanout.user_topic(uid), {"type": "notify", **message})
                    for uid in user_ids], f"{message.get('event')} notice")


def on_committed(change: Committed) -> None:
    """Fan a committed change out; under the ASGI server, without blocking the writer.

    In a server worker thread the sends are handed to the event loop and the thread goes
    back to work at once (FIFO on the loop, so one thread's changes leave in order; any
    reordering between threads is repaired by the consumers' gap fill); on the event loop
    itself (a move it wrote) they are a task of it. Elsewhere (management commands, the
    worker) it sends synchronously.
    """
    _send_soon(_fanout_messages(change), f"game {change.game_id}")
