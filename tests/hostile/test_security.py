"""Security checks, one place: CSRF, WebSocket Origin, login throttling, private data,
frame size and message-rate limits.

Proved elsewhere, not repeated here (docs/operations.md, "Security checks", lists all):
`check --deploy` is clean (tests/site/test_settings.py), a ban refuses the token and
closes the sockets (tests/accounts/test_bans.py, tests/accounts/test_ban_sockets.py),
the basic lock-outs of the token API and the login page (tests/accounts/).
"""

from __future__ import annotations

import functools
import json
from typing import Any
from urllib.parse import urlencode

import pytest
import websockets
from channels.db import database_sync_to_async as db
from channels.testing import WebsocketCommunicator
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from accounts.models import User
from bloqueio_site.asgi import application
from games import services
from games.live import consumers, game_socket, sockets
from games.live.frames import CLOSE_FLOOD, FLOOD_CLOSE_AFTER, MAX_FRAME_BYTES, RATE_BURST
from games.models import Event, Game, QueueEntry, Seat
from games.ranked import matchmaking
from notifications.models import Kind, Notification
from notifications.services import notify
from tests.conftest import PASSWORD, make_user
from tests.games.helpers import started_game
from tests.live.servers import live_servers
from tests.openings import MOVE0
from tests.ws_helpers import receive_type, until_closed
from tournaments import services as tournaments

LOCAL = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def _token_headers(user: User, origin: bytes | None = b"http://localhost"
                   ) -> list[tuple[bytes, bytes]]:
    headers = [(b"host", b"localhost"), (b"authorization", f"Token {user.auth_token.key}".encode())]
    return headers if origin is None else [(b"origin", origin), *headers]


# -- CSRF ---------------------------------------------------------------------------------


