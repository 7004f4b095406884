"""Top-level URL map: pages, the REST API under /api/, schema and docs, health."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import language
from bloqueio_site import health, jscatalog
from bloqueio_site import views as site_views
from games import profile_views

urlpatterns = [
    path("", include("games.urls")),  # lobby, game, replay, leaderboard pages
    path("healthz", health.healthz, name="healthz"),
    path("livez", health.livez, name="livez"),
    path("jsi18n/", jscatalog.javascript_catalog, name="javascript-catalog"),
    path("favicon.ico", site_views.favicon, name="favicon"),
    path("palettes.css", site_views.seat_palettes, name="seat-palettes"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("tournaments.urls")),
    # The language switcher of every page (same URLs for every language: no prefixes).
    path("i18n/setlang/", language.set_language, name="set_language"),
    path("users/<str:username>/", profile_views.profile, name="profile"),
    path("api/", include("accounts.api.urls")),
    path("api/", include("games.api.urls")),
    path("api/", include("moderation.api.urls")),
    path("api/", include("chat.api.urls")),
    path("api/", include("notifications.api.urls")),
    path("api/", include("tournaments.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Its start script as a file (`?script=`) and its page without inline style: no
    # exception to the Content-Security-Policy (bloqueio_site/csp.py).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(
        url_name="schema", template_name="api_docs.html"), name="swagger-ui"),
]

handler400 = "bloqueio_site.views.bad_request"
handler403 = "bloqueio_site.views.permission_denied"
handler404 = "bloqueio_site.views.not_found"
handler500 = "bloqueio_site.views.server_error"
