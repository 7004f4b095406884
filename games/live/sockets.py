"""What every WebSocket of the site shares (`BaseConsumer`): frames in and out, the rate
limit, error frames and refusals with a close code, the heartbeat, the socket's outbox and
the account's notices (a ban or revoked credentials close the socket).

The sockets themselves: a game's in games.live.game_socket, the lobby's and the personal
one in games.live.consumers.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from redis.exceptions import RedisError
from uvicorn.protocols.utils import ClientDisconnected

from accounts import ws_auth
from bloqueio_site import jsontext, languages
from bloqueio_site.drain import SCOPE_KEY as DRAIN
from bloqueio_site.drain import SEND_NOW_KEY as SEND_NOW
from bloqueio_site.errors import ServiceError
from bloqueio_site.off_loop import off_loop
from games.live import fanout
from games.live.frames import (
    CLOSE_BANNED,
    CLOSE_FLOOD,
    CLOSE_IDLE,
    CLOSE_UNAUTHORIZED,
    CLOSE_UNAVAILABLE,
    FLOOD_CLOSE_AFTER,
    Detail,
    FrameError,
    TokenBucket,
    decode_frame,
    error_frame,
    ref_of,
    ref_of_text,
    said,
)
from games.live.outbox import Outbox

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 25.0
# A client silent for this long (no frame, no pong) is taken as gone.
IDLE_SECONDS = HEARTBEAT_SECONDS * 3


# Details every socket may send (a socket says them in its language: `BaseConsumer.error`).
BANNED = _("This account has been disabled.")
TOKEN_REFUSED = _("Unknown or revoked token.")
DATABASE_DOWN = _("The database is unavailable.")
REVOKED = _("These credentials were revoked; log in again.")


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
    language = settings.LANGUAGE_CODE  # the socket's own, chosen as it opens
    hub: fanout.Hub

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        """Acks, hellos and errors through the same fast encoder as the shared frames."""
        return jsontext.dumps(content)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.bucket = TokenBucket()
        # The account's choice, else the handshake's cookie or Accept-Language, as
        # LocaleMiddleware picks for a page.
        self.language = languages.of_scope(self.scope)
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
        await self.refuse("unavailable", _("The service is briefly unavailable; reconnect."),
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
            self._let_go()
            raise StopConsumer()

    def _let_go(self) -> None:
        """The socket is gone: drop what still points back at this consumer (the server's
        drain counts its outbox; the cancelled heartbeat's traceback holds its frame), so
        that reference counting frees the consumer and all it holds when the socket
        ends. Left in cycles, every closed socket waited for the collector's next middle
        collection, which then walked ~100 objects a socket (docs/performance.md)."""
        self.heartbeat = None
        drain = (self.scope.get("extensions") or {}).get(DRAIN)
        if drain is not None:
            drain.pending = None

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

    async def join_all(self, topics: list[str]) -> None:
        """Join `topics` together (one wait for the subscriptions, not one each); every
        join has ended, done or failed, before the first failure is raised."""
        results = await asyncio.gather(*(self.join(t) for t in topics),
                                       return_exceptions=True)
        for result in results:
            if isinstance(result, BaseException):
                raise result

    async def release(self) -> None:
        """Leave every topic this connection joined; safe to call twice, and never raises
        (Redis may be the reason we are here). Subclasses add theirs."""
        topics, self.topics = getattr(self, "topics", []), []
        for topic in topics:
            await _quietly(self.hub.leave(topic, self))

    async def hub_message(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        """A message of a topic this socket joined: the account's notices here."""
        if message["type"] == "account.banned":
            await self.send_json(self.error("banned", BANNED))
            await self.close(code=CLOSE_BANNED)
        elif message["type"] == "account.credentials_revoked":
            # A database read: off the fan-out's path, in a task of this socket's own.
            asyncio.get_running_loop().create_task(self._recheck_credentials())

    async def _recheck_credentials(self) -> None:
        """A token of the account was revoked or its password changed: close if the
        token or session this socket was opened with is among the dead."""
        if await off_loop(ws_auth.still_authenticated)(self.scope):
            return
        await self.send_json(self.error("credentials_revoked", REVOKED))
        await self.close(code=CLOSE_UNAUTHORIZED)

    async def hub_reconnected(self) -> None:
        """The hub may have missed messages: subclasses catch up what they must."""

    async def listen_for_ban(self) -> bool:
        """For a signed-in user, listen for the ban or revocation that must close us;
        False (and the socket refused as `banned` or `credentials_revoked`) if the
        account is already off or the token or session it came with already ended.

        The user and its credential were read by the handshake, before this connect
        ran, so a ban or a revocation can commit in between and its notice go out
        before we listen. Listening first and then reading them again leaves no gap
        (`ws_auth.standing`): one committed before the read is seen by it, a later
        one's notice reaches our topic.
        """
        if self.user_id is None:
            return True
        await self.join(fanout.user_topic(self.user_id))
        found = await off_loop(ws_auth.standing)(self.scope)
        if found == ws_auth.BANNED:
            await self.refuse("banned", BANNED, CLOSE_BANNED)
            return False
        if found == ws_auth.REVOKED:
            await self.refuse_revoked()
            return False
        return True

    async def refuse_revoked(self) -> None:
        """Refuse a socket whose token or session ended during its handshake."""
        await self.refuse("credentials_revoked", REVOKED, CLOSE_UNAUTHORIZED)

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

    def error(self, code: str, detail: Detail, ref: Any = None,
              params: dict[str, Any] | None = None) -> dict[str, Any]:
        """An error frame, its `detail` in this socket's language (the code stays)."""
        return error_frame(code, said(detail, self.language, params), ref)

    def in_language(self, func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
        """`func` off the loop (`off_loop`) in this socket's language, so the refusals a
        service raises there (`ServiceError.detail`, made with gettext) speak it."""
        language = self.language

        def run(*args: Any, **kwargs: Any) -> Any:
            with translation.override(language):
                return func(*args, **kwargs)
        return off_loop(run)  # type: ignore[no-any-return]

    async def answer(self, ref: Any, call: Callable[[], Awaitable[Any]],
                     ack: Callable[[Any], dict[str, Any]], *, what: str) -> None:
        """Do a client frame's service call and answer it, the same way on every socket:
        `{"type": "ack", "ref", ...ack(result)}`, or the refusal as an error frame with
        every field the refusal carries (a mute's or a grace's `until`), or `unavailable`
        when the database is down (logged as `what`)."""
        try:
            result = await call()
        except FrameError as exc:
            await self.send_json(self.error(exc.code, exc.detail, ref, exc.params))
        except ServiceError as exc:
            frame = self.error(exc.code, exc.detail, ref)
            frame.update({k: v for k, v in exc.as_dict().items() if k not in frame})
            await self.send_json(frame)
        except DatabaseError:
            log.warning("database error on %s", what, exc_info=True)
            await self.send_json(self.error("unavailable", DATABASE_DOWN, ref))
        else:
            await self.send_json({"type": "ack", "ref": ref, **ack(result)})

    async def refuse(self, code: str, detail: Detail, close_code: int,
                     params: dict[str, Any] | None = None) -> None:
        """Accept (unless already done), say why, and close: clients get a reason, not a
        bare 403."""
        if not self.accepted:
            await self.accept()
        await self.send_json(self.error(code, detail, params=params))
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
            await self.send_json(self.error(exc.code, exc.detail, exc.ref, exc.params))
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
            await self.send_json(self.error("rate_limited", _("Too many messages; slow down."),
                                            ref_of_text(text_data)))
        return False

    async def handle(self, kind: str, content: dict[str, Any]) -> None:
        await self.send_json(self.error("unknown_type", _("Unknown message type %(type)s."),
                                        ref_of(content), {"type": repr(kind[:40])}))
