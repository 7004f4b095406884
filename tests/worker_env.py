"""Each pytest-xdist worker gets its own names in the shared Redis (`-p tests.worker_env`,
pyproject.toml; `make test` runs two workers, README.md).

pytest-django already gives each worker its own test database (`test_bloqueio_gw0`, ...),
whose game ids restart at 1 like every other worker's; Redis is one server for all of
them, and its pub/sub channels are not even per database. So the channel-layer prefix
(the fan-out's channels, presence, socket counts) and the cache's key prefix (rate-limit
windows) get the worker's id appended. It is done in the environment, before Django
reads its settings (xdist names the worker before the worker reads its arguments, and
`-p` plugins load before pytest-django configures Django): the servers a test starts
inherit the same names, and nothing else changes for a run without workers.
"""

from __future__ import annotations

import os

_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")

if _WORKER:
    for _name, _default in (("CHANNEL_LAYER_PREFIX", "bloqueio"), ("CACHE_PREFIX", "bloqueio")):
        os.environ[_name] = f"{os.environ.get(_name) or _default}-{_WORKER}"
