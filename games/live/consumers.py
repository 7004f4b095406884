"""WebSocket consumers: a game (`/ws/games/{id}/`), the lobby, and personal notifications.

Thin by design: they parse frames, call `games.services` (off the event loop) exactly as
the REST views do, and relay what `games.live.realtime` fans out after each commit. Delivery
to a game's sockets is in ply order without gaps: each connection remembers the last ply
it sent, drops duplicates, and fills any gap from the database before going on.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Awaitable
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import DatabaseError
from redis.exceptions import RedisError
from uvicorn.protocols.utils import ClientDisconnected

from accounts import selectors as accounts_selectors
from accounts import ws_auth
from bloqueio_site import jsontext
from bloqueio_site.drain import SCOPE_KEY as DRAIN
from bloqueio_site.drain import SEND_NOW_KEY as SEND_NOW
from bloqueio_site.errors import ServiceError
from chat import rooms as chat_rooms
from chat import selectors as chat_selectors
from chat import services as chat_services
from chat.errors import Muted
from games import selectors, services
from games.live import fanout, presence
from games.live.db import off_loop
from games.live.frames import (
    CLOSE_BANNED,
    CLOSE_FLOOD,
    CLOSE_IDLE,
    CLOSE_NOT_FOUND,
    CLOSE_UNAUTHORIZED,
    CLOSE_UNAVAILABLE,
    FLOOD_CLOSE_AFTER,
    FrameError,
    TokenBucket,
    decode_frame,
    error_frame,
    ref_of,
    ref_of_text,
)
from games.live.outbox import Outbox
from games.live.realtime import LOBBY_TOPIC, lobby_summary
from games.models import Status

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 25.0
# A client silent for this long (no frame, no pong) is taken as gone.
IDLE_SECONDS = HEARTBEAT_SECONDS * 3
LOBBY_SNAPSHOT = 50
# Chat messages a socket gets after `hello`, and at most in a `sync` answer.
CHAT_ON_HELLO = 50
CHAT_ON_SYNC = chat_selectors.HISTORY_CAP
# A `sync` is a database read: its own, smaller budget within the frame rate, so that a
# crowd of sockets asking again and again cannot slow everyone's requests (a client
# needs one after a gap or a reconnect, not twenty a second).
SYNC_PER_SECOND = 2.0
SYNC_BURST = 5.0
_STATUS_ORDER = {"waiting": 0, "active": 1, "finished": 2, "aborted": 2}


# What a connect can meet when PostgreSQL or Redis is down: refused as `unavailable`.
UNAVAILABLE_ERRORS = (DatabaseError, RedisError, OSError, TimeoutError)


async def _quietly(step: Awaitable[Any]) -> None:
    """Run a clean-up step; log, never raise, if Redis is what failed."""
    try:
        await step
    except Exception as exc:
        log.warning("websocket clean-up step failed (%r)", exc)


class BaseConsumer(AsyncJsonWebsocketConsumer):
    """Frame decoding, rate limiting, error frames, the heartbeat loop, the socket's
    outbox (games.live.outbox: nothing ever waits for this socket's peer) and the
    account's notices (a ban closes every socket of the account).

    No Channels layer: everything a socket hears comes through games.live.fanout (one
    Redis subscription per process). With a layer every socket ran a receive loop of its
    own, and a channels_redis receive cancelled as its socket closed could hang forever
    inside Redis' blocking pop, keeping the socket's task alive: uvicorn then waited for
    it at every SIGTERM (docs/operations.md, "Stopping").
    """

    channel_layer_alias = "no-channel-layer"  # a name settings never define: no layer
    heartbeat_seconds = HEARTBEAT_SECONDS
    idle_seconds = IDLE_SECONDS
    accepted = False
    outbox: Outbox | None = None
    hub: fanout.Hub

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        """Acks, hellos and errors through the same fast encoder as the shared frames."""
        return jsontext.dumps(content)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.bucket = TokenBucket()
        self.conn_id = uuid.uuid4().hex
        self.last_heard = asyncio.get_running_loop().time()
        self.heartbeat: asyncio.Task[None] | None = None
        self.hub = fanout.hub()
        self.topics: list[str] = []  # joined on the hub; left by `release`
        extensions = self.scope.get("extensions") or {}
        self.outbox = Outbox(self.base_send, self._fell_behind, extensions.get(SEND_NOW))
        drain = extensions.get(DRAIN)
        if drain is not None:  # the server's stop waits for these (bloqueio_site.drain)
            drain.pending = self.outbox.__len__
        # A database outage during the handshake (the token lookup marks the scope) or
        # during connect is refused as `unavailable`. Every database read of a connect
        # comes before its accept, and refusing (rather than letting Daphne drop the
        # handshake with a traceback) keeps the consumer alive, so the client's close
        # runs the normal clean-up of whatever connect had joined.
        # Redis failing in a group join, the fan-out's subscribe or presence is refused
        # the same way, after undoing whatever connect had joined (`release`).
        if not self.scope.get("unavailable"):
            try:
                await super().websocket_connect(message)
                return
            except UNAVAILABLE_ERRORS as exc:
                await self.release()
                if isinstance(exc, ClientDisconnected):  # an OSError, but nobody's fault
                    log.debug("websocket %s: the client left during connect",
                              self.scope.get("path"))
                    return
                log.warning("websocket %s refused: a backing service is unavailable (%r)",
                            self.scope.get("path"), exc)
        await self.refuse("unavailable", "The service is briefly unavailable; reconnect.",
                          CLOSE_UNAVAILABLE)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its `aclose_old_connections()` before every message.

        That call hops to Channels' one shared sync thread for EVERY frame and every group
        message of every socket, serializing all of them behind each other. Nothing here
        touches the database on the event loop: all database work runs through `off_loop`,
        which cleans up connections around each call itself.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        try:
            await super().websocket_receive(message)
        finally:
            drain = self.scope.get("extensions", {}).get(DRAIN)
            if drain is not None:
                drain.done += 1

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        if self.outbox is not None:
            self.outbox.stop()
        try:
            await self.disconnect(message.get("code", 1000))
        finally:
            raise StopConsumer()

    # -- the way out: every frame and close goes through the outbox ----------------------

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None,
                   close: bool = False) -> None:
        if text_data is not None:
            self.post(text_data)
        elif bytes_data is not None:  # never sent by this site
            raise ValueError("this site sends text frames only")
        if close:
            await self.close()

    async def send_json(self, content: Any, close: bool = False) -> None:
        self.post(jsontext.dumps(content))
        if close:
            await self.close()

    def post(self, text: str) -> None:
        """Queue one text frame for this socket; never waits."""
        if self.outbox is not None:
            self.outbox.put(text)

    async def close(self, code: int | None = None, reason: str | None = None) -> None:
        """Close after the frames already queued (an error frame, then its close)."""
        self._drop_listeners()
        if self.outbox is None:
            await super().close(code, reason)
        else:
            self.outbox.close(code or 1000, reason or "")

    def _fell_behind(self) -> None:
        """The outbox overflowed and closed the socket (1013): hear nothing more."""
        log.info("websocket %s closed: its client fell too far behind",
                 self.scope.get("path"))
        self._drop_listeners()

    def _drop_listeners(self) -> None:
        """Stop hearing the hub at once; `release` leaves the topics properly later."""
        for topic in getattr(self, "topics", ()):
            self.hub.drop(topic, self)

    async def join(self, topic: str) -> None:
        self.topics.append(topic)  # before the join: one that fails half-way is undone
        await self.hub.join(topic, self)

    async def release(self) -> None:
        """Leave every topic this connection joined; safe to call twice, and never raises
        (Redis may be the reason we are here). Subclasses add theirs."""
        topics, self.topics = getattr(self, "topics", []), []
        for topic in topics:
            await _quietly(self.hub.leave(topic, self))

    async def hub_message(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        """A message of a topic this socket joined: the account's notices here."""
        if message["type"] == "account.banned":
            await self.send_json(error_frame("banned", "This account has been disabled."))
            await self.close(code=CLOSE_BANNED)
        elif message["type"] == "account.credentials_revoked":
            # A database read: off the fan-out's path, in a task of this socket's own.
            asyncio.get_running_loop().create_task(self._recheck_credentials())

    async def _recheck_credentials(self) -> None:
        """A token of the account was revoked or its password changed: close if the
        token or session this socket was opened with is among the dead."""
        if await off_loop(ws_auth.still_authenticated)(self.scope):
            return
        await self.send_json(error_frame("credentials_revoked",
                                         "These credentials were revoked; log in again."))
        await self.close(code=CLOSE_UNAUTHORIZED)

    async def hub_reconnected(self) -> None:
        """The hub may have missed messages: subclasses catch up what they must."""

    async def listen_for_ban(self) -> bool:
        """For a signed-in user, listen for the ban that must close us; False (and the
        socket refused as `banned`) if the account is already off.

        The user was loaded before this connect ran, so a ban can commit in between and
        its close message go out before we listen. Listening first and then reading the
        account leaves no gap: a ban committed before the read is seen by it, a later
        one's message reaches our group.
        """
        if self.user_id is None:
            return True
        await self.join(fanout.user_topic(self.user_id))
        if await off_loop(accounts_selectors.is_active)(self.user_id):
            return True
        await self.refuse("banned", "This account has been disabled.", CLOSE_BANNED)
        return False

    @property
    def user(self) -> Any:
        return self.scope.get("user")

    @property
    def user_id(self) -> int | None:
        user = self.user
        return user.pk if user is not None and user.is_authenticated else None

    async def accept(self, subprotocol: str | None = None,
                     headers: list[tuple[bytes, bytes]] | None = None) -> None:
        self.accepted = True
        await super().accept(subprotocol, headers)

    async def refuse(self, code: str, detail: str, close_code: int) -> None:
        """Accept (unless already done), say why, and close: clients get a reason, not a
        bare 403."""
        if not self.accepted:
            await self.accept()
        await self.send_json(error_frame(code, detail))
        await self.close(code=close_code)

    def start_heartbeat(self) -> None:
        self.heartbeat = asyncio.create_task(self._heartbeat())

    async def _heartbeat(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.heartbeat_seconds)
            if loop.time() - self.last_heard > self.idle_seconds:
                await self.close(code=CLOSE_IDLE)
                return
            await self.send_json({"type": "ping"})
            await self.on_heartbeat()

    async def on_heartbeat(self) -> None:
        """Hook for periodic work while the connection lives."""

    async def disconnect(self, code: int) -> None:
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        await self.release()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None,
                      **kwargs: Any) -> None:
        if not await self.admit(text_data):
            return
        try:
            content = decode_frame(text_data, bytes_data)
        except FrameError as exc:
            await self.send_json(error_frame(exc.code, exc.detail, exc.ref))
            return
        kind = content["type"]
        if kind == "ping":
            await self.send_json({"type": "pong"})
        elif kind == "pong":
            return
        else:
            await self.handle(kind, content)

    async def admit(self, text_data: str | None = None) -> bool:
        """Count a frame against the rate limit: False (and it is dropped) over the limit;
        a connection that keeps flooding is closed."""
        self.last_heard = asyncio.get_running_loop().time()
        if self.bucket.take():
            return True
        if self.bucket.refused >= FLOOD_CLOSE_AFTER:
            await self.close(code=CLOSE_FLOOD)
        elif self.bucket.refused == 1 or self.bucket.refused % 50 == 0:
            await self.send_json(error_frame("rate_limited", "Too many messages; slow down.",
                                             ref_of_text(text_data)))
        return False

    async def handle(self, kind: str, content: dict[str, Any]) -> None:
        await self.send_json(error_frame("unknown_type", f"Unknown message type {kind[:40]!r}.",
                                         ref_of(content)))


