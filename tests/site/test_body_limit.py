"""A request body over MAX_REQUEST_BYTES is refused before it is read: at once by its
Content-Length (the client need not send a byte of it), and a chunked one as soon as it
passes the limit, on the ASGI application, on a live server and behind HAProxy."""

from __future__ import annotations

import asyncio
import json
import select
import socket

import pytest
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from django.conf import settings

from bloqueio_site.asgi import application
from tests.conftest import PASSWORD, make_user
from tests.faults.test_haproxy_failover import haproxy
from tests.live.servers import live_servers, stop

pytestmark = pytest.mark.django_db(transaction=True)

GIANT = 200 * 1024 * 1024


def http_scope(path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, object]:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
            "query_string": b"", "root_path": "", "client": ("127.0.0.1", 1234),
            "server": ("localhost", 80),
            "headers": [(b"host", b"localhost"), (b"content-type", b"application/json"),
                        *headers]}


async def answer(comm: ApplicationCommunicator) -> tuple[int, dict[str, str], bytes]:
    start = await comm.receive_output(timeout=10)
    body = await comm.receive_output(timeout=10)
    headers = {k.decode(): v.decode() for k, v in start["headers"]}
    return start["status"], headers, body["body"]


async def test_a_declared_giant_body_is_refused_without_reading_it():
    comm = ApplicationCommunicator(application, http_scope(
        "/api/auth/token/", [(b"content-length", str(GIANT).encode())]))
    # Nothing of the body is sent: the answer comes from the headers alone.
    status, headers, body = await answer(comm)
    assert status == 413 and headers["connection"] == "close"
    assert json.loads(body)["code"] == "too_large"


@pytest.mark.parametrize(("asked", "words"), [
    ([(b"accept-language", b"pt-BR,pt;q=0.9")], "grande demais"),
    ([(b"accept-language", b"en"), (b"cookie", b"django_language=pt-br")], "grande demais"),
    ([(b"accept-language", b"en-US")], "too large"),
    ([], "too large"),
])
async def test_the_413_speaks_the_language_the_request_asks_for(asked, words):
    """Written before Django runs, from the request's own cookie or Accept-Language."""
    comm = ApplicationCommunicator(application, http_scope(
        "/api/auth/token/", [(b"content-length", str(GIANT).encode()), *asked]))
    status, headers, body = await answer(comm)
    refusal = json.loads(body)
    assert status == 413 and refusal["code"] == "too_large"
    assert words in refusal["detail"]
    assert headers["content-language"] == ("pt-br" if words == "grande demais" else "en")


async def test_a_chunked_body_is_refused_once_it_passes_the_limit():
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    comm = ApplicationCommunicator(application, http_scope("/", []))
    sent = 0
    while sent <= limit:
        await comm.send_input({"type": "http.request", "body": b"x" * 4096, "more_body": True})
        sent += 4096
    status, _, body = await answer(comm)  # no end of body was ever sent
    assert status == 413 and b"too large" in body


async def test_a_chunked_body_within_the_limit_is_read():
    """Before, the API saw a body without Content-Length as empty."""
    await database_sync_to_async(make_user)("alice")
    raw = json.dumps({"username": "alice", "password": PASSWORD}).encode()
    comm = ApplicationCommunicator(application, http_scope("/api/auth/token/", []))
    for n in range(0, len(raw), 10):
        await comm.send_input({"type": "http.request", "body": raw[n:n + 10],
                               "more_body": True})
    await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
    status, _, body = await answer(comm)
    assert status == 200, body
    assert "token" in json.loads(body)


# -- live servers, raw sockets ----------------------------------------------------------


def read_answer(sock: socket.socket) -> tuple[int, bytes]:
    """Status and body of the response on `sock` (read until the server closes)."""
    data = b""
    sock.settimeout(20)
    while True:
        try:
            part = sock.recv(65536)
        except ConnectionResetError:
            break
        if not part:
            break
        data += part
        if b"\r\n\r\n" in data and data.split(b"\r\n\r\n", 1)[1].endswith(b"}"):
            break
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def declared_giant(port: int, extra: bytes = b"") -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(b"POST /api/auth/token/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\n" + extra
                     + b"Content-Length: %d\r\n\r\n" % GIANT)
        return read_answer(sock)


