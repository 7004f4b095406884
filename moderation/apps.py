from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class ModerationConfig(AppConfig):
    name = "moderation"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = gettext_lazy("Moderation")
