"""The bridge from committed changes to WebSocket groups.

`on_committed` is registered as a `games.live.broadcast` listener. It runs right after the
commit of every game write (in the writer's thread) and fans the change out through the
game's sockets through `games.live.fanout` (one Redis PUBLISH, encoded once per process),
and the lobby summary and players' personal notifications through the channel layer.
Both only notify; clients recover anything lost from the database with `sync`.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from games.live import fanout
from games.live.broadcast import Committed

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def account_group(user_id: int) -> str:
    """Every socket of one signed-in user, whatever it is for (bans close them all)."""
    return f"account-{user_id}"


def lobby_summary(game: dict[str, Any]) -> dict[str, Any]:
    """What the lobby shows of a game (no board state)."""
    return {key: game[key] for key in (
        "id", "kind", "ranked", "status", "seats", "ply", "time_control", "result",
        "created_at", "started_at", "finished_at",
    )}


def _fanout_messages(change: Committed) -> list[tuple[str, dict[str, Any]]]:
    """(topic, message) pairs for `games.live.fanout`: the game's sockets, then players'
    personal notifications (`/ws/me/`)."""
    game = change.game
    if change.events:
        out = [(fanout.game_topic(change.game_id),
                {"type": "game.events", "events": change.events, "game": game})]
    else:
        out = [(fanout.game_topic(change.game_id),
                {"type": "game.changed", "change": change.change, "game": game})]
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


def _layer_messages(change: Committed) -> list[tuple[str, dict[str, Any]]]:
    """(group, message) pairs for the channel layer: the lobby's summary."""
    if change.change == "events":
        return []
    return [(LOBBY_GROUP, {"type": "lobby.change", "change": change.change,
                           "game": lobby_summary(change.game)})]


async def _send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]],
                    topics: list[tuple[str, dict[str, Any]]]) -> None:
    """The fan-out first (the game's sockets are waiting), then the group messages."""
    if topics:
        try:
            await fanout.hub().publish(*topics)
        except Exception as exc:
            # The write is committed; clients catch up with `sync`. Never fail the caller.
            log.warning("realtime: fan-out to %s failed: %r", topics[0][0], exc)
    results = await asyncio.gather(
        *(layer.group_send(group, message) for group, message in messages),
        return_exceptions=True,
    )
    for (group, _), outcome in zip(messages, results, strict=True):
        if isinstance(outcome, BaseException):
            log.warning("realtime: group_send to %s failed: %r", group, outcome)


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The server's event loop when called from one of its worker threads, else None."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


def _send_soon(messages: list[tuple[str, dict[str, Any]]], what: str,
               topics: list[tuple[str, dict[str, Any]]] | None = None) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    topics = topics or []
    loop = _server_loop()
    if loop is not None:
        asyncio.run_coroutine_threadsafe(_send_all(layer, messages, topics), loop)
        return
    if topics:
        try:
            fanout.publish_sync(*topics)
        except Exception:
            log.warning("realtime: fan-out of %s failed", what, exc_info=True)
    if not messages:
        return
    try:
        async_to_sync(_send_all)(layer, messages, [])
    except Exception:
        log.warning("realtime: broadcast of %s failed", what, exc_info=True)


def on_user_banned(sender: Any, *, user_id: int, **kwargs: Any) -> None:
    """Close every socket the banned user has open, on every server process."""
    _send_soon([(account_group(user_id), {"type": "account.banned"})], f"ban of user {user_id}")


def on_credentials_revoked(sender: Any, *, user_id: int, **kwargs: Any) -> None:
    """Have every socket of the user check the token or session it was opened with
    (a token revoked, the password changed); those whose credential is gone close."""
    _send_soon([(account_group(user_id), {"type": "account.credentials_revoked"})],
               f"revocation for user {user_id}")


def send_to_game(game_id: int, message: dict[str, Any]) -> None:
    """Fan a committed change that is not an event (a chat message) out to the game's
    sockets: the same one PUBLISH and per-process delivery as events. Call after commit."""
    _send_soon([], f"{message['type']} of game {game_id}",
               [(fanout.game_topic(game_id), message)])


def on_committed(change: Committed) -> None:
    """Fan a committed change out; under the ASGI server, without blocking the writer.

    In a server worker thread the sends are handed to the event loop and the thread goes
    back to work at once (FIFO on the loop, so one thread's changes leave in order; any
    reordering between threads is repaired by the consumers' gap fill). Elsewhere
    (management commands, the worker) it sends synchronously.
    """
    _send_soon(_layer_messages(change), f"game {change.game_id}", _fanout_messages(change))
