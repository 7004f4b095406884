"""A request Django cannot even build is a 400, never a 500 with a traceback."""

from __future__ import annotations

import json
import logging

import pytest
from asgiref.testing import ApplicationCommunicator

from bloqueio_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(("path", "api", "language"), [("/api/games/", True, b"en"),
                                                      ("/api/games/", True, b"pt-BR"),
                                                      ("/", False, b"en")])
async def test_too_many_query_parameters_with_a_charset_is_a_400(path, api, language, caplog):
    query = "&".join("x=1" for _ in range(1001)).encode()
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": query, "root_path": "", "client": ("127.0.0.1", 1234),
             "server": ("localhost", 80),
             "headers": [(b"host", b"localhost"),
                         (b"content-type", b"application/json; charset=utf-8"),
                         (b"accept-language", language)]}
    comm = ApplicationCommunicator(application, scope)
    await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await comm.receive_output(timeout=10)
    body = await comm.receive_output(timeout=10)
    assert start["status"] == 400
    if api:
        refusal = json.loads(body["body"])
        assert refusal["code"] == "invalid"
        assert refusal["detail"].startswith(
            "A requisição" if language == b"pt-BR" else "The request is malformed")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING and r.exc_info]
