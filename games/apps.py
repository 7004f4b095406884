from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = gettext_lazy("Games")

    def ready(self) -> None:
        from django.core import checks

        from accounts import selectors as accounts_selectors
        from accounts.signals import (
            credentials_revoked,
            user_banned,
            user_banned_seats,
            user_banning,
        )
        from bloqueio_site.catalogues import check_catalogues
        from bloqueio_site.postgres.base import uncertain_commit
        from bloqueio_site.postgres.checks import check_autovacuum
        from games import bans, profiles
        from games.live import broadcast, realtime, writers

        broadcast.subscribe(realtime.on_committed)
        # A COMMIT that may have succeeded unannounced: every process's sockets catch up.
        uncertain_commit.connect(writers.on_uncertain_commit,
                                 dispatch_uid="games.live.writers.uncertain_commit")
        user_banned.connect(realtime.on_user_banned, dispatch_uid="games.live.realtime.banned")
        credentials_revoked.connect(realtime.on_credentials_revoked,
                                    dispatch_uid="games.live.realtime.revoked")
        user_banning.connect(bans.leave_queue, dispatch_uid="games.bans.leave_queue")
        user_banned_seats.connect(bans.free_seats, dispatch_uid="games.bans.free_seats")
        # `/api/me/` shows the ratings without accounts reading games.
        accounts_selectors.add_me_part(profiles.me_part)
        # The games' reads are what a database without statistics plans badly.
        checks.register(check_autovacuum, checks.Tags.database, deploy=True)
        # The site's pages in every configured language (docs/operations.md).
        checks.register(check_catalogues, checks.Tags.translation)
