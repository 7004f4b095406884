from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class NotificationsConfig(AppConfig):
    """Notifications: one model behind every channel (the list, the live badge, e-mail).

    A layer above games: it carries out the outbox rows games writes with its changes
    (games/outbox.py), and moderation (above it) tells it a report's outcome.
    """

    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = gettext_lazy("Notifications")

    def ready(self) -> None:
        from games import outbox, worker
        from notifications import handlers, kinds, mail

        fed = {source for kind in kinds.REGISTRY for source in kind.fed_by}
        if fed != set(handlers.BY_OUTBOX_KIND):
            raise RuntimeError(f"notifications/kinds.py's fed_by {sorted(fed)} and "
                               f"handlers {sorted(handlers.BY_OUTBOX_KIND)} disagree")
        for source in sorted(fed):
            outbox.handler(source)(handlers.BY_OUTBOX_KIND[source])
        worker.register("notification_emails", interval=5)(mail.send_pending)
