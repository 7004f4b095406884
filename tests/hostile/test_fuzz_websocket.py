"""Fuzzing the game socket: 10,000 generated frames against a live, seated game.

Each frame goes to a player's or a spectator's socket of a real two-seat game, through
the whole ASGI stack (origin check, session and token auth) with the Redis channel layer
and PostgreSQL. After each one, the test proves: the answer is the documented one (an
`error` with a code from docs/realtime.md, an `ack`, `events` or `pong`), the socket
still answers a `ping` with a `pong`, and the event log holds exactly the events of the
accepted actions, consecutive and matching the game's projection. Nothing logs a
traceback along the way.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import threading
from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db.models import Count, Max
from hypothesis import given, note
from hypothesis import strategies as st

from accounts.models import User
from bloqueio_site import limits, socket_limits
from bloqueio_site.asgi import application
from games import engine, projection, services
from games.live import game_socket, sockets
from games.live.frames import MAX_FRAME_BYTES, TokenBucket
from games.models import Game, Status
from tests.conftest import make_user
from tests.hostile.conftest import (
    BAD_LITERALS,
    FUZZ_MARKS,
    deep_nesting,
    duplicate_keys,
    fuzz_settings,
    game_actions,
    huge_text,
    ints,
    json_values,
    often,
    scalars,
    texts,
    tracebacks,
)

pytestmark = FUZZ_MARKS

WS_INPUTS = 10_000
KIND = "bloqueio2"
BATCH = 5
LOCAL = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
# Frames the server sends on its own (broadcasts, heartbeats), whatever we sent.
CHATTER = {"event", "presence", "game", "ping"}
PING = '{"type": "ping"}'
FRAME_KEYS = ["type", "after", "ply", "action", "ref"]


class _Current:
    """Stands for the game's current ply in a generated frame (known only at send time)."""

    def __repr__(self) -> str:
        return "CURRENT_PLY"


CURRENT = _Current()


# -- what a client might send -----------------------------------------------------------


def _ply() -> st.SearchStrategy[Any]:
    """Half the time the game's ply (so actions get as far as the rules), else anything."""
    return often(st.just(CURRENT), st.one_of(ints(), scalars()), 1)


def _ref() -> st.SearchStrategy[Any]:
    return st.one_of(texts(), st.text(min_size=190, max_size=260), ints(), st.floats(),
                     json_values())


def _objects() -> st.SearchStrategy[Any]:
    """JSON values a client might send: objects with known and unknown `type`s and
    random or ill-typed fields, and non-objects."""
    types = st.one_of(
        st.sampled_from(["ping", "pong", "sync", "action", "hello", "events", "error", "ack",
                         "ACTION", "sync ", "resign ", ""]),
        texts(),
        scalars(),
    )
    known_fields = {"after": json_values(), "ply": _ply(), "action": game_actions(),
                    "ref": _ref()}
    anything = st.fixed_dictionaries({"type": types}, optional=known_fields)
    action = st.fixed_dictionaries(
        {"type": st.just("action"), "action": game_actions(), "ply": _ply()},
        optional={"ref": _ref()})
    sync = st.fixed_dictionaries(
        {"type": st.just("sync")},
        optional={"after": st.one_of(ints(), scalars(), json_values()), "ref": _ref()})
    # Drawn rarely on purpose: an accepted resign ends alice's game, and a fresh game with
    # fresh sockets costs as much as a hundred other frames.
    resign = st.fixed_dictionaries({"type": st.just("resign")}, optional={"ref": _ref()})
    extra = st.tuples(anything, st.dictionaries(st.one_of(texts(8), st.sampled_from(FRAME_KEYS)),
                                                json_values(), max_size=3))
    return st.one_of(
        anything, often(action, sync), extra.map(lambda pair: {**pair[1], **pair[0]}),
        json_values(FRAME_KEYS),  # scalars, arrays and objects without a usable type
        often(action, resign, 7),  # resign last: hypothesis favours early branches
    )


