"""Per-process fan-out of live messages to sockets: one Redis PUBLISH per change.

The channel layer copies every group message once per socket (serialized, pushed and
popped through Redis for each one) and every consumer then re-encodes it as JSON. For a
game's hot path (every move goes to every player and spectator) that is work per socket
that can be done once per game and process, so game messages take this path instead:

- the writer's process delivers to its own sockets at once and PUBLISHes the message on
  the topic's Redis channel (`{prefix}:fanout:game:{id}`), tagged with its origin;
- every other process subscribed to that channel (it has sockets of that game) decodes
  it once, encodes each outgoing frame once, and hands the same text to each socket.

Personal notifications (`user:{id}`, for `/ws/me/`) take the same path: one PUBLISH,
where the channel layer's group send costs three round trips even with nobody listening.

Like the channel layer it only notifies (at most once): the event log in the database is
the truth. A listener that sees a gap fills it from the database; when the subscription
to Redis is lost and comes back, or a writer's lease ends (a writer that died or lost a
message: games/live/writers.py), every game here is caught up from the database.
Presence snapshots of a game are kept here too, so all its sockets in a process show the
same one. Without Redis (the embedded mode) delivery is local to the process, which is
exact for its single process.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import redis.asyncio as aioredis
from django.conf import settings

from bloqueio_site import jsontext
from bloqueio_site.off_loop import off_loop
from games.live import writers

log = logging.getLogger(__name__)

# Short: sockets connecting meanwhile wait for the resubscription inside Daphne's 5 s
# handshake timeout.
RECONNECT_DELAYS = (0.1, 0.2, 0.5, 1.0)
# The embedded mode's audit (no Redis: the database is the only channel between processes).
AUDIT_SECONDS = 2.0
# How often a hub looks for writers' leases that ended (games/live/writers.py).
WATCH_SECONDS = 1.0
# Presence changes of a game are sent to its sockets at most this often: a crowd of
# spectators arriving must not cost a frame per socket for each arrival.
PRESENCE_EVERY = 0.25
SUBSCRIBE_TIMEOUT = 5.0
_dumps = jsontext.dumps


class Listener(Protocol):
    """A socket of a game (GameConsumer): gets each message with its shared frames."""

    async def hub_message(self, message: dict[str, Any], frames: Frames) -> None: ...

    async def hub_reconnected(self) -> None:
        """The hub may have missed messages (or learnt of a newer ply): catch up."""


class Frames:
    """The outgoing text frames of one message, encoded on first use, then shared."""

    def __init__(self, message: dict[str, Any], presence: dict[str, Any] | None):
        self.message = message
        self.presence = presence
        self._game: str | None = None
        self._events: list[str] | None = None
        self._changes: list[str] | None = None
        self._event_texts: list[str] | None = None
        self._whole: str | None = None
        self._inner: str | None = None

    def whole(self) -> str:
        """The message itself as the frame (for messages already in client shape)."""
        if self._whole is None:
            self._whole = _dumps(self.message)
        return self._whole

    def inner(self) -> str:
        """The client frame a message carries in its `frame` (chat), encoded once."""
        if self._inner is None:
            self._inner = _dumps(self.message["frame"])
        return self._inner

    def game_text(self) -> str:
        """The message's game with this process's presence snapshot, as JSON."""
        if self._game is None:
            game = dict(self.message["game"], presence=self.presence)
            self._game = _dumps(game)
        return self._game

    def events_answer(self, start: int) -> str:
        """One `{"type": "events"}` frame (a sync answer's shape) with the message's events
        from index `start` on, and its game: for a socket catching up on several events,
        which must not see the latest game beside an older event."""
        if self._event_texts is None:
            self._event_texts = [_dumps(event) for event in self.message["events"]]
        return (f'{{"type":"events","v":{self.message["v"]},'
                f'"events":[{",".join(self._event_texts[start:])}],'
                f'"game":{self.game_text()}}}')

    def events(self) -> list[str]:
        """One `{"type": "event"}` frame per event of a `game.events` message."""
        if self._events is None:
            game, v = self.game_text(), self.message["v"]
            self._events = [f'{{"type":"event","v":{v},"event":{_dumps(event)},"game":{game}}}'
                            for event in self.message["events"]]
        return self._events


    def changes(self) -> list[str]:
        """The same frames for sockets opened with `?frames=changes`: each carries, in
        place of the whole game, only what a move changes that a client cannot derive
        without the rules (`CHANGED_FIELDS`, as `delta`). Encoded once per process, like
        `events`."""
        if self._changes is None:
            game, v = self.message["game"], self.message["v"]
            delta = _dumps({key: game[key] for key in CHANGED_FIELDS})
            self._changes = [f'{{"type":"event","v":{v},"event":{_dumps(event)},"delta":{delta}}}'
                             for event in self.message["events"]]
        return self._changes


# What a slim `event` frame's `delta` carries of the game after the event (docs/realtime.md,
# "Smaller frames"): the rest a client holds already or derives from the event by the rules.
CHANGED_FIELDS = ("ply", "status", "clocks", "result", "finished_at")


def game_topic(game_id: int) -> str:
    return f"game:{game_id}"


def user_topic(user_id: int) -> str:
    return f"user:{user_id}"


def _prefix() -> str:
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    return str(config.get("prefix", "bloqueio"))


class Hub:
    """The fan-out of one event loop (one per server process; tests make one per loop)."""

    def __init__(self) -> None:
        self.origin = uuid.uuid4().hex
        # Every payload is "<origin> <message JSON>": a process skips its own echoes by
        # their first bytes.
        self._origin_bytes = self.origin.encode() + b" "
        self.listeners: dict[str, set[Listener]] = {}
        # Latest presence snapshot per game: (taken at, snapshot).
        self.presence: dict[str, tuple[float, dict[str, Any]]] = {}
        # Highest version any message announced per game: a listener behind it lost one.
        self.latest_v: dict[str, int] = {}
        self._redis_url = settings.REDIS_URL
        self._channel_prefix = f"{_prefix()}:fanout:"
        self._publisher: aioredis.Redis | None = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._auditor: asyncio.Task[None] | None = None
        # Writers whose ended lease this hub has caught up after (or found at its start).
        self._mourned: set[str] | None = None
        self._writers_key = writers.key()
        self._tasks: set[asyncio.Future[None]] = set()  # catch-ups started by timers
        # Games the last audit found ahead of their messages: topic -> the version it read.
        self._suspects: dict[str, int] = {}
        self._confirmed: dict[str, asyncio.Event] = {}
        self._presence_due: set[str] = set()
        self._outbox: list[tuple[str, str]] = []
        self._sender: asyncio.Task[None] | None = None

    # -- listeners ---------------------------------------------------------------------

    async def join(self, topic: str, listener: Listener) -> None:
        """Listen to `topic`; returns once this process receives its messages."""
        first = topic not in self.listeners
        self.listeners.setdefault(topic, set()).add(listener)
        if not self._redis_url:
            # Embedded mode (no Redis): another process (the worker) can still commit
            # events here, with nobody to tell us; the audit catches them up.
            self._ensure_auditor()
            return
        if first:
            self._confirmed[topic] = asyncio.Event()
            self._ensure_reader()
            if self._pubsub is not None and self._pubsub.connection is not None:
                await self._pubsub.subscribe(self._channel(topic))
        confirmed = self._confirmed.get(topic)
        if confirmed is not None:
            await asyncio.wait_for(confirmed.wait(), SUBSCRIBE_TIMEOUT)

    def drop(self, topic: str, listener: Listener) -> None:
        """Stop delivering `topic` to `listener` at once (a socket that is closing);
        `leave` still follows and unsubscribes once nobody here listens."""
        listeners = self.listeners.get(topic)
        if listeners is not None:
            listeners.discard(listener)

    async def leave(self, topic: str, listener: Listener) -> None:
        listeners = self.listeners.get(topic)
        if listeners is None:
            return
        listeners.discard(listener)
        if listeners:
            return
        if self.listeners.get(topic) is listeners:
            del self.listeners[topic]
        self.presence.pop(topic, None)
        self.latest_v.pop(topic, None)
        self._confirmed.pop(topic, None)
        if not self.listeners:
            return  # the reader leaves its loop and closes the subscription itself
        pubsub = self._pubsub
        if pubsub is not None and pubsub.connection is not None:
            try:
                await pubsub.unsubscribe(self._channel(topic))
            except Exception as exc:  # torn down or reconnecting: it resubscribes what is live
                log.info("fan-out: unsubscribe from %s skipped (%r)", topic, exc)

    def presence_of(self, topic: str) -> dict[str, Any] | None:
        entry = self.presence.get(topic)
        return None if entry is None else entry[1]

    def note_presence(self, topic: str, snapshot: dict[str, Any], at: float) -> bool:
        """Keep `snapshot` if it is newer and different; True if it changed."""
        current = self.presence.get(topic)
        if current is not None and (at < current[0] or current[1] == snapshot):
            return False
        self.presence[topic] = (at, snapshot)
        return True

    # -- publishing and delivery ---------------------------------------------------------

    async def publish(self, *messages: tuple[str, dict[str, Any]]) -> None:
        """Deliver each (topic, message) here, then queue it for every other process
        listening to its topic. One task sends the queue, a pipeline per round trip, so
        under load many moves share one (order is kept: one sender, first in first out)."""
        for topic, message in messages:
            await self.deliver(topic, message)
        if not self._redis_url:
            return
        for topic, message in messages:
            self._outbox.append((self._channel(topic),
                                 f"{self.origin} {_dumps(message)}"))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send_outbox())

    async def _send_outbox(self) -> None:
        if self._publisher is None:
            self._publisher = aioredis.Redis.from_url(
                self._redis_url, socket_timeout=3, socket_connect_timeout=3)
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                async with self._publisher.pipeline(transaction=False) as pipe:
                    for channel, payload in batch:
                        pipe.publish(channel, payload)
                    await pipe.execute()
            except Exception as exc:
                # Committed anyway; other processes' sockets catch up when this writer's
                # lease ends (games/live/writers.py).
                log.warning("fan-out: publishing %d messages failed: %r", len(batch), exc)
                writers.lost()

    async def deliver(self, topic: str, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "game.presence":
            if (self.note_presence(topic, message["presence"], message["at"])
                    and topic not in self._presence_due):
                self._presence_due.add(topic)
                asyncio.get_running_loop().call_later(
                    PRESENCE_EVERY, lambda: asyncio.ensure_future(self._send_presence(topic)))
            return
        if kind in ("game.events", "game.refill", "game.changed"):
            self.latest_v[topic] = max(self.latest_v.get(topic, 0), message["v"])
        listeners = self.listeners.get(topic)
        if not listeners:
            return
        frames = Frames(message, self.presence_of(topic))
        # A listener only queues the frames for its socket (games.live.outbox): nothing
        # here waits for any client.
        for listener in list(listeners):
            try:
                await listener.hub_message(message, frames)
            except Exception:
                log.warning("fan-out: delivery to a socket of %s failed", topic,
                            exc_info=True)

    async def _send_presence(self, topic: str) -> None:
        self._presence_due.discard(topic)
        snapshot = self.presence_of(topic)
        if snapshot is not None:
            await self.deliver(topic, {"type": "presence", "presence": snapshot})

    # -- the Redis subscription ----------------------------------------------------------

    def _channel(self, topic: str) -> str:
        return f"{self._channel_prefix}{topic}"

    def _ensure_reader(self) -> None:
        if self._reader is None or self._reader.done():
            self._reader = asyncio.get_running_loop().create_task(self._read_forever())
        self._ensure_auditor()

    def _ensure_auditor(self) -> None:
        """With Redis, the watch of writers' leases; without, the audit on a timer."""
        if self._auditor is None or self._auditor.done():
            self._auditor = asyncio.get_running_loop().create_task(
                self._watch_writers() if self._redis_url else self._audit_forever())

    async def _read_forever(self) -> None:
        """Subscribe to every game listened to here and deliver what arrives; on any
        failure reconnect with backoff, resubscribe, and have every listener catch up."""
        attempt = 0
        lost = False
        while self.listeners:
            client = aioredis.Redis.from_url(self._redis_url, socket_connect_timeout=3,
                                             health_check_interval=15)
            pubsub = client.pubsub(ignore_subscribe_messages=False)
            try:
                subscribed: set[str] = set()
                while missing := [g for g in self.listeners if g not in subscribed]:
                    # Games joined while this subscribe was in flight are caught next round.
                    await pubsub.subscribe(*[self._channel(g) for g in missing])
                    subscribed.update(missing)
                self._pubsub = pubsub
                if lost:
                    log.info("fan-out: Redis subscription restored; catching up")
                    self._start(self._catch_up_all)
                    # Once more when every writer has renewed its lease: a Redis that
                    # restarted empty forgot them, and one that died before renewing
                    # would otherwise go unseen.
                    asyncio.get_running_loop().call_later(
                        2 * writers.LEASE_SECONDS, self._start, self._catch_up_all)
                attempt = 0
                while self.listeners:
                    raw = await pubsub.get_message(timeout=1.0)
                    if raw is not None:
                        await self._on_raw(raw)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                lost = True
                log.warning("fan-out: Redis subscription lost (%r); reconnecting", exc)
                delay = RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)]
                attempt += 1
                await asyncio.sleep(delay)
            finally:
                self._pubsub = None
                try:
                    await pubsub.aclose()
                    await client.aclose()
                except Exception:
                    pass

    async def _on_raw(self, raw: dict[str, Any]) -> None:
        channel = raw["channel"].decode() if isinstance(raw["channel"], bytes) \
            else raw["channel"]
        topic = channel[len(self._channel_prefix):]
        if raw["type"] == "subscribe":
            confirmed = self._confirmed.get(topic)
            if confirmed is not None:
                confirmed.set()
            return
        if raw["type"] != "message":
            return
        data = raw["data"]
        if data.startswith(self._origin_bytes):
            return  # ours, delivered locally when it was published: not even decoded
        await self.deliver(topic, jsontext.loads(data.split(b" ", 1)[1]))

    def _start(self, catch_up: Callable[[], Awaitable[None]]) -> None:
        """Run `catch_up()` as a task this hub keeps until it ends."""
        task = asyncio.ensure_future(catch_up())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _catch_up_games(self) -> None:
        """The games that moved on unannounced here (one query finds them) are refilled,
        once each; if the database cannot say, every game's listeners check."""
        behind = await self.audit()
        if behind is None:
            await self._tell([t for t in self.listeners if t.startswith("game:")])
        else:
            await self._refill(behind)

    async def _catch_up_all(self) -> None:
        """After a lost subscription: the games, as `_catch_up_games`; the listeners of
        other topics (the lobby, a tournament's) check for themselves: the read knows
        only games' versions."""
        await self._catch_up_games()
        await self._tell([t for t in self.listeners if not t.startswith("game:")])

    async def _refill(self, topics: list[str]) -> None:
        """Catch up the listeners of each game in `topics` with ONE read per game: the
        events after the furthest-behind listener's ply, delivered here like a message
        (encoded once; each listener takes what it lacks and drops what it has). Without
        this, after a Redis reconnect every socket re-read its game: hundreds of the same
        query at once. Other topics, and games the read fails for, are told to check."""
        from games.selectors import events_and_game

        read = off_loop(events_and_game)
        for topic in topics:
            listeners = self.listeners.get(topic)
            if not listeners:
                continue
            plies = [ply for ply in (getattr(x, "last_ply", None) for x in listeners)
                     if type(ply) is int]
            if not topic.startswith("game:") or not plies:
                await self._tell([topic])
                continue
            try:
                found = await read(int(topic.split(":", 1)[1]), min(plies))
            except Exception as exc:
                log.warning("fan-out: refill of %s failed (%r); its sockets check", topic, exc)
                await self._tell([topic])
                continue
            if found is not None:
                await self.deliver(topic, {"type": "game.refill", "v": found.v,
                                           "events": found.events, "game": found.game})

    async def audit(self, *, confirm: bool = False) -> list[str] | None:
        """Compare the database's versions of the games listened to here with what
        their sockets here have had (`_known`: the oldest socket's, so a socket that
        opened since, with the newer game in its `hello`, hides nothing from the older
        ones); note the newer ones and return their topics (None if the database did not
        answer).

        With `confirm`, a game counts as behind only if the previous audit already saw
        it ahead and its messages have still not caught up with the version seen then. In a
        busy game the database is ahead of the messages for a moment after every commit
        (the PUBLISH follows it); acting on that would make every socket of the game
        re-read the game at once for nothing.
        """
        games = {int(t.split(":", 1)[1]): t for t in self.listeners if t.startswith("game:")}
        if not games:
            self._suspects = {}
            return []
        try:
            versions = await off_loop(_versions)(list(games))
        except Exception as exc:
            log.warning("fan-out: could not read the versions of %d games (%r)", len(games),
                        exc)
            return None
        behind = []
        suspects = {}
        for game_id, v in versions.items():
            topic = games[game_id]
            known = self._known(topic)
            if v <= known:
                continue
            if confirm:
                seen = self._suspects.get(topic)
                if seen is None or seen <= known:  # a new lag, or the last one caught up
                    suspects[topic] = v
                    continue
            self.latest_v[topic] = v
            behind.append(topic)
        if confirm:
            self._suspects = suspects
        return behind

    def _known(self, topic: str) -> int:
        """The version every socket of `topic` here has had (the oldest of theirs), or,
        for listeners that keep none, the highest announced here."""
        versions = [v for x in self.listeners.get(topic, ())
                    if getattr(x, "ready", True) and type(v := getattr(x, "v", None)) is int]
        return min(versions) if versions else self.latest_v.get(topic, 0)

    async def _watch_writers(self) -> None:
        """A notification can die with the process that committed it (killed between its
        commit and its PUBLISH, or its PUBLISH failed): that writer's lease then ends
        (games/live/writers.py). Every WATCH_SECONDS one Redis read lists the ended
        leases; a new one makes this hub catch its games up from the database, once (a
        tournament's or the lobby's sockets catch up at their own heartbeats). No read of
        the database while every writer lives."""
        client = aioredis.Redis.from_url(self._redis_url, socket_timeout=3,
                                         socket_connect_timeout=3)
        first_failed = False
        try:
            while self.listeners:
                try:
                    ended = set(await writers.expired(client, self._writers_key))
                except Exception as exc:
                    # Redis is away: the subscription is lost too, and its return catches up.
                    log.info("fan-out: writers' leases not read (%r)", exc)
                    first_failed = first_failed or self._mourned is None
                else:
                    if self._mourned is None:
                        # The first read: what had ended before this hub listened is in
                        # its sockets' hellos, read since. If that read failed, what
                        # ended meanwhile is not known: catch up once.
                        if first_failed:
                            await self._catch_up_games()
                    elif ended - self._mourned:
                        log.warning("fan-out: writer(s) %s ended without renewing; "
                                    "catching up", ", ".join(sorted(ended - self._mourned)))
                        await self._catch_up_games()
                    self._mourned = ended
                await asyncio.sleep(WATCH_SECONDS)
        finally:
            self._mourned = None
            await client.aclose()

    async def _audit_forever(self) -> None:
        """The embedded mode (no Redis): the worker's writes reach this process's sockets
        only through the database. Every AUDIT_SECONDS one query catches them up here, at
        the second audit that finds them missing."""
        while self.listeners:
            await asyncio.sleep(AUDIT_SECONDS)
            await self._refill(await self.audit(confirm=True) or [])

    async def _tell(self, topics: list[str]) -> None:
        for topic in topics:
            for listener in list(self.listeners.get(topic, ())):
                try:
                    await listener.hub_reconnected()
                except Exception:
                    log.warning("fan-out: catch-up of %s failed", topic, exc_info=True)


def _versions(game_ids: list[int]) -> dict[int, int]:
    from games.models import Game

    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))


_sync_client: Any = None


def publish_sync(*messages: tuple[str, dict[str, Any]]) -> None:
    """Publish from outside any event loop (the clock worker, commands, tests)."""
    global _sync_client
    if not settings.REDIS_URL:
        for loop, found in list(_hubs.items()):
            if loop.is_running():
                for topic, message in messages:
                    asyncio.run_coroutine_threadsafe(found.deliver(topic, message), loop)
        return
    if _sync_client is None:
        import redis

        _sync_client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=3,
                                            socket_connect_timeout=3)
    try:
        with _sync_client.pipeline(transaction=False) as pipe:
            for topic, message in messages:
                pipe.publish(f"{_prefix()}:fanout:{topic}",
                             f"sync {_dumps(message)}")
            pipe.execute()
    except Exception:
        writers.lost()
        raise


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """This event loop's hub."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub()
    return found

