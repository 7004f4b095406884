"""Fuzzing the REST API: 10,000 generated requests against every read and write endpoint.

Bodies are random JSON (plausible shapes with ill-typed fields, and anything at all),
non-JSON, wrong content types, invalid UTF-8, duplicate keys, deep nesting and bodies
over the size limit; query strings and path parts are random too; callers are seated
players, the seat to move, strangers, anonymous clients and broken tokens. For each
request the test proves: no 5xx; every refusal is `{code, detail}` with a (status, code)
pair from the table in docs/api.md; the watched games' event logs change exactly as the
accepted writes say (nothing half-written) and agree with their projections; and a valid
request still succeeds afterwards. Nothing logs a traceback along the way.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest
from django.db.models import Count, Max
from hypothesis import given, note
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import engine, projection, services
from games.models import Game, Seat, Status
from tests.conftest import PASSWORD, client_for, make_user
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

REST_INPUTS = 10_000
# Requests per generated example: hypothesis' own work per example is then shared, and
# the database and "still works" checks run once per batch (each request is still
# checked on its own answer).
BATCH = 10
MAX_BODY = 64 * 1024
KINDS = list(engine.KINDS)
ACTIVE_KIND = "bloqueio2"  # the game alice and bob play


class _Current:
    """Stands for the active game's current ply in a body (known only at send time)."""

    def __repr__(self) -> str:
        return "CURRENT_PLY"


CURRENT = _Current()


