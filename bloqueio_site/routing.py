"""WebSocket URL map (the HTTP map is `urls.py`)."""

from django.urls import path

from bloqueio_site.ping import PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
]
