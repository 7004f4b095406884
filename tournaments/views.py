"""Tournament pages: the list (with a form to create one) and a tournament's page (its
players, rounds, tables and standings). Both are drawn by static/js/tournaments.js: the
list from the API, read again every few seconds; a tournament's page from its socket,
`/ws/tournaments/{id}/` (the API only while the socket is down)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games import engine, texts
from tournaments import seating, services
from tournaments.arenas import MINUTES
from tournaments.errors import TournamentNotFound
from tournaments.services import ROUNDS

# The lengths the list's form offers an Arena (the API takes any whole minutes in
# arenas.MINUTES).
ARENA_MINUTES = tuple(m for m in (5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 360)
                      if MINUTES[0] <= m <= MINUTES[1])


def _labels() -> dict[str, str]:
    return {kind: texts.kind_title(kind) for kind in engine.KINDS}


def listing(request: HttpRequest) -> HttpResponse:
    labels = _labels()
    return render(request, "tournaments/list.html", {
        "kinds": labels, "rounds": range(ROUNDS[0], ROUNDS[1] + 1), "minutes": ARENA_MINUTES,
        "data": {"kinds": labels, "me": request.user.get_username() or None,
                 # The kinds an Arena is offered for: the two-seat ones.
                 "duels": [kind for kind in labels if seating.table_size(kind) == 2]},
    })


def page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        tournament = services.get(tournament_id)
    except TournamentNotFound:
        raise Http404(f"No tournament {tournament_id}.") from None
    return render(request, "tournaments/page.html", {
        "tournament": tournament, "label": texts.kind_title(tournament.kind),
        "data": {"id": tournament.pk, "kinds": _labels(),
                 "me": request.user.get_username() or None,
                 "creator": tournament.created_by.get_username()},
    })