class Legal:
    """Stands for one of the active game's legal actions (the `index`-th, wrapped)."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __repr__(self) -> str:
        return f"LEGAL_ACTION[{self.index}]"


# name -> (method, path template); {game}, {user} and {kind} are filled at send time.
ENDPOINTS = {
    "register": ("POST", "/api/auth/register/"),
    "token": ("POST", "/api/auth/token/"),
    "me": ("GET", "/api/me/"),
    "profile": ("GET", "/api/users/{user}/"),
    "history": ("GET", "/api/users/{user}/rating-history/{kind}/"),
    "list": ("GET", "/api/games/"),
    "create": ("POST", "/api/games/"),
    "game": ("GET", "/api/games/{game}/"),
    "join": ("POST", "/api/games/{game}/join/"),
    "leave": ("POST", "/api/games/{game}/leave/"),
    "actions": ("POST", "/api/games/{game}/actions/"),
    "resign": ("POST", "/api/games/{game}/resign/"),
    "events": ("GET", "/api/games/{game}/events/"),
    "replay": ("GET", "/api/games/{game}/replay/"),
    "legal": ("GET", "/api/games/{game}/legal-actions/"),
    "export": ("GET", "/api/games/{game}/export/"),
    "queue": ("POST", "/api/matchmaking/"),
    "queue_poll": ("GET", "/api/matchmaking/"),
    "queue_leave": ("DELETE", "/api/matchmaking/"),
    "leaderboard": ("GET", "/api/leaderboard/{kind}/"),
}
QUERY_KEYS = {"list": ["status", "kind", "page"], "events": ["after"], "replay": ["ply"],
              "leaderboard": ["page"]}


# -- what a client might send -----------------------------------------------------------


def _bodies(name: str) -> st.SearchStrategy[Any]:
    """JSON bodies shaped for the endpoint, with random and ill-typed fields."""
    usernames = st.one_of(st.sampled_from(["alice", "ALICE", "bob", "zed", "a" * 151]), texts())
    if name == "register":
        fields = {"username": usernames, "password": st.one_of(
            st.just("a-long-pass-phrase-1"), texts(), st.text(min_size=120, max_size=140)),
            "email": st.one_of(st.just("x@example.org"), texts())}
    elif name == "token":
        fields = {"username": usernames, "password": st.one_of(st.just(PASSWORD), texts())}
    elif name == "create":
        fields = {"kind": st.one_of(st.sampled_from(KINDS), texts(), scalars()),
                  "ranked": st.one_of(st.booleans(), scalars()),
                  "time_control": st.one_of(
                      st.none(), st.fixed_dictionaries(
                          {"initial": st.one_of(st.integers(0, 90000), ints(), scalars()),
                           "increment": st.one_of(st.integers(-1, 700), ints(), scalars())}),
                      st.fixed_dictionaries(
                          {"days": st.one_of(st.sampled_from([1, 2, 3, 5, 7, 14]),
                                             st.integers(-1, 30), ints(), scalars())},
                          optional={"initial": st.integers(0, 90000)}),
                      json_values())}
    elif name == "join":
        fields = {"seat": st.one_of(st.integers(-1, 4), ints(), scalars())}
    elif name == "actions":
        fields = {"action": often(st.integers(0, 200).map(Legal), game_actions(), 1),
                  "ply": often(st.just(CURRENT), st.one_of(ints(), scalars()))}
    elif name == "queue":
        fields = {"kind": st.one_of(st.sampled_from(KINDS), texts(), scalars()),
                  "time_control": st.one_of(
                      st.none(), st.fixed_dictionaries({"days": st.integers(-1, 30)}),
                      json_values())}
    else:
        return json_values()
    complete = st.fixed_dictionaries(fields)
    partial = st.fixed_dictionaries({}, optional=fields)
    extra = st.dictionaries(texts(8), json_values(), max_size=2)
    return often(complete, st.one_of(
        partial, st.tuples(complete, extra).map(lambda p: {**p[1], **p[0]}),
        json_values(list(fields))), 2)


def _raw_bodies(keys: list[str]) -> st.SearchStrategy[bytes]:
    """Bodies no JSON serializer would write."""
    literal = st.tuples(st.sampled_from(keys or ["x"]), st.sampled_from(BAD_LITERALS))
    return st.one_of(
        st.binary(max_size=64),
        st.text(max_size=100).map(str.encode),
        st.sampled_from([b"", b"{", b"null", b"[]", b"\xff\xfe{}", b"\xef\xbb\xbf{}",
                         b'{"a": "\xc3\x28"}', b"{'kind': 'bloqueio'}", b"kind=bloqueio",
                         b'{"ply": 0,}', b'{"ply": 0} {"ply": 1}']),
        literal.map(lambda p: f'{{"{p[0]}": {p[1]}}}'.encode()),
        deep_nesting().map(str.encode),
        duplicate_keys(keys or ["x"]).map(str.encode),
        huge_text(MAX_BODY).map(str.encode),
    )


CONTENT_TYPES = ["text/plain", "application/x-www-form-urlencoded",
                 "multipart/form-data; boundary=xyz", "application/json; charset=latin-1",
                 "application/xml", "", "application/vnd.api+json", "*/*"]


def _query(name: str) -> st.SearchStrategy[list[tuple[str, str]]]:
    keys = st.one_of(st.sampled_from(QUERY_KEYS.get(name, ["page"])), texts(6))
    values = st.one_of(
        st.integers(-2, 12).map(str), ints().map(str), texts(),
        st.sampled_from(["", "1e9999", "1.0", "0x1", " 1", "1 ", "٣", "+1", "-0", "9" * 40,
                         "waiting", "active", "finished", "aborted", *KINDS]))
    # Rarely, more parameters than Django takes (DATA_UPLOAD_MAX_NUMBER_FIELDS, 1000).
    crowd = st.integers(1001, 1100).map(lambda n: [("x", "1")] * n)
    return often(st.lists(st.tuples(keys, values), max_size=3), crowd, 19)


GARBAGE_AUTH = st.one_of(texts(), st.sampled_from([
    "Token", "Token ", "Bearer x", "token a b", "Token " + "f" * 40, "Token \x00", "Token é"]))


def requests_() -> st.SearchStrategy[dict[str, Any]]:
    """One request: endpoint, method, path parts, query, body, content type, caller
    (a user's name, "turn" for the seat to move, "anon", or a raw Authorization header)."""

    def build(name: str) -> st.SearchStrategy[dict[str, Any]]:
        method, template = ENDPOINTS[name]
        keys = {"register": ["username", "password", "email"], "token": ["username", "password"],
                "create": ["kind", "ranked", "time_control"], "join": ["seat"],
                "actions": ["action", "ply"], "queue": ["kind", "time_control"]}.get(name, [])
        body = often(_bodies(name).map(lambda b: ("json", b)),
                     _raw_bodies(keys).map(lambda b: ("raw", b)), 2)
        none = st.just(("none", None))
        # Mostly requests a real client could mean (JSON, a known caller, the method the
        # endpoint takes), so the refusals deep inside get reached, not only the gates.
        fields: dict[str, st.SearchStrategy[Any]] = {
            "name": st.just(name),
            "method": often(st.just(method), st.sampled_from(
                ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]), 5),
            "query": _query(name),
            # Bodies on reads are rare (and ignored): the writes are where they matter.
            "body": body if method != "GET" else often(none, body),
            "content_type": often(st.just("application/json"), st.sampled_from(CONTENT_TYPES)),
            "who": often(
                st.sampled_from(["turn", "turn", "turn", "alice", "bob", "carol", "dave"]),
                st.one_of(st.just("anon"), GARBAGE_AUTH.map(lambda header: ("header", header))),
                5),
            "accept": often(st.sampled_from(["application/json", ""]), st.sampled_from(
                ["*/*", "text/html", "application/xml", "garbage", "application/*"]), 5),
        }
        if "{game}" in template:
            seated = ["waiting", "waiting", "active"] if name in ("join", "leave") else \
                ["active", "active", "waiting"]
            fields["game"] = often(st.sampled_from([*seated, "finished"]), st.one_of(
                st.integers(0, 10**6).map(str), st.sampled_from(["0", "9" * 30, "00001"])))
        if "{user}" in template:
            fields["user"] = st.one_of(st.sampled_from(["alice", "ALICE", "dave", "nobody"]),
                                       texts())
        if "{kind}" in template:
            fields["kind"] = st.one_of(st.sampled_from(KINDS), texts())
        return st.fixed_dictionaries(fields)

    # Built once per endpoint: a flatmap would build (and hypothesis re-validate) fresh
    # strategies on every draw, which cost more than the requests themselves.
    return st.one_of(*[build(name) for name in sorted(ENDPOINTS)])