def chunked_flood(port: int, most: int = 20 * 1024 * 1024) -> tuple[int, bytes, int]:
    """Send a chunked body 8 KiB at a time until the server answers (or `most` bytes):
    (status, body, bytes sent)."""
    chunk = b"2000\r\n" + b"x" * 8192 + b"\r\n"
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(b"POST /api/auth/token/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        while sent < most and not select.select([sock], [], [], 0)[0]:
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += 8192
        else:
            if sent >= most:
                sock.sendall(b"0\r\n\r\n")
        status, body = read_answer(sock)
    return status, body, sent


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["uvicorn", "daphne"])
def test_a_live_server_refuses_a_declared_giant_body_unsent(kind, tmp_path):
    with live_servers(1, tmp_path, kinds=[kind]) as (server,):
        status, body = declared_giant(server.port)
        portuguese = declared_giant(server.port, b"Accept-Language: pt-BR\r\n")
    assert status == 413 and json.loads(body)["code"] == "too_large"
    # Daphne's answer is written by bloqueio_site.daphne_body, from Twisted's headers.
    assert portuguese[0] == 413 and "grande demais" in json.loads(portuguese[1])["detail"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["uvicorn", "daphne"])
def test_a_live_server_cuts_a_chunked_flood_off_near_the_limit(kind, tmp_path):
    with live_servers(1, tmp_path, kinds=[kind]) as (server,):
        status, body, sent = chunked_flood(server.port)
    assert status == 413 and json.loads(body)["code"] == "too_large"
    assert sent < 20 * 1024 * 1024  # answered long before the client was done


@pytest.mark.slow
def test_haproxy_refuses_a_declared_giant_body_itself(tmp_path):
    with live_servers(1, tmp_path, kinds=["uvicorn"]) as servers, \
            haproxy(servers, tmp_path) as proxy:
        stop(servers[0])  # so only HAProxy itself can answer 413 (else 503)
        status, body = declared_giant(proxy.port)
    assert status == 413 and json.loads(body)["code"] == "too_large"


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["uvicorn", "daphne"])
def test_a_live_server_reads_bodies_within_the_limit_chunked_or_not(kind, tmp_path):
    token = make_user("alice").auth_token.key.encode()
    raw = json.dumps({"kind": "bloqueio"}).encode()
    head = (b"POST /api/games/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            b"Content-Type: application/json\r\nAuthorization: Token " + token + b"\r\n")
    with live_servers(1, tmp_path, kinds=[kind]) as (server,):
        answers = []
        for request in (head + b"Content-Length: %d\r\n\r\n" % len(raw) + raw,
                        head + b"Transfer-Encoding: chunked\r\n\r\n"
                        + b"%x\r\n" % len(raw) + raw + b"\r\n0\r\n\r\n"):
            with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
                sock.sendall(request)
                answers.append(read_answer(sock))
    for status, body in answers:
        assert status == 201 and json.loads(body)["kind"] == "bloqueio", body


async def post_whole_then_read(port: int, path: str, token: bytes, size: int
                               ) -> tuple[int, bytes]:
    """A keep-alive client that sends the whole body (`size` bytes, declared, 64 KiB a
    write as it drains) and only then reads the answer to its end, as async HTTP client
    libraries do. A reset anywhere fails the caller."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"POST " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     b"Content-Type: application/json\r\nAuthorization: Token " + token
                     + b"\r\nContent-Length: %d\r\n\r\n" % size)
        for _ in range(0, size, 65536):
            writer.write(b"x" * 65536)
            await writer.drain()
        data = await asyncio.wait_for(reader.read(), 20)  # to the end of the stream
    finally:
        writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["uvicorn", "daphne"])
async def test_a_client_that_sends_the_whole_oversize_body_gets_the_413(kind, tmp_path):
    """Before, the server closed the connection with the body still arriving: the kernel
    answered the rest with a reset, which threw the 413 away before the client read it,
    every time (issue 44, item 12). Now the connection closes only once the client has
    had the answer (a lingering close: bloqueio_site/uvicorn_http.py, daphne_body)."""
    user = await database_sync_to_async(make_user)("alice")
    token = user.auth_token.key.encode()
    with live_servers(1, tmp_path, kinds=[kind]) as (server,):
        answers = [await post_whole_then_read(server.port, "/api/games/1/actions/", token,
                                              1024 * 1024) for _ in range(10)]
    for status, body in answers:
        assert status == 413 and json.loads(body)["code"] == "too_large", (status, body)
