"""Duplicate and racing submissions for one game, over REST and WebSocket at once.

Every round, at the same moment: the player to move sends the same action twice over
REST, a different action over REST, the same action from two of its sockets, retries it
on one of them, and sends the different action from the other; the next seat sends an
action out of turn; both channels retry the previous ply's action. Exactly one of them
may become the round's event; every other one must be refused with the code that says
why (`stale_ply` for the mover's losers and old plies, `not_your_turn`, or `stale_ply`
if it lost the race anyway, for the wrong seat). A last round races duplicate resigns
(`already_left`) against the mover's action.

Afterwards: the log has one event per ply, with no gap or duplicate; every accepted
submission is the event at the ply it was told; the game's projection equals the
engine's replay of the log; and every socket saw each event exactly once, in ply order.

Run twice: in-process (the ASGI app, REST through the Django test client in threads),
and against two real Daphne processes sharing PostgreSQL and Redis (REST over HTTP and
sockets spread over both), where only the database orders the writers.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator
from django.db import connection
from rest_framework.test import APIClient

from bloqueio_site.asgi import application
from games import engine, selectors
from games.models import Event, Game
from tests.live.servers import http_json, live_servers
from tests.live.ws_client import seated_game

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 8
WS_LAG = [0.0, 0.004, 0.008, 0.012, 0.016, 0.024, 0.032, 0.048]  # seconds, per round
LOCAL = [(b"origin", b"http://localhost"), (b"host", b"localhost")]

# (user, path, body) -> (HTTP status, JSON body)
Post = Callable[[Any, str, dict[str, Any]], tuple[int, Any]]


@dataclass
class Outcome:
    label: str
    ok: bool
    code: str | None = None
    ply: int | None = None  # for an accepted action: the ply of its event
    sent: dict[str, Any] | None = None  # the action it carried (None for a resign)


@dataclass
class Sock:
    """A game socket whose frames a background task collects."""

    name: str
    send_text: Callable[[str], Awaitable[None]]
    close: Callable[[], Awaitable[None]]
    frames: list[dict[str, Any]] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None

    def take(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)
        self.arrived.set()

    async def wait_for(self, done: Callable[[], Any], limit: float = 20) -> Any:
        """Wait until `done()` returns something true (checked on every new frame)."""
        async with asyncio.timeout(limit):
            while True:
                self.arrived.clear()
                if result := done():
                    return result
                await self.arrived.wait()

    async def send(self, frame: dict[str, Any]) -> None:
        await self.send_text(json.dumps(frame))

    async def reply(self, ref: str) -> dict[str, Any]:
        """The ack or error answering the frame sent with `ref`."""
        return await self.wait_for(lambda: next(
            (f for f in self.frames if f["type"] in ("ack", "error") and f.get("ref") == ref),
            None))

    def event_plies(self) -> list[int]:
        return [f["event"]["ply"] for f in self.frames if f["type"] == "event"]


# -- the two ways in ---------------------------------------------------------------------


def local_post(user: Any, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    """One REST call through the Django test client, in the calling thread."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    try:
        response = client.post(path, body, format="json")
        return response.status_code, response.json()
    finally:
        connection.close()  # this thread's connection must not outlive the test database


async def local_socket(name: str, user: Any | None, game_id: int) -> Sock:
    headers = LOCAL if user is None else [
        *LOCAL, (b"authorization", f"Token {user.auth_token.key}".encode())]
    comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    sock = Sock(name, lambda text: comm.send_to(text_data=text), comm.disconnect)

    async def read() -> None:
        while True:  # cancelled at the end; a timeout here would kill the consumer
            sock.take(await comm.receive_json_from(timeout=600))

    sock.reader = asyncio.create_task(read())
    return sock


async def live_socket(name: str, base: str, user: Any | None, game_id: int) -> Sock:
    headers = {"Origin": base.replace("ws://", "http://")}
    if user is not None:
        headers["Authorization"] = f"Token {user.auth_token.key}"
    ws = await websockets.connect(f"{base}/ws/games/{game_id}/", additional_headers=headers,
                                  open_timeout=10)
    sock = Sock(name, ws.send, ws.close)

    async def read() -> None:
        async for text in ws:
            frame = json.loads(text)
            sock.take(frame)
            if frame["type"] == "ping":
                await ws.send(json.dumps({"type": "pong"}))

    sock.reader = asyncio.create_task(read())
    return sock


# -- the race -------------------------------------------------------------------------------


def _game_now(game_id: int) -> tuple[int, int, engine.GameState]:
    game = Game.objects.get(pk=game_id)
    rules = engine.get(game.kind)
    return game.ply, game.state["turn"], rules.state_from_json(game.state)


