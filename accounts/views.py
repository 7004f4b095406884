"""Account pages: register, profile. Login/logout/password change are Django's views."""

from __future__ import annotations

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from accounts import bots, selectors, services
from accounts.forms import RegisterForm
from accounts.models import User
from games.boards.colours import kind_label, seat_name


def register(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user, _ = services.register_user(
                username=data["username"], password=data["password1"], email=data["email"])
        except services.RegistrationError as exc:
            form.add_service_errors(exc.errors)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("home")
    return render(request, "registration/register.html", {"form": form})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(User, username__iexact=username, is_active=True)
    data = selectors.profile_json(user)
    # What people read: the game's name, and the colour a seat played, not "seat 0".
    ratings = [{**r, "label": kind_label(r["kind"])} for r in data["ratings"]]
    recent = [{**g, "label": kind_label(g["kind"]), "side": seat_name(g["kind"], g["seat"])}
              for g in data["recent_games"]]
    return render(request, "accounts/profile.html", {
        "profile_user": user, "profile": data, "ratings": ratings, "recent": recent,
        "kind_labels": {r["kind"]: r["label"] for r in ratings},
        # A bot's page names the computer and its level, not the account's username.
        "display_name": bots.label(user),
    })