def _session_api(user: User) -> tuple[APIClient, str]:
    """A browser-like API client signed in by session, CSRF enforced, and its CSRF token."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/")  # the lobby renders a form: sets the csrftoken cookie
    return client, client.cookies["csrftoken"].value


def _footprint() -> tuple[int, int, int, int]:
    return (Game.objects.count(), Seat.objects.count(), Event.objects.count(),
            QueueEntry.objects.count())


def _session_writes(alice: Any, bob: Any) -> list[tuple[str, str, Any, int]]:
    """Alice's writes over the API, in an order that lets each succeed: (method, url,
    body, the status when it does)."""
    open_game = services.create_game(user=bob, kind="quoridor4").pk
    playing = started_game([alice, bob], kind="bloqueio2").pk
    return [
        ("post", "/api/games/", {"kind": "quoridor"}, 201),
        ("post", f"/api/games/{open_game}/join/", {}, 200),
        ("post", f"/api/games/{open_game}/leave/", {}, 200),
        ("post", f"/api/games/{playing}/actions/", {"action": MOVE0, "ply": 0}, 201),
        ("post", f"/api/games/{playing}/resign/", {}, 200),
        ("post", "/api/matchmaking/", {"kind": "quoridor"}, 201),
        ("delete", "/api/matchmaking/", None, 204),
    ]


@pytest.mark.django_db
def test_session_writes_without_the_csrf_token_are_refused_with_a_json_error(alice, bob):
    writes = _session_writes(alice, bob)
    client, _ = _session_api(alice)
    before = _footprint()
    for method, url, body, _status in writes:
        response = getattr(client, method)(url, body, format="json")
        assert response.status_code == 403, (url, response.content)
        error = response.json()
        assert set(error) == {"code", "detail"}, error
        assert error["code"] == "forbidden" and error["detail"].startswith("CSRF Failed"), error
    assert _footprint() == before
    # A token that is not this browser's CSRF cookie is no better than none.
    forged = client.post("/api/games/", {"kind": "quoridor"}, format="json",
                         HTTP_X_CSRFTOKEN="x" * 64)
    assert (forged.status_code, forged.json()["code"]) == (403, "forbidden")
    # Reads need no token.
    assert client.get("/api/me/").json()["username"] == "alice"


@pytest.mark.django_db
def test_session_writes_with_the_csrf_token_are_accepted(alice, bob):
    writes = _session_writes(alice, bob)
    client, token = _session_api(alice)
    for method, url, body, expected in writes:
        response = getattr(client, method)(url, body, format="json", HTTP_X_CSRFTOKEN=token)
        assert response.status_code == expected, (url, response.content)


@pytest.mark.django_db
def test_token_authenticated_writes_need_no_csrf_token(alice):
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {alice.auth_token.key}")
    response = client.post("/api/games/", {"kind": "quoridor"}, format="json")
    assert response.status_code == 201
    assert client.delete("/api/matchmaking/").status_code == 204


@pytest.mark.django_db
def test_page_forms_need_the_csrf_token(alice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    browser.get("/")
    token = browser.cookies["csrftoken"].value
    assert browser.post("/games/new/", {"kind": "quoridor", "time_control": ""}
                        ).status_code == 403
    assert not Game.objects.exists()
    assert browser.post("/accounts/logout/").status_code == 403
    assert SESSION_KEY in browser.session  # still signed in
    response = browser.post("/games/new/", {"kind": "quoridor", "time_control": "",
                                            "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and Game.objects.count() == 1
    # Login CSRF: the login form refuses a post without the token too.
    stranger = Client(enforce_csrf_checks=True)
    assert stranger.post("/accounts/login/", {"username": "alice", "password": PASSWORD}
                         ).status_code == 403


# -- WebSocket Origin -----------------------------------------------------------------------


# The handshakes name Host localhost over plain ws: only that full origin is the site's
# own (another scheme or port is another origin, bloqueio_site/ws_origin.py).
FOREIGN_ORIGINS = [b"http://evil.example", b"http://localhost.evil.example",
                   b"http://evil.example:80", b"null", None, b"https://localhost",
                   b"http://localhost:6666", b"http://127.0.0.1:8000"]
ALLOWED_ORIGINS = [b"http://localhost", b"http://localhost:80"]


@pytest.mark.django_db(transaction=True)
async def test_a_foreign_or_missing_origin_is_refused_at_the_handshake():
    alice = await db(make_user)("alice")
    game = await db(services.create_game)(user=alice, kind="quoridor")
    for origin in FOREIGN_ORIGINS:
        for path in (f"/ws/games/{game.pk}/", "/ws/lobby/", "/ws/me/", "/ws/ping/"):
            # A valid token does not help: the Origin is checked before anything else.
            comm = WebsocketCommunicator(application, path,
                                         headers=_token_headers(alice, origin))
            connected, _ = await comm.connect()
            # Closed before any accept: over HTTP that is a 403 (the live test below).
            assert not connected, (path, origin)


@pytest.mark.django_db(transaction=True)
async def test_an_allowed_origin_is_accepted():
    alice = await db(make_user)("alice")
    game = await db(services.create_game)(user=alice, kind="quoridor")
    for origin in ALLOWED_ORIGINS:
        for path in (f"/ws/games/{game.pk}/", "/ws/lobby/", "/ws/me/"):
            comm = WebsocketCommunicator(application, path,
                                         headers=_token_headers(alice, origin))
            connected, _ = await comm.connect()
            assert connected, (path, origin)
            assert (await comm.receive_json_from(timeout=3))["type"] == "hello"
            await comm.disconnect()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
async def test_a_live_server_answers_a_foreign_origin_with_403(tmp_path):
    with live_servers(1, tmp_path) as (server,):
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(f"{server.ws}/ws/ping/", open_timeout=10,
                                     additional_headers={"Origin": "http://evil.example"})
        assert refused.value.response.status_code == 403
        async with websockets.connect(f"{server.ws}/ws/ping/", open_timeout=10,
                                      additional_headers={"Origin": server.http}) as ws:
            await ws.send(json.dumps({"hi": 1}))
            assert json.loads(await ws.recv())["echo"] == {"hi": 1}


# -- login throttling -----------------------------------------------------------------------


def _api_login(password: str, username: str = "alice", **extra: Any) -> Any:
    return APIClient().post("/api/auth/token/", {"username": username, "password": password},
                            format="json", **extra)


def _page_login(password: str, username: str = "alice", **extra: Any) -> Any:
    return Client().post("/accounts/login/", {"username": username, "password": password},
                         **extra)


@pytest.mark.django_db
def test_failures_on_the_api_and_the_login_page_add_up_to_one_lockout(alice, settings):
    limit = settings.AXES_FAILURE_LIMIT
    for attempt in range(limit):
        (_api_login if attempt % 2 else _page_login)("wrong")
    api = _api_login(PASSWORD)
    assert (api.status_code, api.json()["code"]) == (429, "locked_out")
    assert int(api["Retry-After"]) == int(settings.AXES_COOLOFF_TIME.total_seconds())
    page = _page_login(PASSWORD)
    assert page.status_code == 429 and SESSION_KEY not in page.wsgi_request.session


@pytest.mark.django_db
def test_a_lockout_holds_against_a_spoofed_forwarded_for_header(alice, settings):
    for attempt in range(settings.AXES_FAILURE_LIMIT):
        _api_login("wrong", HTTP_X_FORWARDED_FOR=f"203.0.113.{attempt}")
    spoofed = _api_login(PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert (spoofed.status_code, spoofed.json()["code"]) == (429, "locked_out")
    assert _page_login(PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.8").status_code == 429


@pytest.mark.django_db
def test_a_lockout_is_per_username_and_address(alice, bob, settings):
    """By design (AXES_LOCKOUT_PARAMETERS): a guesser cannot lock alice out for everyone,
    and a locked address can still sign in other users."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _api_login("wrong")
    assert _api_login(PASSWORD).status_code == 429
    assert _api_login(PASSWORD, username="bob").status_code == 200
    assert _api_login(PASSWORD, REMOTE_ADDR="192.0.2.44").status_code == 200


