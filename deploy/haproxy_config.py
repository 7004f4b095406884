"""deploy/haproxy.cfg for any list of web processes: ``haproxy_config.py HOST:PORT ...``.

Prints deploy/haproxy.cfg with its two server blocks ("BEGIN servers game" ...
"END servers game" and the same for "site") rewritten for the given processes, named
web1, web2, ... in order; everything else is kept as it is. Keep the order (and so the
names) stable when adding or removing a process: the consistent hash places each game
by server name and id, and renaming moves games.

    python3 deploy/haproxy_config.py 10.0.0.5:8000 10.0.0.5:8001 10.0.0.6:8000 > haproxy.cfg

Standard library only; the tests import `render`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

TEMPLATE = Path(__file__).with_name("haproxy.cfg")
BLOCK = re.compile(r"^( *)# BEGIN servers (\w+)\n.*?^ *# END servers \2\n", re.M | re.S)
SERVER = re.compile(r"^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")


def server_lines(backend: str, servers: list[str]) -> list[str]:
    """One `server` line per process: checked in `game`, tracking those in `site`."""
    lines = []
    for n, address in enumerate(servers, start=1):
        if backend == "game":
            options = "check observe layer4 error-limit 3 on-error mark-down"
        else:
            options = f"track game/web{n}"
        lines.append(f"server web{n} {address} {options}")
    return lines


def render(servers: list[str], template: str | None = None) -> str:
    """The configuration text for `servers` ("host:port" each, at least one)."""
    if not servers:
        raise ValueError("at least one server (HOST:PORT) is needed")
    for address in servers:
        if not SERVER.match(address):
            raise ValueError(f"not HOST:PORT: {address!r}")
    text = TEMPLATE.read_text() if template is None else template

    def block(match: re.Match[str]) -> str:
        indent, backend = match.group(1), match.group(2)
        body = [f"# BEGIN servers {backend}", *server_lines(backend, servers),
                f"# END servers {backend}"]
        return "".join(f"{indent}{line}\n" for line in body)

    rendered, count = BLOCK.subn(block, text)
    if count != 2:
        raise ValueError(f"expected the game and site server blocks, found {count}")
    return rendered


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        sys.stdout.write(render(argv))
    except ValueError as exc:
        print(f"haproxy_config.py: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
