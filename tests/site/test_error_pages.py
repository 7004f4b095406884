"""The site's own 403/404/500 pages, in the reader's language, under DEBUG too (`make
run`), where Django would draw its technical pages (issue 45, item 8)."""

from __future__ import annotations

import sys

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory, override_settings
from django.utils import translation
from django.views import debug

from bloqueio_site.error_pages import SiteErrorPagesMiddleware
from games import services

pytestmark = pytest.mark.django_db

PT = {"HTTP_ACCEPT_LANGUAGE": "pt-BR,pt;q=0.9"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en-US,en;q=0.9"}
TECHNICAL = "DEBUG = True"


@override_settings(DEBUG=True)
@pytest.mark.parametrize("path", ["/games/999999/", "/nothing-here/", "/rules/chess/",
                                  "private"])
def test_a_missing_page_under_debug_is_the_sites_own_in_both_languages(path, alice):
    if path == "private":  # a private game's plain URL, to someone not invited
        path = f"/games/{services.create_game(user=alice, kind='bloqueio2', private=True).pk}/"
    english = Client(**EN).get(path)
    portuguese = Client(**PT).get(path)
    assert english.status_code == portuguese.status_code == 404
    assert TECHNICAL not in english.content.decode()
    assert "That page does not exist." in english.content.decode()
    page = portuguese.content.decode()
    assert '<html lang="pt-br"' in page and TECHNICAL not in page
    assert "That page does not exist." not in page and "Erro 404" in page


@override_settings(DEBUG=True)
def test_a_server_error_and_a_refusal_under_debug_are_the_sites_own(rf: RequestFactory):
    def crash(request):
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            return debug.technical_500_response(request, *sys.exc_info())

    def refuse(request):
        return debug.technical_500_response(request, PermissionDenied, PermissionDenied(),
                                            None, status_code=403)

    for view, status, said in ((crash, 500, "Erro 500"), (refuse, 403, "Erro 403")):
        request = rf.get("/somewhere/", **PT)
        with translation.override("pt-br"):
            answer = SiteErrorPagesMiddleware(view)(request)
        assert answer.status_code == status
        page = answer.content.decode()
        assert said in page and "boom" not in page and "Traceback" not in page


@override_settings(DEBUG=True, DEBUG_ERROR_PAGES=True)
def test_developers_may_keep_djangos_technical_pages():
    assert TECHNICAL in Client(**EN).get("/nothing-here/").content.decode()


def test_the_api_keeps_answering_json(alice):
    with override_settings(DEBUG=True):
        answer = Client(**PT).get("/api/games/999999/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
