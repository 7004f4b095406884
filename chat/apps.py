from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class ChatConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"
    verbose_name = gettext_lazy("Game chat")

    def ready(self) -> None:
        """Chat rides the game socket as a sub-protocol (games never imports chat)."""
        from chat.socket import ChatProtocol  # models are loaded only now
        from games.live import subprotocols

        subprotocols.register(ChatProtocol())