def _raw_texts() -> st.SearchStrategy[str]:
    """Text frames no serializer would write."""
    literal = st.tuples(st.sampled_from(["sync", "action", "ping"]),
                        st.sampled_from(["after", "ply", "ref"]), st.sampled_from(BAD_LITERALS))
    return st.one_of(
        st.text(max_size=200),
        st.sampled_from(["{", "}", "[", "{type: ping}", "{'type': 'ping'}", '{"type": "ping"',
                         '{"type": "ping"}}', '{"type": "ping"} {}', "\ufeff" + PING,
                         '{"type": "\\ud800"}', '{"type": "ping\\u0000"}', "", " ", "null"]),
        literal.map(lambda t: f'{{"type": "{t[0]}", "{t[1]}": {t[2]}}}'),
        deep_nesting(),
        duplicate_keys(FRAME_KEYS),
        huge_text(MAX_FRAME_BYTES),
    )


def frames() -> st.SearchStrategy[tuple[str, Any]]:
    """(how, payload): "json" (an object serialized at send time), "text" or "bytes"."""
    objects = _objects().map(lambda obj: ("json", obj))
    texts_ = _raw_texts().map(lambda text: ("text", text))
    binary = st.one_of(st.binary(max_size=64), st.just(PING.encode())).map(lambda b: ("bytes", b))
    return often(often(objects, texts_, 2), binary, 5)


# -- what the server must answer ------------------------------------------------------------


def _strict(text: str) -> Any:
    """Standard JSON only: no NaN/Infinity, no number that overflows a double."""

    def refuse(name: str) -> Any:
        raise ValueError(name)

    def finite(number: str) -> float:
        value = float(number)
        if not math.isfinite(value):
            raise ValueError(number)
        return value

    return json.loads(text, parse_constant=refuse, parse_float=finite)