def _two_actions(kind: str, state: engine.GameState) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two different legal actions of the seat to move: its first move and its last
    legal action (a barrier while it has any)."""
    legal = [a.to_json() for a in engine.get(kind).legal_actions(state)]
    first = next(a for a in legal if a["type"] == "move")
    return first, legal[-1]


async def _fire(post: Post, rest: list[tuple[str, Any, str, dict[str, Any]]],
                ws: list[tuple[str, Sock, dict[str, Any]]], ws_lag: float = 0.0
                ) -> list[Outcome]:
    """Send everything at once: REST threads released by one barrier with the sockets.

    A REST call takes longer to reach the database than a frame; `ws_lag` holds the
    frames back a little so that over the rounds either side gets to win (a scheduling
    nudge only: nothing asserts which side wins)."""
    barrier = threading.Barrier(len(rest) + 1)
    answers: list[tuple[int, Any] | None] = [None] * len(rest)

    def run(index: int, user: Any, path: str, body: dict[str, Any]) -> None:
        barrier.wait(30)
        answers[index] = post(user, path, body)

    threads = [threading.Thread(target=run, args=(i, user, path, body))
               for i, (_, user, path, body) in enumerate(rest)]
    for thread in threads:
        thread.start()
    await asyncio.to_thread(barrier.wait, 30)
    await asyncio.sleep(ws_lag)
    await asyncio.gather(*(sock.send(frame) for _, sock, frame in ws))
    for thread in threads:
        await asyncio.to_thread(thread.join, 60)

    outcomes = []
    for (label, _, _, request), answer in zip(rest, answers, strict=True):
        assert answer is not None, label
        status, body = answer
        sent = request.get("action")
        if status in (200, 201):
            ply = body["event"]["ply"] if status == 201 else body["ply"]
            outcomes.append(Outcome(label, True, ply=ply, sent=sent))
        else:
            assert set(body) >= {"code", "detail"}, (label, body)
            outcomes.append(Outcome(label, False, body["code"], sent=sent))
    for label, sock, frame in ws:
        reply = await sock.reply(frame["ref"])
        sent = frame.get("action")
        if reply["type"] == "ack":
            outcomes.append(Outcome(label, True, ply=reply["ply"], sent=sent))
        else:
            assert reply["detail"], reply
            outcomes.append(Outcome(label, False, reply["code"], sent=sent))
    return outcomes


async def race_game(post: Post, users: list[Any], game_id: int,
                    socks: dict[int, list[Sock]], watchers: list[Sock]) -> None:
    """Play ROUNDS racing rounds and a resign race, then check log, state and sockets."""
    kind = (await db(Game.objects.get)(pk=game_id)).kind
    seats = len(users)
    path = f"/api/games/{game_id}/actions/"
    accepted: list[tuple[int, int, dict[str, Any]]] = []  # (ply, seat, action)
    previous: tuple[int, dict[str, Any]] | None = None  # (seat, action) of the last round
    for round_no in range(ROUNDS):
        ply, seat, state = await db(_game_now)(game_id)
        assert ply == round_no  # exactly one event per round so far
        a, b = _two_actions(kind, state)
        mover, other = users[seat], users[(seat + 1) % seats]
        one, two = socks[seat]
        tag = f"r{round_no}"
        rest = [
            ("rest A", mover, path, {"action": a, "ply": ply}),
            ("rest A again", mover, path, {"action": a, "ply": ply}),
            ("rest B", mover, path, {"action": b, "ply": ply}),
            ("rest wrong seat", other, path, {"action": a, "ply": ply}),
        ]
        ws = [
            ("ws A", one, {"type": "action", "action": a, "ply": ply, "ref": f"{tag}-1"}),
            ("ws A other socket", two, {"type": "action", "action": a, "ply": ply,
                                        "ref": f"{tag}-2"}),
            ("ws A retried", one, {"type": "action", "action": a, "ply": ply,
                                   "ref": f"{tag}-3"}),
            ("ws B", two, {"type": "action", "action": b, "ply": ply, "ref": f"{tag}-4"}),
        ]
        if previous is not None:
            last_seat, last_action = previous
            rest.append(("rest old ply", users[last_seat], path,
                         {"action": last_action, "ply": ply - 1}))
            ws.append(("ws old ply", socks[last_seat][0],
                       {"type": "action", "action": last_action, "ply": ply - 1,
                        "ref": f"{tag}-5"}))
        outcomes = await _fire(post, rest, ws, WS_LAG[round_no % len(WS_LAG)])

        winners = [o for o in outcomes if o.ok]
        assert len(winners) == 1, outcomes
        assert winners[0].ply == ply + 1, outcomes
        chosen = winners[0].sent
        assert chosen in (a, b), outcomes
        for outcome in outcomes:
            if outcome.ok:
                continue
            allowed = {"not_your_turn", "stale_ply"} if "wrong seat" in outcome.label \
                else {"stale_ply"}
            assert outcome.code in allowed, (round_no, outcome)
        accepted.append((ply + 1, seat, chosen))
        previous = (seat, chosen)

    # Duplicate resigns of a seat that is not to move (two sockets, two REST calls),
    # racing the mover's action: one resign lands, the action lands unless it lost its
    # ply to the resign, and the log stays gapless.
    ply, seat, state = await db(_game_now)(game_id)
    quitter = (seat + 2) % seats
    a, _ = _two_actions(kind, state)
    resign_path = f"/api/games/{game_id}/resign/"
    outcomes = await _fire(post, [
        ("rest resign", users[quitter], resign_path, {}),
        ("rest resign again", users[quitter], resign_path, {}),
        ("rest mover A", users[seat], path, {"action": a, "ply": ply}),
    ], [
        ("ws resign", socks[quitter][0], {"type": "resign", "ref": "q-1"}),
        ("ws resign other socket", socks[quitter][1], {"type": "resign", "ref": "q-2"}),
    ])
    resigns = [o for o in outcomes if "resign" in o.label]
    assert sum(o.ok for o in resigns) == 1, outcomes
    assert {o.code for o in resigns if not o.ok} == {"already_left"}, outcomes
    action = next(o for o in outcomes if o.label == "rest mover A")
    assert action.ok or action.code == "stale_ply", outcomes

    events = await db(lambda: list(Event.objects.filter(game_id=game_id).order_by("ply")))()
    game = await db(Game.objects.get)(pk=game_id)
    assert [e.ply for e in events] == list(range(1, len(events) + 1))
    assert game.ply == len(events)
    for ply_, seat_, action_ in accepted:
        event = events[ply_ - 1]
        assert (event.seat, event.action) == (seat_, action_), ply_
    assert [e.seat for e in events if e.action["type"] == "resign"] == [quitter]
    replayed = engine.get(kind).replay(
        await db(selectors.engine_events)(game_id)).to_json()
    assert replayed == game.state

    # Every socket got every event once, in ply order (duplicates dropped, gaps filled).
    expected = list(range(1, game.ply + 1))
    everyone = [*watchers, *(s for pair in socks.values() for s in pair)]
    for sock in everyone:
        await sock.wait_for(lambda s=sock: len(s.event_plies()) >= game.ply)
        assert sock.event_plies() == expected, sock.name
        last = [f for f in sock.frames if f["type"] == "event"][-1]
        assert last["game"]["state"] == game.state, sock.name


async def _close_all(socks: list[Sock]) -> None:
    for sock in socks:
        if sock.reader is not None:
            sock.reader.cancel()
        with contextlib.suppress(Exception):  # already gone: nothing to clean up
            await sock.close()


# -- the tests --------------------------------------------------------------------------------


async def test_racing_rest_and_websocket_submissions_in_process():
    game, users = await seated_game("bloqueio")
    socks = {seat: [await local_socket(f"{u.username}-{i}", u, game.pk) for i in (1, 2)]
             for seat, u in enumerate(users)}
    watchers = [await local_socket("spectator", None, game.pk)]
    everyone = [*watchers, *(s for pair in socks.values() for s in pair)]
    try:
        await race_game(local_post, users, game.pk, socks, watchers)
    finally:
        await _close_all(everyone)


@pytest.mark.slow
async def test_racing_submissions_across_two_live_servers(tmp_path):
    game, users = await seated_game("bloqueio")
    with live_servers(2, tmp_path) as servers:
        calls = itertools.count()
        lock = threading.Lock()

        def post(user: Any, path: str, body: dict[str, Any]) -> tuple[int, Any]:
            with lock:  # alternate the REST calls between the two servers
                server = servers[next(calls) % 2]
            return http_json("POST", f"{server.http}{path}", body, user.auth_token.key)

        socks = {seat: [await live_socket(f"{u.username}-{i}", servers[i].ws, u, game.pk)
                        for i in (0, 1)] for seat, u in enumerate(users)}
        watchers = [await live_socket(f"spectator-{i}", servers[i].ws, None, game.pk)
                    for i in (0, 1)]
        everyone = [*watchers, *(s for pair in socks.values() for s in pair)]
        try:
            await race_game(post, users, game.pk, socks, watchers)
        finally:
            await _close_all(everyone)