# -- private data -------------------------------------------------------------------------


PRIVATE_EMAIL = "alice.private@example.org"
PRIVATE_INVITER = "inviter-only-alice-knows"  # in a notification of hers


@pytest.fixture
def alices_world(alice, bob, carol) -> dict[str, Any]:
    """Alice with everything private a user has: email, token, password hash, a live
    session, a ranked-queue entry; and games of every status she plays in."""
    alice.email = PRIVATE_EMAIL
    alice.save()
    browser = Client()
    browser.force_login(alice)
    matchmaking.join_queue(user=alice, kind="quoridor")
    waiting = services.create_game(user=alice, kind="bloqueio")
    active = started_game([alice, bob], kind="bloqueio2")
    services.submit_action(game_id=active.pk, user=alice, action=MOVE0, ply=0)
    finished = started_game([carol, alice], kind="quoridor")
    services.resign(game_id=finished.pk, user=carol)
    notify(alice, Kind.INVITATION, game_id=waiting.pk, data={"by": PRIVATE_INVITER})
    hidden = services.create_game(user=alice, kind="bloqueio2", private=True)
    tournament = tournaments.create(user=alice, kind="bloqueio2", rounds=3)
    for player in (alice, bob):
        tournaments.join(tournament_id=tournament.pk, user=player)
    return {
        "secrets": [PRIVATE_EMAIL, alice.auth_token.key, alice.password,
                    browser.cookies["sessionid"].value, PRIVATE_INVITER,
                    waiting.invite_token, hidden.invite_token],
        "waiting": waiting.pk, "active": active.pk, "finished": finished.pk,
        "tournament": tournament.pk,
    }


def _routes() -> dict[str, str]:
    """name -> route of every URL the site serves outside the admin."""
    found: dict[str, str] = {}

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace != "admin":
                    walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                found[pattern.name] = prefix + str(pattern.pattern)

    walk(get_resolver().url_patterns, "/")
    return found


