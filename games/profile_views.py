"""A user's profile page (`/users/<name>/`): the account and its games, in games because
it reads them (accounts never imports games)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from accounts import selectors as accounts_selectors
from games import bot_accounts, profiles, texts


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """The profile of the active user `username` (any case); 404 for anyone else."""
    user = accounts_selectors.active_user(username)
    if user is None:
        raise Http404
    data = profiles.profile_json(user, request.user)
    # What people read: the game's name, and the colour a seat played, not "seat 0".
    ratings = [{**r, "label": texts.kind_title(r["kind"])} for r in data["ratings"]]
    recent = [{**g, "label": texts.kind_title(g["kind"]), "status_label": texts.status(g["status"]),
               "side": texts.seat_name(g["kind"], g["seat"])}
              for g in data["recent_games"]]
    return render(request, "accounts/profile.html", {
        "profile_user": user, "profile": data, "ratings": ratings, "recent": recent,
        "kind_labels": {r["kind"]: r["label"] for r in ratings},
        # A bot's page names the computer and its level, not the account's username.
        "display_name": bot_accounts.label(user),
        "bot_level": texts.level_name(data.get("bot") or ""),
    })
