"""Reporting from the page in real chromium: the game page's Report button opens the
dialog, the report reaches the moderators' queue, and a second report of the same game
is answered in words."""

from __future__ import annotations

from typing import Any

import pytest

from moderation.models import Report
from tests.e2e.conftest import live_game, log_in, run_in_browser
from tests.e2e.test_blockade_in_browser import two_player_game

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_a_player_reports_a_game_from_its_page(server: Any) -> None:
    game_id, _, _ = two_player_game("blockade")

    def scenario(new_page: Any) -> None:
        page = new_page()
        log_in(page, "alice")
        live_game(page, f"/games/{game_id}/")
        for attempt in ("Thank you", "already reported"):
            page.click("#report-game")
            page.select_option("dialog select[name=category]", "cheating")
            page.fill("dialog textarea[name=reason]", "They used an engine, I think.")
            page.click("dialog button[type=submit]")
            page.wait_for_function(
                f"document.querySelector('dialog [role=status]').textContent.includes({attempt!r})")
            page.keyboard.press("Escape")
        assert page.errors == []

    run_in_browser(server, scenario)
    report = Report.objects.get()
    assert (report.target_type, report.target_id, report.category, report.status) == (
        "game", game_id, "cheating", "open")
    assert report.reporter.username == "alice"