# Every route, with what a stranger may see there. "public": readable by anyone, and
# nothing of alice's private data in it; "own": only ever the caller's own data;
# "write": writes only (a GET reads nothing); "login": pages that need the caller's login;
# "form": sign-in pages (a signed-in caller may be sent on); "redirect": sends anyone on.
ROUTE_KINDS = {
    "home": "public", "game": "public", "game-replay": "public", "game-board-svg": "public",
    "game-check": "public", "leaderboard-default": "public", "leaderboard": "public",
    "rules": "public", "api-kinds": "public", "favicon": "redirect",
    "healthz": "public", "livez": "public", "profile": "public", "api-profile": "public",
    "api-games": "public",
    "api-game": "public", "api-game-events": "public", "api-game-replay": "public",
    "api-game-legal-actions": "public", "api-game-export": "public", "api-game-hint": "own",
    "api-leaderboard": "public", "api-leaderboard-provisional": "public",
    "api-rating-history": "public", "schema": "public",
    "swagger-ui": "public", "register": "form", "login": "form",
    "api-me": "own", "api-matchmaking": "own", "api-reports": "own",
    "game-create": "write", "game-join": "write", "game-leave": "write", "logout": "write",
    "api-register": "write", "api-token": "write", "api-game-join": "write",
    "api-game-leave": "write", "api-game-actions": "write", "api-game-resign": "write",
    "password_change": "login", "password_change_done": "login",
    "tokens": "login", "api-tokens": "own", "api-token-revoke": "write",  # API tokens
    "api-password": "write",
    "api-game-chat": "public", "api-chat-delete": "write",  # chat (docs/api.md, "Chat")
    "api-game-bots": "write", "api-game-bot-seat": "write",  # bots on seats
    "api-game-seat-bot": "write",  # a leaver's seat handed to a bot
    "api-game-analysis": "public", "api-game-analysis-best": "public",  # replay analysis
    "set_language": "write",  # the language switcher (docs/i18n.md)
    "javascript-catalog": "public",  # the scripts' words, /jsi18n/ (docs/web.md)
    "seat-palettes": "public",  # the seat colours' stylesheet, /palettes.css
    # Password reset by e-mail and the account's address (accounts/addresses.py)
    "password_reset": "public", "password_reset_done": "public",
    "password_reset_confirm": "public", "password_reset_complete": "public",
    "email": "login", "verify_email": "public",
    "undo_email": "public",  # the old address's undo link: a page, its button a POST
    "my-games": "login", "api-my-games": "own",  # the caller's live games (issue #31)
    # Notifications (notifications/): the list and choices, one opened, unsubscribing
    "notifications": "login", "notification-open": "write",
    "notifications-unsubscribe": "public", "api-notifications": "own",
    "api-notifications-read": "write", "api-notification-settings": "own",
    # Invitations, private games and rematches (issue #31): the invitation link's page
    # is "token" (a wrong token is not found); the rest are writes or the caller's own.
    "game-invite": "token", "api-game-invitations": "write", "api-my-invitations": "own",
    "api-invitation-accept": "write", "api-invitation-decline": "write",
    "api-invitation-revoke": "write",  # taking an invitation back (issue #44)
    "api-game-rematch": "write", "api-game-rematch-decline": "write",
    # Tournaments (docs/tournaments.md): who plays is public, as on a game's page.
    "api-tournaments": "public", "api-tournament": "public", "api-tournament-join": "write",
    "api-tournament-withdraw": "write", "api-tournament-start": "write",
    "tournaments": "public", "tournament": "public",
}


QUERIES = {"game-check": "?" + urlencode({"action": json.dumps(MOVE0)})}


def _concrete(name: str, route: str, game_id: int, tournament_id: int = 0) -> str:
    return (route.replace("<int:game_id>", str(game_id))
            .replace("<int:tournament_id>", str(tournament_id)).replace("<str:username>", "alice")
            .replace("<str:kind>", "quoridor").replace("<int:message_id>", "1")
            .replace("<int:seat>", "1").replace("<int:ply>", "0").replace("<int:note_id>", "1")
            .replace("<int:invitation_id>", "1")
            ) + QUERIES.get(name, "")


