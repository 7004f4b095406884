"""The WebSocket path works end to end through the real ASGI application."""

import pytest
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token

from bloqueio_site.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

LOCAL = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


async def test_echo_for_an_anonymous_client():
    comm = WebsocketCommunicator(application, "/ws/ping/", headers=LOCAL)
    connected, _ = await comm.connect()
    assert connected
    await comm.send_json_to({"hello": [1, 2]})
    assert await comm.receive_json_from() == {"type": "echo", "echo": {"hello": [1, 2]},
                                              "user": None}
    await comm.disconnect()


async def test_not_json_gets_an_error_frame_and_the_socket_stays_open():
    comm = WebsocketCommunicator(application, "/ws/ping/", headers=LOCAL)
    await comm.connect()
    await comm.send_to(text_data="{not json")
    assert (await comm.receive_json_from())["code"] == "invalid_json"
    await comm.send_json_to({"again": True})
    assert (await comm.receive_json_from())["echo"] == {"again": True}
    await comm.disconnect()


async def test_deeply_nested_json_is_an_error_frame_not_a_crash():
    comm = WebsocketCommunicator(application, "/ws/ping/", headers=LOCAL)
    await comm.connect()
    await comm.send_to(text_data="[" * 10_000)  # deep, yet within the 16 KiB limit
    assert (await comm.receive_json_from())["code"] == "invalid_json"
    await comm.send_json_to({"still": "open"})
    assert (await comm.receive_json_from())["echo"] == {"still": "open"}
    await comm.disconnect()


async def test_token_header_authenticates(django_user_model):
    from asgiref.sync import sync_to_async

    user = await sync_to_async(django_user_model.objects.create_user)("alice", password="pw-1x!")
    token = await sync_to_async(Token.objects.create)(user=user)
    headers = [*LOCAL, (b"authorization", f"Token {token.key}".encode())]
    comm = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
    await comm.connect()
    await comm.send_json_to({})
    assert (await comm.receive_json_from())["user"] == "alice"
    await comm.disconnect()


async def test_foreign_origin_is_refused():
    headers = [(b"origin", b"http://evil.example"), (b"host", b"localhost")]
    comm = WebsocketCommunicator(application, "/ws/ping/", headers=headers)
    connected, _ = await comm.connect()
    assert not connected