REQUESTS = requests_()


# -- the world the requests land in ---------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """What the checks compare of a watched game between two snapshots."""

    ply: int
    events: int
    top: int | None  # highest event ply
    status: str
    seats: list[str]  # seated usernames, sorted
    state: dict[str, Any]
    turn: str | None  # username of the seat to move


class World:
    """alice and bob play a two-seat game ("active"); carol waits in another ("waiting");
    a finished game ("finished"); dave has no seat. A game that ends or starts is
    replaced, so every batch finds the same cast."""

    def __init__(self) -> None:
        self.users = {name: make_user(name) for name in ("alice", "bob", "carol", "dave")}
        self.clients = {name: client_for(user) for name, user in self.users.items()}
        self.clients["anon"] = APIClient()
        for client in self.clients.values():
            client.raise_request_exception = False  # a 500 is an answer to check here
        finished = services.create_game(user=self.users["carol"], kind="quoridor")
        services.join_game(game_id=finished.pk, user=self.users["dave"])
        services.resign(game_id=finished.pk, user=self.users["dave"])
        self.games = {"finished": finished.pk}
        self.ply, self.turn, self.legal = 0, "alice", []
        self.last: dict[int, Row] | None = None

    def ready(self) -> dict[int, Row]:
        """The snapshot a batch starts from: the last batch's, unless a watched game had
        to be replaced (the active one ended; the waiting one started or was given up)."""
        rows = self.last if self.last is not None else self.snapshot()
        active, waiting = self.games.get("active"), self.games.get("waiting")
        replaced = False
        if active is None or rows[active].status != Status.ACTIVE:
            game = services.create_game(user=self.users["alice"], kind=ACTIVE_KIND)
            services.join_game(game_id=game.pk, user=self.users["bob"])
            self.games["active"] = game.pk
            replaced = True
        if waiting is None or rows[waiting].status != Status.WAITING:
            self.games["waiting"] = services.create_game(
                user=self.users["carol"], kind="quoridor").pk
            replaced = True
        if replaced:
            rows = self.snapshot()
        active_row = rows[self.games["active"]]
        self.note(active_row.ply, active_row.state, active_row.turn)
        return rows

    def note(self, ply: int, state: dict[str, Any], turn: str | None) -> None:
        """Remember the active game's ply, the seat to move and its legal actions, for
        the placeholders of the next bodies (from a snapshot or a write's answer)."""
        rules = engine.get(ACTIVE_KIND)
        parsed = rules.state_from_json(state)
        self.ply, self.turn = ply, turn or "alice"
        self.legal = [a.to_json() for a in rules.legal_actions(parsed)] \
            if parsed.turn is not None else []

    def resolve(self, marker: Any) -> Any:
        """The value a placeholder in a generated body stands for, right now."""
        if isinstance(marker, Legal):
            return self.legal[marker.index % len(self.legal)] if self.legal else {}
        return self.ply

    def snapshot(self) -> dict[int, Row]:
        """The watched games as the database has them: two queries."""
        games = Game.objects.filter(pk__in=self.games.values()).annotate(
            n=Count("events"), top=Max("events__ply")).values_list(
            "pk", "ply", "n", "top", "status", "state")
        seats: dict[int, dict[int, str]] = {}
        for game_id, seat, username in Seat.objects.filter(
                game__in=self.games.values()).values_list("game_id", "seat", "user__username"):
            seats.setdefault(game_id, {})[seat] = username
        return {pk: Row(ply, n, top, status, sorted(seats.get(pk, {}).values()), state,
                        seats.get(pk, {}).get(state.get("turn")))
                for pk, ply, n, top, status, state in games}

    def send(self, request: dict[str, Any]) -> Any:
        name = request["name"]
        _, template = ENDPOINTS[name]
        game = self.games.get(request.get("game", ""), request.get("game"))
        path = template.format(game=game, user=quote(request.get("user", ""), safe=""),
                               kind=quote(request.get("kind", ""), safe=""))
        if request["query"]:
            path += "?" + "&".join(f"{quote(k, safe='')}={quote(v, safe='')}"
                                   for k, v in request["query"])
        how, body = request["body"]
        # JSON bodies get the active game's ply where they ask for it.
        data = (json.dumps(body, default=self.resolve).encode() if how == "json"
                else body or b"")
        who = self.turn if request["who"] == "turn" else request["who"]
        headers = {"accept": request["accept"]} if request["accept"] else {}
        if isinstance(who, tuple):  # any Authorization header at all
            client = self.clients["anon"]
            headers["authorization"] = who[1]
        else:
            client = self.clients[who]
        # As a server hands them over: header bytes read as latin-1 (WSGI and ASGI both).
        headers = {k: v.encode("utf-8", "surrogatepass").decode("latin-1")
                   for k, v in headers.items()}
        content_type = request["content_type"]
        if len(request["query"]) > 1000:
            # Django builds a request's GET while it reads a charset from the content type
            # (HttpRequest.encoding's setter), so past DATA_UPLOAD_MAX_NUMBER_FIELDS that
            # raises inside the request's constructor, out of any handler: a 500 on ASGI
            # too. Known and reported for bloqueio_site/asgi.py, which can only fix the
            # server's path, not the test client's: here the crowd comes without charset.
            content_type = content_type.split(";")[0]
        note(f"{request['method']} {path[:300]} as {who}, {content_type!r}: {data[:300]!r}")
        return client.generic(request["method"], path, data, content_type=content_type,
                              headers=headers)