def _strangers(eve: User) -> dict[str, Any]:
    token = APIClient()
    token.credentials(HTTP_AUTHORIZATION=f"Token {eve.auth_token.key}")
    session = APIClient()
    session.force_login(eve)
    return {"anonymous": APIClient(), "eve by token": token, "eve by session": session}


@pytest.mark.django_db
def test_every_route_is_classified():
    """A new URL must be added to ROUTE_KINDS, i.e. someone decides who may read it."""
    assert set(_routes()) == set(ROUTE_KINDS)


@pytest.mark.django_db
def test_no_stranger_reads_anything_private_anywhere(alices_world):
    eve = make_user("eve")
    eve.email = "eve@example.org"
    eve.save()
    routes = _routes()
    for who, client in _strangers(eve).items():
        for name, route in routes.items():
            for game_id in (alices_world["waiting"], alices_world["active"],
                            alices_world["finished"]):
                url = _concrete(name, route, game_id, alices_world["tournament"])
                response = client.get(url)
                assert response.status_code < 500, (who, url)
                body = response.content.decode("utf-8", "replace")
                for secret in alices_world["secrets"]:
                    assert secret not in body, (who, url, secret[:12])
                kind = ROUTE_KINDS[name]
                if kind == "public":
                    assert response.status_code == 200, (who, url, response.status_code)
                elif kind == "write":
                    assert response.status_code in (302, 401, 403, 405), (who, url)
                elif kind == "form":
                    assert response.status_code in (200, 302), (who, url)
                elif kind == "redirect":
                    assert response.status_code in (301, 302), (who, url)
                elif kind == "token":
                    assert response.status_code == 404, (who, url)
                elif kind == "login" and who == "anonymous":
                    assert response.status_code == 302 and "/accounts/login/" in \
                        response["Location"], url
                if "<int:game_id>" not in route:
                    break  # one request is enough for routes without a game


@pytest.mark.django_db
def test_own_data_endpoints_answer_only_about_the_caller(alices_world):
    eve = make_user("eve")
    strangers = _strangers(eve)
    assert strangers["anonymous"].get("/api/me/").status_code == 401
    assert strangers["anonymous"].get("/api/matchmaking/").status_code == 401
    for who in ("eve by token", "eve by session"):
        client = strangers[who]
        me = client.get("/api/me/").json()
        assert (me["id"], me["username"]) == (eve.pk, "eve"), who
        assert client.get("/api/matchmaking/").json() == {"state": "idle"}, who
        # Eve leaving "the queue" only ever touches her own entry.
        assert client.delete("/api/matchmaking/").status_code == 204
        assert client.get("/api/notifications/").json() == {"unread": 0, "results": []}
        assert client.post("/api/notifications/read/", {"all": True},
                           format="json").json() == {"unread": 0}
    assert Notification.objects.get(user__username="alice").read_at is None
    assert QueueEntry.objects.filter(user__username="alice").exists()


@pytest.mark.django_db
def test_public_shapes_carry_no_private_fields(alices_world, anon):
    profile = anon.get("/api/users/alice/").json()
    assert set(profile) == {"username", "bot", "date_joined", "games_played", "wins",
                            "games_finished", "games_left", "ratings", "recent_games"}
    for game in anon.get("/api/games/").json()["results"]:
        for seat in game["seats"]:
            assert set(seat) == {"seat", "username", "rating", "bot", "replaced"}
    board = anon.get("/api/leaderboard/quoridor/").json()
    for row in board["results"]:
        assert set(row) == {"rank", "username", "rating", "games"}


@pytest.mark.django_db
def test_the_admin_is_for_staff_only(alices_world, alice):
    eve = make_user("eve")
    signed_in = Client()
    signed_in.force_login(eve)
    for client in (Client(), signed_in):
        for url in ("/admin/", "/admin/accounts/user/", f"/admin/accounts/user/{alice.pk}/change/",
                    "/admin/authtoken/tokenproxy/", "/admin/games/game/"):
            response = client.get(url)
            assert response.status_code == 302 and "/admin/login/" in response["Location"], url


