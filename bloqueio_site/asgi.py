"""ASGI entry point: HTTP through Django, WebSockets through Channels.

HTTP bodies pass the size limit before Django reads them (`asgi_http.BodyLimit`).
WebSockets pass the Origin check (the site's own full origin, `ws_origin`), the
per-address limits (`socket_limits`), session auth (cookie), then token auth
(`Authorization: Token <key>` header), which wins when present, then the per-account cap.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bloqueio_site.settings")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from bloqueio_site import catalogues  # noqa: E402

# No pt-BR pages in English: a production process without its compiled catalogues stops.
catalogues.require()

from bloqueio_site.asgi_http import BodyLimit, GuardedASGIHandler  # noqa: E402

django_asgi_app = BodyLimit(GuardedASGIHandler())

# Imported after Django is set up: these touch models.
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from accounts.ws_auth import auth_stack  # noqa: E402
from bloqueio_site.autobahn_tuning import (  # noqa: E402
    close_with_code,
    graceful_stop,
    quiet_autobahn,
)
from bloqueio_site.daphne_body import limit_daphne_bodies  # noqa: E402
from bloqueio_site.gc_tuning import tune as tune_gc  # noqa: E402
from bloqueio_site.routing import websocket_urlpatterns  # noqa: E402
from bloqueio_site.socket_limits import AccountLimits, AddressLimits  # noqa: E402
from bloqueio_site.ws_origin import OriginCheck  # noqa: E402
from games.live import writers  # noqa: E402

quiet_autobahn()
close_with_code()
graceful_stop()
limit_daphne_bodies()
# This process writes games: its writer's lease (games/live/writers.py) starts being
# renewed as it loads, a round trip before its first write can come.
writers.ensure()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": OriginCheck(AddressLimits(auth_stack(
            AccountLimits(URLRouter(websocket_urlpatterns))
        ))),
    }
)
# Last: everything loaded at start is frozen out of the collector's sight.
tune_gc()
