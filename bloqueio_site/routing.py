"""WebSocket URL map (the HTTP map is `urls.py`)."""

from django.urls import path

from bloqueio_site.ping import PingConsumer
from games.live.consumers import GameConsumer, LobbyConsumer, MeConsumer
from tournaments.socket import TournamentConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/me/", MeConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
