from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class NotificationsConfig(AppConfig):
    """Notifications: one model behind every channel (the list, the live badge, e-mail).

    A layer above games: it listens to committed game changes and invitations, and
    moderation (above it) tells it a report's outcome.
    """

    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = gettext_lazy("Notifications")

    def ready(self) -> None:
        from games import signals, worker
        from games.live import broadcast
        from notifications import listeners, mail

        broadcast.subscribe(listeners.on_committed)
        signals.invited.connect(listeners.on_invited, dispatch_uid="notifications.invited")
        signals.invitation_revoked.connect(listeners.on_invitation_revoked,
                                           dispatch_uid="notifications.invitation_revoked")
        signals.rematch_offered.connect(listeners.on_rematch_offered,
                                        dispatch_uid="notifications.rematch_offered")
        worker.register("notification_emails", interval=5)(mail.send_pending)