def check_refusal(response: Any, rest_codes: dict[str, set[int]]) -> None:
    """Every refusal is `{code, detail}` with a documented (status, code) pair."""
    if response.request["REQUEST_METHOD"] == "HEAD":
        return  # no body by definition
    body = json.loads(response.content)
    assert isinstance(body, dict) and isinstance(body.get("detail"), str), body
    code = body.get("code")
    assert code in rest_codes, f"undocumented error code {code!r}: {body}"
    assert response.status_code in rest_codes[code], \
        f"{code} is documented with {rest_codes[code]}, not {response.status_code}"


def changed_game(request: dict[str, Any], response: Any, games: dict[str, int]) -> int | None:
    """The watched game a request may have changed: the target of a write that says it
    succeeded, named or by number (a random id can be a watched game's, and the path's
    `<int:game_id>` reads `00003` as 3)."""
    if response.status_code >= 300 or request["method"] != "POST":
        return None
    if request["name"] not in ("actions", "resign", "join", "leave"):
        return None
    game = request.get("game", "")
    game_id = games.get(game, int(game) if game.isdigit() else None)
    return game_id if game_id in games.values() else None


def test_fuzzed_requests_never_fail_the_server_or_the_log(
    warning_log: list[logging.LogRecord], rest_codes: dict[str, set[int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The fuzzed POST /api/games/ leave games waiting for alice and carol, and the World
    # creates its own beside them: the open-games cap (tests/games/test_lobby_limits.py)
    # is not what this test is about.
    monkeypatch.setattr(services, "OPEN_GAMES_PER_USER", 10_000)
    world = World()
    sent = 0

    @fuzz_settings(REST_INPUTS // BATCH)
    @given(batch=st.lists(REQUESTS, min_size=BATCH, max_size=BATCH))
    def some_requests(batch: list[dict[str, Any]]) -> None:
        nonlocal sent
        before = world.ready()
        world.last = None  # set again only if this batch passes (a failure is replayed)
        changed: dict[int, dict[str, Any]] = {}
        for request in batch:
            response = world.send(request)
            sent += 1
            assert response.status_code < 500, response.content[:500]
            if response.status_code >= 400:
                check_refusal(response, rest_codes)
            elif response.content and request["method"] != "HEAD":
                json.loads(response.content)  # strict: the renderer refuses NaN itself
            target = changed_game(request, response, world.games)
            if target is not None:
                body = response.json()
                game = changed[target] = body.get("game", body)
                if target == world.games["active"]:
                    turn = game["state"]["turn"]
                    world.note(game["ply"], game["state"],
                               None if turn is None else game["seats"][turn]["username"])
        after = world.last = world.snapshot()
        for game_id, row in after.items():
            assert row.events == (row.top or 0) == row.ply, \
                f"game {game_id}: event log and projection disagree"
            old = before[game_id]
            game = changed.get(game_id)
            if game is None:
                assert (row.ply, row.status, row.seats) == (old.ply, old.status, old.seats), \
                    f"game {game_id} changed without an accepted write"
                continue
            # The last accepted write says where the game is now: nothing more or less.
            assert row.ply == game["ply"] >= old.ply
            assert row.seats == sorted(s["username"] for s in game["seats"] if s["username"])
            assert projection.check(Game.objects.get(pk=game_id)) is None
        # A valid request still works afterwards, and reads what the log says.
        active = world.games["active"]
        response = world.clients["alice"].get(f"/api/games/{active}/events/?after=0")
        assert response.status_code == 200, response.content[:300]
        assert len(response.json()["events"]) == after[active].ply

    some_requests()
    assert sent >= REST_INPUTS
    assert tracebacks(warning_log) == []
