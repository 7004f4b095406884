from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.signals import user_banned
        from games.live import broadcast, realtime

        broadcast.subscribe(realtime.on_committed)
        user_banned.connect(realtime.on_user_banned, dispatch_uid="games.live.realtime.banned")
