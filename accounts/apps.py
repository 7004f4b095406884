from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = gettext_lazy("Accounts")

    def ready(self) -> None:
        from accounts import language  # noqa: F401  (connects its user_logged_in receiver)
