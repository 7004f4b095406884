"""Account pages: register, profile. Login/logout/password change are Django's views."""

from __future__ import annotations

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from accounts import selectors, services
from accounts.forms import RegisterForm
from accounts.models import User


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
    return render(request, "accounts/profile.html", {
        "profile_user": user, "profile": selectors.profile_json(user),
    })
