"""The home page, the API schema and docs, and JSON errors under /api/."""

import re

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_home_page(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Bloqueio Online" in response.content


def test_openapi_schema(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Bloqueio Online API"


def test_swagger_ui_is_served_from_the_site_without_internet(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger" in page.lower()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources and all(not src.startswith(("http:", "https:", "//")) for src in sources)
    scripts = [src for src in sources if src.endswith(".js")]
    assert scripts
    for src in scripts:  # each one is a file this site serves
        assert finders.find(src.removeprefix("/static/")), src


def test_unknown_api_path_is_a_json_404(client):
    response = client.get("/api/nothing-here/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_unknown_page_is_an_html_404(client):
    response = client.get("/nothing-here/")
    assert response.status_code == 404
    assert b"does not exist" in response.content


def test_every_page_has_a_favicon_and_favicon_ico_leads_to_it(client):
    page = client.get("/").content.decode()
    assert 'rel="icon"' in page and "favicon.svg" in page
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("favicon.svg")
    assert finders.find("favicon.svg")
