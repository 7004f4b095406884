"""docker-compose.yml: PostgreSQL, Redis, the migrations, two web processes behind
HAProxy (deploy/haproxy.cfg) and the worker, with health checks.

No Docker engine runs on the CI machines, so `docker compose config` cannot run here;
this checks the structure the README and docs/scaling.md rely on.
"""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_services_and_health_checks():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"db", "redis", "migrate", "web1", "web2", "haproxy", "worker"}
    assert services["db"]["image"].startswith("postgres:16")
    assert services["redis"]["image"].startswith("redis:7")
    for name in ("db", "redis", "web1", "web2", "worker"):  # the long-running ones
        assert "healthcheck" in services[name], name
    assert services["migrate"]["command"][-2:] == ["migrate", "--noinput"]
    assert services["migrate"]["restart"] == "no"
    assert services["worker"]["command"][-1] == "run_worker"
    for name in ("web1", "web2", "worker"):
        needs = services[name]["depends_on"]
        assert needs["db"]["condition"] == "service_healthy", name
        assert needs["migrate"]["condition"] == "service_completed_successfully", name
        assert services[name]["environment"]["DJANGO_ENV"] == "production", name
    for name in ("web1", "web2"):  # behind the balancer, which sets X-Forwarded-For
        assert services[name]["command"][:3] == ["python", "-m", "bloqueio_site.serve"]
        assert "--proxy-headers" in services[name]["command"]
        assert "ports" not in services[name], f"{name} is reached through haproxy only"
        assert services[name]["environment"]["FORWARDED_ALLOW_IPS"] == "*"  # uvicorn's


def test_haproxy_in_compose_routes_to_the_web_services():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    proxy = compose["services"]["haproxy"]
    assert proxy["image"].startswith("haproxy:")
    assert "./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in proxy["volumes"]
    assert proxy["ports"] == ["127.0.0.1:8000:8000"]
    config = (ROOT / "deploy" / "haproxy.cfg").read_text()
    game = config.split("\nbackend game\n", 1)[1].split("\nbackend site\n", 1)[0]
    targets = re.findall(r"^\s*server (\S+) (\S+):(\d+) check", game, re.M)
    assert targets == [("web1", "web1", "8000"), ("web2", "web2", "8000")]
    assert set(proxy["depends_on"]) == {"web1", "web2"}


def test_the_secret_key_is_required_with_no_fallback():
    """A published default key would be every deployment's key that forgot to set one."""
    text = (ROOT / "docker-compose.yml").read_text()
    compose = yaml.safe_load(text)
    for name in ("migrate", "web1", "web2", "worker"):
        value = compose["services"][name]["environment"]["DJANGO_SECRET_KEY"]
        assert re.fullmatch(r"\$\{DJANGO_SECRET_KEY:\?[^}]+\}", value), (name, value)
    assert not re.search(r"DJANGO_SECRET_KEY:?-", text), "a fallback secret key"


def test_the_web_health_check_renders_pages_too():
    """/healthz alone stayed 200 while every page was a 500 (tests/site/test_docker_static.py
    runs this check against live servers)."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    for name in ("web1", "web2"):
        test = compose["services"][name]["healthcheck"]["test"]
        assert "'/healthz'" in test[-1] and "'/'" in test[-1], test
