"""The home page, the API schema and docs, and JSON errors under /api/."""

import pytest

pytestmark = pytest.mark.django_db


def test_home_page(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Bloqueio Online" in response.content


def test_openapi_schema(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "Bloqueio Online API"


def test_swagger_ui(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


def test_unknown_api_path_is_a_json_404(client):
    response = client.get("/api/nothing-here/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_unknown_page_is_an_html_404(client):
    response = client.get("/nothing-here/")
    assert response.status_code == 404
    assert b"does not exist" in response.content