@pytest.mark.django_db(transaction=True)
async def test_sockets_tell_strangers_nothing_private():
    alice, bob, eve = [await db(make_user)(name) for name in ("alice", "bob", "eve")]
    await db(User.objects.filter(pk=alice.pk).update)(email=PRIVATE_EMAIL)
    game = await db(services.create_game)(user=alice, kind="quoridor")
    secrets = [PRIVATE_EMAIL, alice.auth_token.key, alice.password]
    eve_me = WebsocketCommunicator(application, "/ws/me/", headers=_token_headers(eve))
    alice_me = WebsocketCommunicator(application, "/ws/me/", headers=_token_headers(alice))
    eve_game = WebsocketCommunicator(application, f"/ws/games/{game.pk}/",
                                     headers=_token_headers(eve))
    lobby = WebsocketCommunicator(application, "/ws/lobby/", headers=LOCAL)
    for comm in (eve_me, alice_me, eve_game, lobby):
        assert (await comm.connect())[0]
    assert (await eve_me.receive_json_from())["you"] == {"username": "eve"}
    await alice_me.receive_json_from()
    hello = await eve_game.receive_json_from()
    assert hello["you"] == {"seat": None}
    await lobby.receive_json_from()
    await db(services.join_game)(game_id=game.pk, user=bob)
    # Alice hears her game start (the control); eve's personal socket hears nothing.
    assert (await receive_type(alice_me, "notify"))["event"] == "game_started"
    assert await eve_me.receive_nothing(timeout=0.5)
    frames = [hello, await receive_type(eve_game, "game"), await receive_type(lobby, "lobby")]
    text = json.dumps(frames)
    assert not any(secret in text for secret in secrets)
    for comm in (eve_me, alice_me, eve_game, lobby):
        await comm.disconnect()


# -- frame size and message rate ------------------------------------------------------------