# -- game ----------------------------------------------------------------------------------


def _hello(game_id: int, user: Any) -> tuple[dict[str, Any], int | None,
                                            list[dict[str, Any]], bool] | None:
    """The game, the viewer's seat, the last chat messages the viewer may read, and
    whether the viewer moderates (reads both rooms while the game runs)."""
    game = selectors.get_game(game_id)
    if game is None:
        return None
    user_id = user.pk if user is not None and user.is_authenticated else None
    chat = chat_selectors.history(game=game, viewer=user, limit=CHAT_ON_HELLO, newest=True)
    return (selectors.game_json(game), selectors.seat_of(game, user_id), chat,
            chat_selectors.is_moderator(user))


def _chat_after(game_id: int, user: Any, after: int) -> list[dict[str, Any]] | None:
    game = selectors.get_game(game_id)
    if game is None:
        return None
    return chat_selectors.history(game=game, viewer=user, after_id=after, limit=CHAT_ON_SYNC,
                                  newest=True)


class GameConsumer(BaseConsumer):
    """`/ws/games/{id}/`: a game's events in ply order, for its players and spectators.

    Game messages come through `games.live.fanout` (encoded once per process, not per socket);
    this connection keeps the last ply it sent, drops what it already has and fills any
    gap from the database, holding back newer messages while it does.
    """

    # Class defaults: `disconnect` also runs for a socket refused before `connect`.
    filling: asyncio.Task[None] | None = None
    # What decides which chat room this socket reads (chat.rooms), kept from every game
    # frame it sees: the status only moves forward, `in_game` follows the latest ply.
    status = "waiting"
    in_game: list[bool] | None = None
    noted_ply = -1
    moderator = False
    answering = False  # a `sync` is being read: live messages wait behind its answer

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.seat: int | None = None
        self.syncs = TokenBucket(rate=SYNC_PER_SECOND, burst=SYNC_BURST, tokens=SYNC_BURST)
        # Messages that arrive before our hello went out, or during a gap fill, wait here.
        self.ready = False
        self.held: list[tuple[dict[str, Any], fanout.Frames]] = []
        if self.scope.get("auth_failed"):
            await self.refuse("authentication_failed", "Unknown or revoked token.",
                              CLOSE_UNAUTHORIZED)
            return
        if not await self.listen_for_ban():
            return
        # Listen before reading the game: an event committed in between then arrives as a
        # duplicate (dropped), never as a loss.
        self.topic = fanout.game_topic(self.game_id)
        await self.join(self.topic)
        hello = await off_loop(_hello)(self.game_id, self.user)
        if hello is None:
            await self.refuse("not_found", f"No game {self.game_id}.", CLOSE_NOT_FOUND)
            return
        game, self.seat, chat, self.moderator = hello
        self.seat_count = len(game["seats"])
        self.last_ply = game["ply"]
        self._note(game)
        await self.accept()
        self.present = True
        await presence.touch(self.game_id, self.conn_id, self.seat)
        game["presence"] = await self._presence_snapshot()
        await self.send_json({"type": "hello", "you": {"seat": self.seat}, "game": game})
        if chat:  # read after subscribing: a message posted since comes after (held)
            await self.send_json({"type": "chat_history", "messages": chat})
        self.ready = True
        latest = self.hub.latest_ply
        latest[self.topic] = max(latest.get(self.topic, 0), self.last_ply)
        await self._release_held()
        await self._announce_presence(game["presence"])
        self.start_heartbeat()

    async def disconnect(self, code: int) -> None:
        if self.filling is not None:
            self.filling.cancel()
        await super().disconnect(code)

    async def release(self) -> None:
        await super().release()
        if getattr(self, "present", False):  # accepted: it counted in presence
            self.present = False  # once
            try:
                await presence.leave(self.game_id, self.conn_id, self.seat)
                await self._announce_presence(await self._presence_snapshot())
            except Exception:
                log.warning("presence update failed on disconnect", exc_info=True)

    async def on_heartbeat(self) -> None:
        await presence.touch(self.game_id, self.conn_id, self.seat)
        if self.hub.latest_ply.get(self.topic, 0) > self.last_ply:
            self._fill_gap()  # an announced event never reached us

    @property
    def presence(self) -> dict[str, Any] | None:
        return self.hub.presence_of(self.topic)

    async def _presence_snapshot(self) -> dict[str, Any]:
        return await presence.snapshot(self.game_id, self.seat_count)

    async def _announce_presence(self, snapshot: dict[str, Any]) -> None:
        await self.hub.publish((self.topic, {"type": "game.presence", "presence": snapshot,
                                             "at": time.time()}))

    def _note(self, game: dict[str, Any]) -> None:
        """Keep what decides this socket's chat rooms from a game frame it was sent."""
        if _STATUS_ORDER.get(game["status"], 0) >= _STATUS_ORDER.get(self.status, 0):
            self.status = game["status"]
        if game["ply"] >= self.noted_ply:
            self.noted_ply = game["ply"]
            self.in_game = game["state"].get("in_game")

    def reads(self, room: str) -> bool:
        return room in chat_rooms.readable_rooms(self.status, self.seat, self.in_game,
                                                 moderator=self.moderator)

    # -- client messages -------------------------------------------------------------------

    async def handle(self, kind: str, content: dict[str, Any]) -> None:
        ref = ref_of(content)
        if kind == "sync":
            if not self.syncs.take():
                await self.send_json(error_frame(
                    "rate_limited", f"At most {SYNC_PER_SECOND:g} syncs a second; you hold "
                    "every event since your last answer.", ref))
                return
            after = content.get("after", 0)
            if type(after) is not int or after < 0:
                await self.send_json(error_frame("invalid", "`after` must be a ply >= 0.", ref))
                return
            chat_after = content.get("chat_after")
            if chat_after is not None and (type(chat_after) is not int or chat_after < 0):
                await self.send_json(error_frame(
                    "invalid", "`chat_after` must be a chat message id >= 0.", ref))
                return
            await self._send_sync(after, chat_after)
        elif kind == "chat":
            await self._chat(content, ref)
        elif kind in ("action", "resign"):
            if self.user_id is None or self.seat is None:
                await self.send_json(error_frame(
                    "read_only", "Spectators may only send sync and ping.", ref))
                return
            await self._write(kind, content, ref)
        else:
            await super().handle(kind, content)

    async def _write(self, kind: str, content: dict[str, Any], ref: Any) -> None:
        try:
            if kind == "action":
                ply = content.get("ply")
                if type(ply) is not int:
                    raise FrameError("invalid", "`ply` must be the game's current ply.")
                if not isinstance(content.get("action"), dict):
                    raise FrameError("invalid", "`action` must be an action object.")
                done = await off_loop(services.submit_action)(
                    game_id=self.game_id, user=self.user, action=content["action"], ply=ply)
                ply_after = done.event.ply
            else:
                game = await off_loop(services.resign)(
                    game_id=self.game_id, user=self.user)
                ply_after = game.ply
        except FrameError as exc:
            await self.send_json(error_frame(exc.code, exc.detail, ref))
        except ServiceError as exc:
            await self.send_json(error_frame(exc.code, exc.detail, ref))
        except DatabaseError:
            log.warning("database error on a websocket write", exc_info=True)
            await self.send_json(error_frame("unavailable", "The database is unavailable.", ref))
        else:
            await self.send_json({"type": "ack", "ref": ref, "ply": ply_after})

    async def _chat(self, content: dict[str, Any], ref: Any) -> None:
        """A chat message: `ack` with its id, or an error frame. Its `chat` frame comes
        through the fan-out like everyone's (before or after the ack)."""
        if self.user_id is None:
            await self.send_json(error_frame("not_authenticated", "Log in to chat.", ref))
            return
        try:
            message = await off_loop(chat_services.post_message)(
                game_id=self.game_id, user=self.user, text=content.get("text"))
        except Muted as exc:
            await self.send_json({**error_frame(exc.code, exc.detail, ref),
                                  "until": exc.as_dict()["until"]})
        except ServiceError as exc:
            await self.send_json(error_frame(exc.code, exc.detail, ref))
        except DatabaseError:
            log.warning("database error on a chat message", exc_info=True)
            await self.send_json(error_frame("unavailable", "The database is unavailable.", ref))
        else:
            await self.send_json({"type": "ack", "ref": ref, "id": message.pk})

    async def _send_sync(self, after: int, chat_after: int | None = None) -> None:
        """Answer a `sync`. Events committed while it reads are held and sent after the
        answer (those it already holds are dropped): sent before it, they would reach a
        client that is still behind, which drops them as a gap, and then an answer read
        before they committed, so the client would never get them. With `chat_after`,
        a `chat_history` frame of the messages after it follows (live chat is held
        behind it too; the client drops the ids it has)."""
        self.answering = True
        try:
            found = await off_loop(selectors.events_and_game)(self.game_id, after)
            if found is None:
                await self.send_json(error_frame("not_found", f"No game {self.game_id}."))
                return
            events, game = found
            game["presence"] = self.presence
            if events:
                self.last_ply = max(self.last_ply, events[-1]["ply"])
            self._note(game)
            await self.send_json({"type": "events", "events": events, "game": game})
            if chat_after is not None:
                chat = await off_loop(_chat_after)(self.game_id, self.user, chat_after)
                await self.send_json({"type": "chat_history", "messages": chat or []})
        finally:
            self.answering = False
            if self.filling is None:
                await self._release_held()

    # -- messages from the fan-out -------------------------------------------------------

    async def hub_message(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        """Never waits for the peer (the outbox) nor for Redis: the fan-out delivers a
        game's message to all its sockets, and every game's, through this in turn."""
        kind = message["type"]
        if kind.startswith("account."):
            await super().hub_message(message, frames)
        elif self.filling is not None or not self.ready or self.answering:
            self.held.append((message, frames))
        elif kind == "game.events":
            self._events(message, frames)
        elif kind == "game.refill":
            self._catch_up(message, frames)
        elif kind == "game.changed":
            self._changed(message)
        elif kind == "presence":
            self.post(frames.whole())
        elif kind == "game.chat" and self.reads(message["room"]):
            self.post(frames.inner())

    async def hub_reconnected(self) -> None:
        if self.hub.latest_ply.get(self.topic, 0) > self.last_ply:
            self._fill_gap()

    def _events(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        events = message["events"]
        if not events or events[-1]["ply"] <= self.last_ply:
            return  # already delivered (by a sync or a gap fill)
        if events[0]["ply"] > self.last_ply + 1:
            self._fill_gap()  # a notification was lost or overtaken
            return
        for event, text in zip(events, frames.events(), strict=True):
            if event["ply"] == self.last_ply + 1:
                self.last_ply = event["ply"]
                self.post(text)
        self._note(message["game"])

    def _catch_up(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        """The hub's one read for every socket of the game (after a lost notification):
        the events this socket lacks, with the game they lead to."""
        events = message["events"]
        if not events or events[-1]["ply"] <= self.last_ply:
            return
        start = self.last_ply + 1 - events[0]["ply"]
        if start < 0:
            self._fill_gap()  # older than the hub read from: cannot happen, but be whole
            return
        self.last_ply = events[-1]["ply"]
        self._note(message["game"])
        # One missing event goes out as usual; several as a sync answer, since an `event`
        # frame's game must be the game after that event.
        text = frames.events()[start] if start == len(events) - 1 else frames.events_answer(start)
        self.post(text)

    def _fill_gap(self) -> None:
        if self.filling is None:
            self.filling = asyncio.get_running_loop().create_task(self._fill())

    async def _fill(self) -> None:
        """Send what the database has after our last ply, then what arrived meanwhile."""
        try:
            found = await off_loop(selectors.events_and_game)(self.game_id, self.last_ply)
            if found is not None:
                events, game = found
                game["presence"] = self.presence
                self._note(game)
                for event in events:
                    if event["ply"] == self.last_ply + 1:
                        self.last_ply = event["ply"]
                        await self.send_json({"type": "event", "event": event, "game": game})
        except Exception:
            log.warning("gap fill of game %s failed", self.game_id, exc_info=True)
        finally:
            self.filling = None
        await self._release_held()

    async def _release_held(self) -> None:
        held, self.held = self.held, []
        for message, frames in held:
            await self.hub_message(message, frames)

    def _changed(self, message: dict[str, Any]) -> None:
        game = dict(message["game"], presence=self.presence)
        self._note(game)
        if self.user_id is not None:
            seat = next((s["seat"] for s in game["seats"]
                         if s["username"] == self.user.username), None)
            if seat != self.seat:  # joined or left while connected: present as the new role
                previous, self.seat = self.seat, seat
                asyncio.get_running_loop().create_task(self._reseat(previous))
        self.post(jsontext.dumps({"type": "game", "change": message["change"], "game": game}))

    async def _reseat(self, previous: int | None) -> None:
        """Present this socket in its new role (Redis: off the fan-out's path)."""
        try:
            await presence.leave(self.game_id, self.conn_id, previous)
            await presence.touch(self.game_id, self.conn_id, self.seat)
            await self._announce_presence(await self._presence_snapshot())
        except Exception as exc:
            log.warning("presence update of game %s failed (%r)", self.game_id, exc)


# -- lobby and personal notifications ----------------------------------------------------------


def _lobby_snapshot() -> list[dict[str, Any]]:
    games = selectors.games_with_seats().filter(
        status__in=[Status.WAITING, Status.ACTIVE]).order_by("-created_at")[:LOBBY_SNAPSHOT]
    return [lobby_summary(selectors.game_json(g)) for g in games]


class LobbyConsumer(BaseConsumer):
    """`/ws/lobby/`: the open and live games now, then every change as it happens."""

    async def connect(self) -> None:
        if not await self.listen_for_ban():
            return
        await self.join(LOBBY_TOPIC)
        games = await off_loop(_lobby_snapshot)()
        await self.accept()
        await self.send_json({"type": "hello", "games": games})
        self.start_heartbeat()

    async def hub_message(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        if message["type"] == "lobby":
            self.post(frames.whole())
        else:
            await super().hub_message(message, frames)


class MeConsumer(BaseConsumer):
    """`/ws/me/`: notifications for the signed-in user (your turn, game started, ...)."""

    async def connect(self) -> None:
        if self.scope.get("auth_failed"):
            await self.refuse("authentication_failed", "Unknown or revoked token.",
                              CLOSE_UNAUTHORIZED)
            return
        if self.user_id is None:
            await self.refuse("not_authenticated", "Log in or send a token.", CLOSE_UNAUTHORIZED)
            return
        if not await self.listen_for_ban():  # joins the user's topic: notices come there
            return
        await self.accept()
        await self.send_json({"type": "hello", "you": {"username": self.user.username}})
        self.start_heartbeat()

    async def hub_message(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        if message["type"] == "notify":
            self.post(frames.whole())
        else:
            await super().hub_message(message, frames)

    async def hub_reconnected(self) -> None:
        """Notifications are hints (the lobby and the game pages hold the truth)."""
