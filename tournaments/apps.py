from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The worker's job that starts tournaments and their rounds (games/worker.py
        # runs what is registered; games, below, cannot name tournaments).
        from tournaments import jobs  # noqa: F401
