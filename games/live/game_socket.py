"""The game socket, `/ws/games/{id}/`: a game's events in ply order, for its players and
spectators, and their actions, resignations and syncs; chat rides it as a sub-protocol
that chat registers (`games.live.subprotocols`), so games never imports chat.

Thin by design: it parses frames, calls `games.services` (off the event loop) exactly as
the REST views do, and relays what `games.live.realtime` fans out after each commit.
Delivery is in version order without gaps: every change to a game adds one to its
version (`Game.version`, `v` on the wire), and each connection remembers the version
it last sent, drops any change at or below it, and on a gap (a change more than one
ahead) reads the game from the database before going on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any
from urllib.parse import parse_qs

from django.utils.translation import gettext_lazy as _

from accounts import ws_auth
from bloqueio_site import jsontext
from bloqueio_site.jsontext import iso
from bloqueio_site.off_loop import off_loop
from games import leavers, privacy, round_store, selectors, services, table
from games.live import fanout, hello, presence, subprotocols
from games.live.frames import (
    CLOSE_BANNED,
    CLOSE_INVALID_OPTION,
    CLOSE_NOT_FOUND,
    CLOSE_UNAUTHORIZED,
    TokenBucket,
    ref_of,
)
from games.live.sockets import BANNED, TOKEN_REFUSED, BaseConsumer
from games.round import Act, Leave, turn_based

log = logging.getLogger(__name__)

# A `sync` is a database read: its own, smaller budget within the frame rate, so that a
# crowd of sockets asking again and again cannot slow everyone's requests (a client
# needs one after a gap or a reconnect, not twenty a second).
SYNC_PER_SECOND = 2.0
SYNC_BURST = 5.0
NO_GAME = _("No game %(id)s.")
# `?frames=`: "whole" (the default) or "changes", smaller `event` frames (docs/realtime.md).
FRAMES_PARAM = "frames"
FRAME_CHOICES = ("whole", "changes")
BAD_FRAMES = _("`frames` must be \"whole\" or \"changes\".")

def _history_after(protocol: subprotocols.SubProtocol, game_id: int, user: Any,
                   after: int) -> list[dict[str, Any]] | None:
    game = selectors.get_game(game_id)
    if game is None:
        return None
    return protocol.history(game, user, after)


class GameConsumer(BaseConsumer):
    """`/ws/games/{id}/`: a game's changes in version order, for its players and
    spectators.

    Game messages come through `games.live.fanout` (encoded once per process, not per socket);
    this connection keeps the version it last sent (`v`) and the ply of the last event,
    drops what it already has and fills any gap from the database, holding back newer
    messages while it does.
    """

    # Class defaults: `disconnect` also runs for a socket refused before `connect`.
    filling: asyncio.Task[None] | None = None
    v = 0  # the game's version as of the latest change this socket sent
    last_ply = 0  # the ply of the latest event it sent
    # What decides which chat rooms this socket reads (a sub-protocol's `relays`), from
    # the latest game it sent (changes are sent in version order: never an older one).
    status = "waiting"
    in_game: list[bool] | None = None
    moderator = False
    # The latest game frame this socket sent: what the presence it publishes is judged
    # by (a leaver's grace needs the game's status, start, time control and seats).
    facts: dict[str, Any] | None = None
    answering = False  # a `sync` is being read: live messages wait behind its answer
    slim = False  # opened with `?frames=changes`: `event` frames carry a delta, not the game

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.seat: int | None = None
        self.syncs = TokenBucket(rate=SYNC_PER_SECOND, burst=SYNC_BURST, tokens=SYNC_BURST)
        # Messages that arrive before our hello went out, or during a gap fill, wait here.
        self.ready = False
        self.held: list[tuple[dict[str, Any], fanout.Frames]] = []
        if self.scope.get("auth_failed"):
            await self.refuse("authentication_failed", TOKEN_REFUSED, CLOSE_UNAUTHORIZED)
            return
        # An empty `?frames=` is refused too, not read as the default.
        frames = self._query(blank=True).get(FRAMES_PARAM, ["whole"])
        if len(frames) != 1 or frames[0] not in FRAME_CHOICES:
            await self.refuse("invalid_option", BAD_FRAMES, CLOSE_INVALID_OPTION)
            return
        self.slim = frames[0] == "changes"
        # Listen before reading (one read: games.live.hello): an event committed in
        # between then arrives as a duplicate (dropped), never as a loss, and a ban
        # committed in between either is seen by the read or reaches the account's topic.
        self.topic = fanout.game_topic(self.game_id)
        await self.join_all([self.topic] if self.user_id is None
                            else [fanout.user_topic(self.user_id), self.topic])
        # The credential too, read again beside the hello: a revocation committed since
        # the handshake read it sent its notice before we listened (ws_auth.standing).
        found, current = await asyncio.gather(
            hello.aread(self.game_id, self.user, self._invite_tokens(),
                        self.scope.get("session")),
            ws_auth.acurrent(self.scope))
        if not found.active:
            await self.refuse("banned", BANNED, CLOSE_BANNED)
            return
        if not current:
            await self.refuse_revoked()
            return
        if found.game is None:
            await self.refuse("not_found", NO_GAME, CLOSE_NOT_FOUND, {"id": self.game_id})
            return
        game = found.game
        self.seat, self.moderator = found.seat, found.moderator
        self.seat_count = len(game["seats"])
        self.v, self.last_ply = found.v, game["ply"]
        self._note(game)
        await self.accept()
        self.present = True
        back, raw = await presence.enter(self.game_id, self.conn_id, self.seat,
                                         self.seat_count)
        game["presence"] = leavers.public_presence(raw, game)
        await self.send_json({"type": "hello", "v": self.v, "you": {"seat": self.seat},
                              "game": game})
        for frame, messages in found.histories:  # read after subscribing: newer are held
            if messages:
                await self.send_json({"type": frame, "messages": messages})
        self.ready = True
        latest = self.hub.latest_v
        latest[self.topic] = max(latest.get(self.topic, 0), self.v)
        await self._release_held()
        await self._announce_presence(raw)
        if back and self.seat is not None:
            await self._announce_away(self.seat, None)  # came back: the countdown stops
        self.start_heartbeat()

    def _invite_tokens(self) -> list[str]:
        """The invitation tokens in this socket's URL, `?invite=` (games/privacy.py);
        the session's are read with the hello, off the loop."""
        return list(self._query().get(privacy.QUERY_PARAM, []))

    def _query(self, blank: bool = False) -> dict[str, list[str]]:
        return parse_qs(self.scope.get("query_string", b"").decode("latin-1"),
                        keep_blank_values=blank)

    async def disconnect(self, code: int) -> None:
        if self.filling is not None:
            self.filling.cancel()
        await super().disconnect(code)

    async def release(self) -> None:
        await super().release()
        if getattr(self, "present", False):  # accepted: it counted in presence
            self.present = False  # once
            try:
                raw = await presence.depart(self.game_id, self.conn_id, self.seat,
                                            self.seat_count)
                await self._announce_presence(raw)
                if self.seat is not None and self.seat in raw["away"]:  # its last socket
                    await self._announce_away(self.seat, raw["away"][self.seat])
            except Exception:
                log.warning("presence update failed on disconnect", exc_info=True)

    async def on_heartbeat(self) -> None:
        await presence.touch(self.game_id, self.conn_id, self.seat)
        if self.hub.latest_v.get(self.topic, 0) > self.v:
            self._fill_gap()  # an announced change never reached us

    @property
    def presence(self) -> dict[str, Any] | None:
        return self.hub.presence_of(self.topic)

    async def _presence_snapshot(self) -> dict[str, Any]:
        return await presence.snapshot(self.game_id, self.seat_count)

    async def _announce_presence(self, raw: dict[str, Any]) -> None:
        """Publish `presence`'s raw snapshot as clients see it (games/leavers.py)."""
        snapshot = leavers.public_presence(raw, self.facts or {})
        await self.hub.publish((self.topic, {"type": "game.presence", "presence": snapshot,
                                             "at": time.time()}))

    async def _announce_away(self, seat: int, since: float | None) -> None:
        """Tell the game's sockets that `seat`'s player went (`until`: when its grace
        ends) or came back (`until` null). Nothing for a game with no grace (not
        running, turn-based) or a seat no person plays any more."""
        facts = self.facts or {}
        entry = next((s for s in facts.get("seats", []) if s["seat"] == seat), {})
        in_game = (facts.get("state") or {}).get("in_game") or []
        if (entry.get("bot") or facts.get("status") != "active"
                or turn_based(facts.get("time_control"))
                or (seat < len(in_game) and not in_game[seat])):
            return
        until = None
        if since is not None:
            until = leavers.grace_end(since=since, started_at=facts.get("started_at"),
                                      status="active", time_control=facts.get("time_control"))
        frame = {"type": "away", "seat": seat, "username": entry.get("username"),
                 "until": iso(until)}
        await self.hub.publish((self.topic, {"type": "game.away", "frame": frame}))

    def _note(self, game: dict[str, Any]) -> None:
        """Keep what decides this socket's chat rooms from the game it is sending (never
        older than the last: changes go out in version order)."""
        self.status = game["status"]
        self.in_game = game["state"].get("in_game")
        self.facts = game

    # -- client messages -------------------------------------------------------------------

    async def handle(self, kind: str, content: dict[str, Any]) -> None:
        ref = ref_of(content)
        if kind == "sync":
            if not self.syncs.take():
                await self.send_json(self.error(
                    "rate_limited", _("At most %(most)s syncs a second; you hold every event "
                                      "since your last answer."), ref,
                    {"most": f"{SYNC_PER_SECOND:g}"}))
                return
            after, known = content.get("after", 0), content.get("v")
            if type(after) is not int or after < 0:
                await self.send_json(self.error("invalid", _("`after` must be a ply >= 0."), ref))
                return
            if known is not None and (type(known) is not int or known < 0):
                await self.send_json(self.error(
                    "invalid", _("`v` must be a version of the game (an integer >= 0)."), ref))
                return
            histories = []
            for protocol in subprotocols.registered():
                since = content.get(protocol.sync_field)
                if since is None:
                    continue
                if type(since) is not int or since < 0:
                    await self.send_json(self.error("invalid", protocol.sync_field_error, ref))
                    return
                histories.append((protocol, since))
            await self._send_sync(after, known, histories)
        elif (protocol := subprotocols.for_frame(kind)) is not None:
            await protocol.handle(self, kind, content, ref)
        elif kind == "bot":
            if self.user_id is None or self.seat is None:
                await self.send_json(self.error(
                    "read_only", _("Spectators may only send sync and ping."), ref))
                return
            await self._hand_over(content, ref)
        elif kind in ("action", "resign"):
            if self.user_id is None or self.seat is None:
                await self.send_json(self.error(
                    "read_only", _("Spectators may only send sync and ping."), ref))
                return
            await self._write(kind, content, ref)
        else:
            await super().handle(kind, content)

    async def _write(self, kind: str, content: dict[str, Any], ref: Any) -> None:
        if kind == "resign":
            await self.answer(ref, self._resign, lambda ply: {"ply": ply},
                              what="a websocket resignation")
            return
        ply = content.get("ply")
        if type(ply) is not int:
            await self.send_json(self.error(
                "invalid", _("`ply` must be the game's current ply."), ref))
        elif not isinstance(content.get("action"), dict):
            await self.send_json(self.error(
                "invalid", _("`action` must be an action object."), ref))
        else:
            await self.answer(ref, lambda: self._move(content["action"], ply),
                              lambda done: {"ply": done.event.ply}, what="a websocket write")

    async def _move(self, action: Any, ply: int) -> table.Submitted:
        """The move through the game's one door, from this event loop (games/table.py)."""
        assert self.user_id is not None
        done = await table.handle_on_loop(
            self.game_id, self.user_id, Act(action, ply), ply,
            lambda: self.in_language(services.submit_action)(
                game_id=self.game_id, user=self.user, action=action, ply=ply))
        if isinstance(done, round_store.Written):
            return table.submitted(done)
        return done

    async def _resign(self) -> int:
        """The caller's seat leaves, through the same door; answers the ply after it."""
        assert self.user_id is not None
        done = await table.handle_on_loop(
            self.game_id, self.user_id, Leave("resign"), None,
            lambda: self.in_language(services.resign)(game_id=self.game_id, user=self.user))
        game = done.game if isinstance(done, round_store.Written) else done
        return int(game.ply)

    async def _hand_over(self, content: dict[str, Any], ref: Any) -> None:
        """`{"type": "bot", "seat": s, "level"?: ...}`: hand a leaver's seat to a bot,
        as `POST /api/games/{id}/seats/{seat}/bot/` does."""
        seat, level = content.get("seat"), content.get("level", leavers.DEFAULT_LEVEL)
        if type(seat) is not int or seat < 0:
            await self.send_json(self.error("invalid", _("`seat` must be a seat number."), ref))
            return
        await self.answer(ref, lambda: self.in_language(leavers.hand_to_bot)(
            game_id=self.game_id, seat=seat, user=self.user, level=level),
            lambda _game: {"seat": seat}, what="a websocket hand-over")

    async def _send_sync(self, after: int, known: int | None,
                         histories: list[tuple[subprotocols.SubProtocol, int]]) -> None:
        """Answer a `sync` (`known`: the version the client holds, if it said; a game
        still at it has no event to read). Changes committed while it reads are held and
        sent after the answer (those it already holds are dropped): sent before it, they
        would reach a client that is still behind, which drops them as a gap, and then an
        answer read before they committed, so the client would never get them. For each
        sub-protocol asked (`chat_after`), its history frame of the messages after that
        id follows (its live messages are held behind it too; the client drops the ids
        it has)."""
        self.answering = True
        try:
            found = await off_loop(selectors.events_and_game)(self.game_id, after, known)
            if found is None:
                await self.send_json(self.error("not_found", NO_GAME, params={"id": self.game_id}))
                return
            events, game = found.events, found.game
            game["presence"] = self.presence
            if found.v >= self.v:
                self._moved_to(found.v, game)
            await self.send_json({"type": "events", "v": found.v, "events": events,
                                  "game": game})
            for protocol, since in histories:
                found_after = await off_loop(_history_after)(protocol, self.game_id,
                                                             self.user, since)
                await self.send_json({"type": protocol.history_frame,
                                      "messages": found_after or []})
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
        elif kind == "game.away" or ((protocol := subprotocols.for_hub(kind))
                                     and protocol.relays(self, message)):
            self.post(frames.inner())  # a leaver's countdown; a sub-protocol's frame

    async def hub_reconnected(self) -> None:
        if self.hub.latest_v.get(self.topic, 0) > self.v:
            self._fill_gap()

    def _next(self, message: dict[str, Any]) -> bool:
        """Whether `message` is the change after the last one sent: False if it is old
        news (dropped) or if one is missing before it (the gap is filled from the
        database; `message` is then old news too)."""
        v = message["v"]
        if v <= self.v:
            return False  # already sent (by the hello, a sync or a gap fill)
        if v > self.v + 1:
            self._fill_gap()  # a change was lost, or overtaken by this one
            return False
        return True

    def _events(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        if not self._next(message):
            return
        events = message["events"]
        if events[0]["ply"] > self.last_ply + 1:
            self._fill_gap()  # cannot be, at the next version: but be whole
            return
        self.v = message["v"]
        texts = frames.changes() if self.slim else frames.events()
        for event, text in zip(events, texts, strict=True):
            if event["ply"] == self.last_ply + 1:
                self.last_ply = event["ply"]
                self.post(text)
        self._note(message["game"])

    def _moved_to(self, v: int, game: dict[str, Any]) -> None:
        """This socket is sending `game`, at version `v`, after skipping the changes in
        between (a gap fill, a catch-up, a sync answer). Those may have changed the seats
        (a join, a start, a hand-over): follow them as their own frames would have."""
        before = self.facts
        self.v, self.last_ply = v, max(self.last_ply, game["ply"])
        self._note(game)
        if (before is not None and before["seats"] == game["seats"]
                and before["status"] == game["status"]):
            return
        # In a running game the seats' holders changed (a start, a hand-over): the
        # presence is published again, as for those changes themselves.
        self._follow_seats(game, "handover" if game["status"] == "active" else "seats")

    def _catch_up(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        """The hub's one read for every socket of the game (after a lost notification):
        the events this socket lacks, with the game they lead to."""
        if message["v"] <= self.v:
            return
        events = message["events"]
        start = self.last_ply + 1 - (events[0]["ply"] if events else self.last_ply + 1)
        if start < 0:
            self._fill_gap()  # older than the hub read from: cannot happen, but be whole
            return
        self._moved_to(message["v"], message["game"])
        # One missing event goes out as usual; several (or none: a change that is not an
        # event) as a sync answer, since an `event` frame's game must be the game after
        # that event.
        text = frames.events()[start] if start == len(events) - 1 else frames.events_answer(start)
        self.post(text)

    def _fill_gap(self) -> None:
        if self.filling is None:
            self.filling = asyncio.get_running_loop().create_task(self._fill())

    async def _fill(self) -> None:
        """Send what the database has after our last version, then what arrived meanwhile:
        each missing event as an `event` frame; a change that is not an event (none
        missing) as an `events` frame with none, a sync answer's shape."""
        try:
            found = await off_loop(selectors.events_and_game)(self.game_id, self.last_ply)
            if found is not None and found.v > self.v:
                events, game = found.events, found.game
                game["presence"] = self.presence
                self._moved_to(found.v, game)
                for event in events:
                    await self.send_json({"type": "event", "v": found.v, "event": event,
                                          "game": game})
                if not events:
                    await self.send_json({"type": "events", "v": found.v, "events": [],
                                          "game": game})
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
        """A change that is not an event (a seat taken or left, the start, a hand-over,
        an abort), in its turn: a `game` frame."""
        if not self._next(message):
            return
        self.v = message["v"]
        game = dict(message["game"], presence=self.presence)
        self._note(game)
        self._follow_seats(game, message["change"])
        self.post(jsontext.dumps({"type": "game", "v": self.v, "change": message["change"],
                                  "game": game}))

    def _follow_seats(self, game: dict[str, Any], change: str) -> None:
        """Present this socket in the role `game`'s seats give its account."""
        if self.user_id is None:
            return
        seat = next((s["seat"] for s in game["seats"]
                     if s["username"] == self.user.username), None)
        if seat != self.seat:  # joined or left while connected: present as the new role
            previous, self.seat = self.seat, seat
            asyncio.get_running_loop().create_task(self._reseat(previous))
        elif self.seat is not None and change in ("started", "handover"):
            # A grace shows only in a running game and never for a bot's seat: the
            # players' sockets publish the presence again, judged by the new game.
            asyncio.get_running_loop().create_task(self._represent())

    async def _represent(self) -> None:
        try:
            await self._announce_presence(await self._presence_snapshot())
        except Exception as exc:
            log.warning("presence update of game %s failed (%r)", self.game_id, exc)

    async def _reseat(self, previous: int | None) -> None:
        """Present this socket in its new role (Redis: off the fan-out's path); not if it
        closed meanwhile (its release took it out of the presence; a touch would bring
        it back, a ghost for up to the presence's lifetime)."""
        try:
            await presence.leave(self.game_id, self.conn_id, previous)
            if not getattr(self, "present", False):
                return
            await presence.touch(self.game_id, self.conn_id, self.seat)
            await self._announce_presence(await self._presence_snapshot())
        except Exception as exc:
            log.warning("presence update of game %s failed (%r)", self.game_id, exc)