def expected_answer(how: str, payload: Any) -> str:
    """What the protocol (docs/realtime.md) promises for one frame: an error code, or
    "pong", "nothing" (a client `pong`), "reply" (one answer, not one of the frame-level
    codes above) or "refused" (any refusal)."""
    if how == "bytes":
        return "invalid_frame"
    if len(payload.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        return "too_large"
    try:
        content = _strict(payload)
    except RecursionError:
        # Nesting near the recursion limit parses or not depending on the stack depth of
        # the parsing thread (the server's differs from ours): either refusal is right.
        return "refused"
    except ValueError:
        return "invalid_json"
    if not isinstance(content, dict) or not isinstance(content.get("type"), str):
        return "invalid_frame"
    return {"ping": "pong", "pong": "nothing"}.get(content["type"], "reply")


class Table:
    """A started two-seat game (alice and bob) with two sockets on it: alice's and a
    spectator's.

    bob answers every accepted action of alice's at once, so it is alice's turn whenever
    a batch of frames arrives (two seats, not four: one answering move costs a third of
    three); a game that ends, or that alice left, is replaced. The sockets live on an
    event loop that runs all the time in its own thread, as a server's does (its
    background readers and heartbeats never stall between frames); this thread hands it
    coroutines and checks the database in between.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, users: list[User]) -> None:
        self.loop = loop
        self.users = users
        self.game_id = 0
        self.ply = 0
        self.sockets: dict[str, WebsocketCommunicator] = {}
        self.closing: list[WebsocketCommunicator] = []

    def run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=60)

    def start(self) -> None:
        """The first game, plus a spectator on a game of its own that stays open all
        along, as on any server with other live games: the process's fan-out hub
        (games/live/fanout.py) then keeps a listener while games are replaced. When its last
        listener leaves, Hub.leave races the hub's reader and logs a traceback; that is
        a bug of its own, not one of hostile input."""
        anchor = self.new_game()
        self.closing.append(self.connect(anchor, None))
        self.open()

    def new_game(self) -> int:
        """A started game (service calls off the loop, as the server makes them, so
        their broadcasts take the server's path)."""
        create = database_sync_to_async(services.create_game)
        join = database_sync_to_async(services.join_game)
        game = self.run(create(user=self.users[0], kind=KIND))
        for user in self.users[1:]:
            self.run(join(game_id=game.pk, user=user))
        return game.pk

    def connect(self, game_id: int, user: User | None) -> WebsocketCommunicator:
        headers = LOCAL if user is None else [
            *LOCAL, (b"authorization", f"Token {user.auth_token.key}".encode())]
        comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
        connected, _ = self.run(comm.connect(timeout=10))
        assert connected
        hello = self.run(self.answers(comm, pongs=0, until="hello"))
        assert hello[-1]["you"] == {"seat": 0 if user else None}
        return comm

    def open(self) -> None:
        """A fresh game with fresh sockets on it."""
        self.close()
        self.game_id, self.ply = self.new_game(), 0
        self.sockets = {"player": self.connect(self.game_id, self.users[0]),
                        "spectator": self.connect(self.game_id, None)}

    def healthy(self) -> bool:
        return all(not comm.future.done() for comm in self.sockets.values())

    def close(self) -> None:
        """Hang up without waiting for the consumers to finish, as a server would: one
        holding the channel layer's shared receive lock only stops when its Redis
        BZPOPMIN returns (up to 5 s). `finish` waits for them all at the end."""
        for comm in self.sockets.values():
            if not comm.future.done():
                self.run(comm.send_input({"type": "websocket.disconnect", "code": 1000}))
            self.closing.append(comm)
        self.sockets = {}

    def finish(self) -> None:
        """Close everything; a consumer that failed raises here."""
        self.close()
        for comm in self.closing:
            if not comm.future.done():
                self.run(comm.send_input({"type": "websocket.disconnect", "code": 1000}))
            self.run(comm.wait(timeout=10))

    async def answers(self, comm: WebsocketCommunicator, pongs: int,
                      until: str | None = None) -> list[dict[str, Any]]:
        """Frames up to the `pongs`-th pong (or the first `until` frame), chatter skipped.

        Every frame must be strict JSON: a client's parser would choke on NaN/Infinity.
        """
        seen: list[dict[str, Any]] = []
        while True:
            try:
                output = await comm.receive_output(timeout=10)
            except TimeoutError:
                raise AssertionError(f"no answer within 10 s; so far: {seen}") from None
            assert output["type"] == "websocket.send", f"the socket was closed: {output}"
            frame = _strict(output["text"])
            if frame["type"] == until:
                return [*seen, frame]
            if frame["type"] == "pong":
                pongs -= 1
                if pongs <= 0 and until is None:
                    return seen
            elif frame["type"] not in CHATTER:
                seen.append(frame)

    async def exchange(self, batch: list[tuple[str, str, Any]]) -> list[list[dict[str, Any]]]:
        """Send each frame followed by a ping, all at once (pipelined, as a busy client
        would), then split each socket's answers at the pongs: what came back for each
        frame, in the batch's order."""
        for who, how, payload in batch:
            # send_input, not send_to: the latter refuses empty frames; clients don't.
            field = "bytes" if how == "bytes" else "text"
            await self.sockets[who].send_input({"type": "websocket.receive", field: payload})
            await self.sockets[who].send_to(text_data=PING)
        results = []
        for who, how, payload in batch:
            pongs = 2 if expected_answer(how, payload) == "pong" else 1
            results.append(await self.answers(self.sockets[who], pongs))
        return results

    def others_play(self) -> None:
        """The other seat makes a legal move (the same choice for the same ply), so it is
        alice's turn again; a game that ended, or that alice left, is replaced."""
        submit = database_sync_to_async(services.submit_action)
        while True:
            game = Game.objects.get(pk=self.game_id)
            turn = game.state["turn"]
            if game.status != Status.ACTIVE or turn in (None, 0) or not game.state["in_game"][0]:
                break
            rules = engine.get(game.kind)
            legal = [a.to_json() for a in rules.legal_actions(rules.state_from_json(game.state))]
            moves = [a for a in legal if a["type"] == "move"] or legal
            self.run(submit(game_id=game.pk, user=self.users[turn],
                            action=moves[game.ply % len(moves)], ply=game.ply))
        self.ply = game.ply
        if game.status != Status.ACTIVE or not game.state["in_game"][0]:
            self.open()


def check_log(game_id: int, ply_before: int, acks: list[int]) -> int:
    """The event log holds exactly the acknowledged events; returns the game's ply.

    One query: with (game, ply) unique and plies >= 1, count == max means 1..n, no gap.
    """
    ply, count, top = Game.objects.filter(pk=game_id).annotate(
        n=Count("events"), top=Max("events__ply")).values_list("ply", "n", "top").get()
    assert count == (top or 0) == ply, f"log and projection disagree: {ply=} {count=} {top=}"
    if not acks:
        assert ply == ply_before, "a refused frame changed the event log"
        return ply
    # Each accepted action or resign is one event (maybe followed by forced passes).
    assert acks[0] == ply_before + 1 and acks == sorted(set(acks)) and acks[-1] <= ply, acks
    assert projection.check(Game.objects.get(pk=game_id)) is None, "the projection drifted"
    return ply


async def _cancel_pending() -> None:
    """Stop what the sockets left running (heartbeats, channel-layer reads)."""
    pending = asyncio.all_tasks() - {asyncio.current_task()}
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


@pytest.fixture
def server_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in a thread of its own for the whole test."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="fuzz-loop", daemon=True)
    thread.start()
    yield loop
    asyncio.run_coroutine_threadsafe(_cancel_pending(), loop).result(timeout=30)
    asyncio.run_coroutine_threadsafe(loop.shutdown_asyncgens(), loop).result(timeout=30)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=30)
    loop.close()


def check_answer(who: str, how: str, payload: Any, answers: list[dict[str, Any]],
                 ws_codes: set[str]) -> None:
    """One frame's answer is the one docs/realtime.md promises."""
    expected = expected_answer(how, payload)
    if expected in ("pong", "nothing"):
        assert answers == []
        return
    assert len(answers) == 1, answers
    (answer,) = answers
    assert answer["type"] in ("error", "ack", "events"), answer
    if answer["type"] == "error":
        assert answer["code"] in ws_codes, f"undocumented code {answer['code']}"
        assert isinstance(answer["detail"], str) and answer["detail"]
        assert "ref" in answer
    if expected == "refused":
        assert answer["type"] == "error", answer
    elif expected != "reply":
        assert answer.get("code") == expected, answer
    if who == "spectator":
        assert answer["type"] != "ack", "a spectator's action was accepted"


def test_fuzzed_frames_never_break_the_socket_or_the_log(
    monkeypatch: pytest.MonkeyPatch, server_loop: asyncio.AbstractEventLoop,
    warning_log: list[logging.LogRecord], ws_codes: set[str],
) -> None:
    # 10,000 frames at full speed would be mostly `rate_limited` refusals (20/s, bursts
    # of 40) and never reach the parsing and game logic under test, so the consumers here
    # get a bucket too deep to run dry. The limiter itself keeps its own test:
    # tests/games/test_consumers.py::test_floods_are_rate_limited.
    for module in (sockets, game_socket):
        monkeypatch.setattr(module, "TokenBucket",
                            partial(TokenBucket, rate=1e9, burst=1e9, tokens=1e9))
    # Each game a fuzzed frame ends opens two sockets more: more than 60 a minute from
    # this one address is not what is under test (tests/site/test_socket_limits.py is).
    monkeypatch.setattr(socket_limits, "OPENS", limits.Rate("socket_opens", 10**6, 60))
    users = [make_user(name) for name in ("alice", "bob")]
    table = Table(server_loop, users)
    sent = 0

    # Frames go in batches of BATCH (each still followed by its own ping): one round trip
    # and one database check per batch keep 10,000 frames within about a minute.
    @fuzz_settings(WS_INPUTS // BATCH)
    @given(batch=st.lists(st.tuples(st.sampled_from(["player", "spectator"]), frames()),
                          min_size=BATCH, max_size=BATCH))
    def some_frames(batch: list[tuple[str, tuple[str, Any]]]) -> None:
        nonlocal sent
        if not table.healthy():
            table.open()  # an earlier example broke a socket: shrink from a sane table
        ply_before = table.ply
        ready = []
        for who, (how, payload) in batch:
            if how == "json":  # the game's ply where the frame asks for it
                payload = json.dumps(payload, default=lambda _: ply_before)
            note(f"to the {who}'s socket as {how}: {payload[:2000]!r}")
            ready.append((who, how, payload))
        results = table.run(table.exchange(ready))
        sent += len(ready)
        for (who, how, payload), answers in zip(ready, results, strict=True):
            check_answer(who, how, payload, answers, ws_codes)
        acks = [a["ply"] for answers in results for a in answers if a["type"] == "ack"]
        table.ply = check_log(table.game_id, ply_before, acks)
        if table.ply != ply_before:
            table.others_play()

    try:
        table.start()
        some_frames()
        assert sent >= WS_INPUTS
        # Checked before the sockets close: see Table.start on the fan-out hub.
        assert tracebacks(warning_log) == []
    finally:
        table.finish()