def _padded_ping(size: int, char: str = "x") -> str:
    """A ping frame of exactly `size` UTF-8 bytes."""
    frame = '{"type": "ping", "pad": "'
    tail = '"}'
    room = size - len(frame.encode()) - len(tail.encode())
    width = len(char.encode())
    text = frame + char * (room // width) + "x" * (room % width) + tail
    assert len(text.encode()) == size
    return text


async def _open(path: str, user: User | None) -> WebsocketCommunicator:
    headers = LOCAL if user is None else _token_headers(user)
    comm = WebsocketCommunicator(application, path, headers=headers)
    assert (await comm.connect())[0]
    assert (await comm.receive_json_from(timeout=3))["type"] == "hello"
    return comm


@pytest.mark.django_db(transaction=True)
async def test_frames_are_limited_to_16_kib_on_every_socket():
    alice = await db(make_user)("alice")
    game = await db(services.create_game)(user=alice, kind="quoridor")
    for path in (f"/ws/games/{game.pk}/", "/ws/lobby/", "/ws/me/"):
        comm = await _open(path, alice)
        await comm.send_to(text_data=_padded_ping(MAX_FRAME_BYTES))
        assert await receive_type(comm, "pong") == {"type": "pong"}, path
        # One byte over, in ASCII, and far over in 3-byte characters that number fewer
        # than the limit: both refused, and the socket stays usable.
        for oversized in (_padded_ping(MAX_FRAME_BYTES + 1),
                          _padded_ping(MAX_FRAME_BYTES * 3, "€")):
            await comm.send_to(text_data=oversized)
            error = await receive_type(comm, "error")
            assert error["code"] == "too_large", (path, error)
        await comm.send_json_to({"type": "ping"})
        assert await receive_type(comm, "pong") == {"type": "pong"}
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_echo_socket_has_the_same_limits(no_refill):
    """`/ws/ping/` echoes any JSON, but not a frame over 16 KiB, and not at any rate."""
    comm = WebsocketCommunicator(application, "/ws/ping/", headers=LOCAL)
    assert (await comm.connect())[0]
    await comm.send_to(text_data=_padded_ping(MAX_FRAME_BYTES))
    assert (await comm.receive_json_from())["type"] == "echo"
    await comm.send_to(text_data=_padded_ping(MAX_FRAME_BYTES * 3, "€"))
    assert (await comm.receive_json_from())["code"] == "too_large"
    for _ in range(int(RATE_BURST) - 2 + FLOOD_CLOSE_AFTER):
        await comm.send_to(text_data="[1]")
    frames, code = await until_closed(comm, wait=3)
    assert code == CLOSE_FLOOD
    assert [f["type"] for f in frames].count("echo") == RATE_BURST - 2
    assert [f.get("code") for f in frames if f["type"] == "error"] == (
        ["rate_limited"] * (FLOOD_CLOSE_AFTER // 50))


@pytest.fixture
def no_refill(monkeypatch: pytest.MonkeyPatch) -> None:
    """Buckets that never refill: the burst, then refusals, whatever the test's speed
    (so these tests count frames, never time)."""
    for module in (sockets, game_socket):  # the frame bucket, and the game's sync bucket
        monkeypatch.setattr(module, "TokenBucket",
                            functools.partial(consumers.TokenBucket, rate=0.0))


@pytest.mark.django_db(transaction=True)
async def test_frames_over_the_rate_are_dropped_unexecuted(no_refill):
    alice, bob = await db(make_user)("alice"), await db(make_user)("bob")
    game = await db(started_game)([alice, bob], kind="bloqueio2")
    comm = await _open(f"/ws/games/{game.pk}/", alice)
    for _ in range(int(RATE_BURST)):
        await comm.send_json_to({"type": "ping"})
    await comm.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": "late"})
    pongs = [await receive_type(comm, "pong") for _ in range(int(RATE_BURST))]
    assert len(pongs) == RATE_BURST
    error = await receive_type(comm, "error")
    # The error answers the action frame itself (frames are handled in order), so the
    # action was dropped, not queued: no event now, and no ack or event ever comes. Its
    # `ref` comes back, so the client knows which request was refused.
    assert (error["code"], error["ref"]) == ("rate_limited", "late")
    assert await db(Event.objects.filter(game_id=game.pk).count)() == 0
    later = []
    while not await comm.receive_nothing(timeout=0.3):
        later.append(await comm.receive_json_from())
    assert not [f for f in later if f["type"] in ("ack", "event", "error")], later
    # The limit is per connection: a second socket of the same user is served.
    other = await _open(f"/ws/games/{game.pk}/", alice)
    await other.send_json_to({"type": "action", "action": MOVE0, "ply": 0, "ref": "fresh"})
    assert (await receive_type(other, "ack"))["ref"] == "fresh"
    for c in (comm, other):
        await c.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["game", "/ws/lobby/", "/ws/me/"])
async def test_a_persistent_flood_is_closed_with_4429(no_refill, path):
    alice = await db(make_user)("alice")
    if path == "game":
        path = f"/ws/games/{(await db(services.create_game)(user=alice, kind='quoridor')).pk}/"
    comm = await _open(path, alice)
    total = int(RATE_BURST) + FLOOD_CLOSE_AFTER
    for _ in range(total):
        await comm.send_to(text_data='{"type": "ping"}')
    frames, code = await until_closed(comm, wait=3)
    assert code == CLOSE_FLOOD
    frames = [f for f in frames if f["type"] not in ("presence", "ping")]
    assert sum(f["type"] == "pong" for f in frames) == RATE_BURST
    # Refusals are reported sparingly (the first, then every 50th), never one per frame.
    errors = [f for f in frames if f["type"] == "error"]
    assert [e["code"] for e in errors] == ["rate_limited"] * (FLOOD_CLOSE_AFTER // 50)
    await comm.disconnect()
