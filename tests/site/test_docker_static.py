"""The Docker image's static files, built exactly as its Dockerfile builds them, serve
pages on a production server: 200, not the 500 of a missing manifest entry. And a
process without them is caught: `/healthz` says so, and so does compose's health check.

No Docker engine runs here, so the Dockerfile's RUN lines after `COPY . .` (the steps
that build from the source) are run by `sh` in this checkout, writing to a temporary
STATIC_ROOT (`DJANGO_STATIC_ROOT`) instead of the image's.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

from tests.live.servers import ROOT, Server, start, stop

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def dockerfile_build_steps() -> list[str]:
    """The shell commands of the Dockerfile's RUN instructions after `COPY . .`."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    after = lines[lines.index("COPY . .") + 1:]
    return [line.removeprefix("RUN ") for line in after if line.startswith("RUN ")]


def build_static_like_the_image(static_root: Path) -> None:
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("DJANGO_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["DJANGO_STATIC_ROOT"] = str(static_root)
    steps = dockerfile_build_steps()
    assert any("collect" in step for step in steps), steps
    for step in steps:
        done = subprocess.run(["sh", "-c", step], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, (step, done.stdout, done.stderr)


def production_server(tmp: Path, static_root: Path, probe: str = "/healthz") -> Server:
    """One web process configured as docker-compose.yml runs it."""
    return start(tmp, env={"DJANGO_ENV": "production",
                           "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
                           "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
                           "DJANGO_SECURE_SSL_REDIRECT": "false",
                           "DJANGO_STATIC_ROOT": str(static_root)}, probe=probe)


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=15) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")


def compose_health_check(server: Server) -> subprocess.CompletedProcess[str]:
    """docker-compose.yml's health check of the web processes, aimed at `server`."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    test = compose["services"]["web1"]["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"], test
    code = test[3].replace("http://127.0.0.1:8000", server.http)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)


def test_pages_render_from_the_images_static_build(tmp_path):
    static_root = tmp_path / "static"
    build_static_like_the_image(static_root)
    assert (static_root / "staticfiles.json").exists()
    server = production_server(tmp_path, static_root)
    try:
        for path in ("/", "/admin/login/"):
            status, page = fetch(f"{server.http}{path}")
            assert status == 200, (path, page[-2000:])
        icon = re.search(r'href="(/static/favicon\.[0-9a-f]{12}\.svg)"', fetch(server.http)[1])
        assert icon, "the favicon is not served under its hashed name"
        assert fetch(f"{server.http}{icon.group(1)}")[0] == 200
        status, body = fetch(f"{server.http}/healthz")
        assert (status, '"static": "ok"' in body) == (200, True), body
        checked = compose_health_check(server)
        assert checked.returncode == 0, checked.stderr
    finally:
        stop(server)


def test_a_process_without_its_manifest_fails_its_health_checks(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    server = production_server(tmp_path, empty, probe="/livez")
    try:
        assert fetch(server.http)[0] == 500  # what the issue saw: every page
        status, body = fetch(f"{server.http}/healthz")
        assert status == 503 and '"static": "error: RuntimeError"' in body, body
        assert compose_health_check(server).returncode != 0
    finally:
        stop(server)
