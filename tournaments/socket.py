"""The tournament socket, `/ws/tournaments/{id}/`: a tournament's page, live.

Public, as the page is: anyone may watch. It sends the tournament as the API's detail
shows it (`hello`), then a `tournament` frame with the whole tournament after each
change (tournaments/live.py), each with the tournament's version `v`. A frame is the
whole state, so a client keeps the newest `v` it got and drops any frame at or below it;
a frame more than one ahead loses nothing. This socket itself sends versions in
increasing order only, and checks the database's version at every heartbeat and after
the fan-out lost Redis, so a notice lost on the way (a process killed between its
commit and its PUBLISH) is caught up.
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils.translation import gettext_lazy as _

from bloqueio_site import jsontext
from bloqueio_site.off_loop import off_loop
from games.live import fanout
from games.live.frames import CLOSE_NOT_FOUND, CLOSE_UNAUTHORIZED
from games.live.sockets import TOKEN_REFUSED, UNAVAILABLE_ERRORS, BaseConsumer
from tournaments import live

log = logging.getLogger(__name__)

NO_TOURNAMENT = _("No tournament %(id)s.")


class TournamentConsumer(BaseConsumer):
    """`/ws/tournaments/{id}/`: the tournament now, then every change, newest only."""

    v = -1  # the version of the last tournament this socket sent (none yet)
    ready = False  # the hello is out: frames before it wait in `held`

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.held: list[dict[str, Any]] = []
        if self.scope.get("auth_failed"):
            await self.refuse("authentication_failed", TOKEN_REFUSED, CLOSE_UNAUTHORIZED)
            return
        if not await self.listen_for_ban():
            return
        # Listen before reading: a change that commits meanwhile arrives as a frame at or
        # below the hello's version (dropped) or above it (sent), never as a loss.
        await self.join(live.topic(self.tournament_id))
        found = await off_loop(live.current)(self.tournament_id)
        if found is None:
            await self.refuse("not_found", NO_TOURNAMENT, CLOSE_NOT_FOUND,
                              {"id": self.tournament_id})
            return
        await self.accept()
        self.v = found["v"]
        await self.send_json({**found, "type": "hello"})
        self.ready = True
        held, self.held = self.held, []
        for message in held:
            self._newer(message)
        self.start_heartbeat()

    async def hub_message(self, message: dict[str, Any], frames: fanout.Frames) -> None:
        if message["type"] != live.FRAME:
            await super().hub_message(message, frames)
        elif not self.ready:
            self.held.append(message)
        elif message["v"] > self.v:
            self.v = message["v"]
            self.post(frames.whole())  # encoded once per process for all its sockets

    def _newer(self, message: dict[str, Any]) -> None:
        if message["v"] > self.v:
            self.v = message["v"]
            self.post(jsontext.dumps(message))

    async def on_heartbeat(self) -> None:
        await self._catch_up()

    async def hub_reconnected(self) -> None:
        await self._catch_up()

    async def _catch_up(self) -> None:
        """If the database has a newer version than this socket sent, send it (one
        cheap read of the version; the whole tournament only when it moved)."""
        if not self.ready:
            return
        try:
            v = await off_loop(live.version)(self.tournament_id)
            if v is None or v <= self.v:
                return
            found = await off_loop(live.current)(self.tournament_id)
        except UNAVAILABLE_ERRORS as exc:  # the database is down: try at the next beat
            log.warning("tournament %s: catch-up failed (%r)", self.tournament_id, exc)
            return
        if found is not None:
            self._newer(found)
