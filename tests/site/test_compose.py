"""docker-compose.yml declares the four services with health checks.

No Docker engine runs on the CI machines, so `docker compose config` cannot run here;
this checks the structure the README relies on.
"""

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_services_and_health_checks():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"db", "redis", "web", "worker"}
    assert services["db"]["image"].startswith("postgres:16")
    assert services["redis"]["image"].startswith("redis:7")
    for name in services:
        assert "healthcheck" in services[name], name
    assert "migrate" in services["web"]["command"]
    assert services["worker"]["command"][-1] == "run_worker"
    assert services["web"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert services["web"]["environment"]["DJANGO_ENV"] == "production"
