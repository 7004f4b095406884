"""One console line per real event (the Makefile's promise for `make run`): what the
servers and libraries log at INFO for routine plumbing is dropped unless LOG_LEVEL is
debug. Installed by settings.LOGGING; a refused socket ([rejected]) and every warning
still show."""

from __future__ import annotations

import logging
import warnings

# uvicorn's WebSocket lines (logger uvicorn.error, INFO): two for every socket opened,
# one for every socket closed. Matched on the unformatted message.
ROUTINE_SOCKET_LINES = frozenset({"connection open", "connection closed"})
ACCEPTED = '%s - "WebSocket %s" [accepted]'


class QuietSocketsFilter(logging.Filter):
    """Drops uvicorn's routine socket lines at INFO; keeps everything else."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO:
            return True
        return not (record.msg in ROUTINE_SOCKET_LINES or record.msg == ACCEPTED)


def quiet_static_files_warning() -> None:
    """Django warns on every static file a web process serves under ASGI (whitenoise's
    iterator is synchronous; docs/operations.md says why that is fine for our files)."""
    warnings.filterwarnings(
        "ignore", message="StreamingHttpResponse must consume synchronous iterators")
