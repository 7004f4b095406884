"""deploy/haproxy.cfg for any list of web processes: ``haproxy_config.py HOST:PORT ...``.

Prints deploy/haproxy.cfg with its two server blocks ("BEGIN servers game" ...
"END servers game" and the same for "site") rewritten for the given processes, named
web1, web2, ... in order; everything else is kept as it is. Keep the order (and so the
names) stable when adding or removing a process: the balancer's table remembers each
game's process by name.

    python3 deploy/haproxy_config.py 10.0.0.5:8000 10.0.0.5:8001 10.0.0.6:8000 > haproxy.cfg

Several balancers in front of the same processes share that table as HAProxy peers:
name each one and where it listens for the others (``--peer NAME=HOST:PORT``, the same
list for all), and start each with its own name, ``haproxy -L NAME -f haproxy.cfg``.
Without ``-L`` (or with a name not in the list) HAProxy drops the peers section with only
a warning, and that balancer keeps a table of its own.

    python3 deploy/haproxy_config.py --peer lb1=10.0.0.2:10000 --peer lb2=10.0.0.3:10000 \
        10.0.0.5:8000 10.0.0.5:8001 > haproxy.cfg

Standard library only; the tests import `render`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

TEMPLATE = Path(__file__).with_name("haproxy.cfg")
BLOCK = re.compile(r"^( *)# BEGIN servers (\w+)\n.*?^ *# END servers \2\n", re.M | re.S)
SERVER = re.compile(r"^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")
PEER_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")
# The game backend's table line: with peers, it names their section.
TABLE = re.compile(r"^( *stick-table type integer .*)$", re.M)
PEERS_SECTION = "balancers"


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


def render(servers: list[str], template: str | None = None,
           peers: Sequence[tuple[str, str]] = ()) -> str:
    """The configuration text for `servers` ("host:port" each, at least one); with
    `peers` ((name, "host:port") per balancer), the balancers share the game table."""
    if not servers:
        raise ValueError("at least one server (HOST:PORT) is needed")
    for address in [*servers, *(address for _, address in peers)]:
        if not SERVER.match(address):
            raise ValueError(f"not HOST:PORT: {address!r}")
    names = [name for name, _ in peers]
    if any(not PEER_NAME.match(name) for name in names) or len(set(names)) != len(names):
        raise ValueError(f"peer names must be distinct words: {names!r}")
    text = TEMPLATE.read_text() if template is None else template

    def block(match: re.Match[str]) -> str:
        indent, backend = match.group(1), match.group(2)
        body = [f"# BEGIN servers {backend}", *server_lines(backend, servers),
                f"# END servers {backend}"]
        return "".join(f"{indent}{line}\n" for line in body)

    rendered, count = BLOCK.subn(block, text)
    if count != 2:
        raise ValueError(f"expected the game and site server blocks, found {count}")
    if peers:
        rendered, count = TABLE.subn(rf"\1 peers {PEERS_SECTION}", rendered)
        if count != 1:
            raise ValueError(f"expected the game backend's stick-table, found {count}")
        rendered += (f"\n# The balancers that share the game table (start each with -L NAME).\n"
                     f"peers {PEERS_SECTION}\n"
                     + "".join(f"    peer {name} {address}\n" for name, address in peers))
    return rendered


def parse(argv: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """(servers, peers) from the command line: `--peer NAME=HOST:PORT` any number of
    times, then the servers."""
    servers: list[str] = []
    peers: list[tuple[str, str]] = []
    args = iter(argv)
    for arg in args:
        if arg == "--peer" or arg.startswith("--peer="):
            value = arg.partition("=")[2] if arg.startswith("--peer=") else next(args, "")
            name, sep, address = value.partition("=")
            if not sep:
                raise ValueError(f"--peer wants NAME=HOST:PORT, not {value!r}")
            peers.append((name, address))
        else:
            servers.append(arg)
    return servers, peers


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        servers, peers = parse(argv)
        sys.stdout.write(render(servers, peers=peers))
    except ValueError as exc:
        print(f"haproxy_config.py: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
