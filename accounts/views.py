"""Account pages: register, log in, password change, API tokens, profile (log-in and
password change are Django's views with our limits and revocations added)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from accounts import addresses, credentials, services
from accounts.forms import GuardedPasswordChangeForm, RegisterForm
from bloqueio_site import limits
from bloqueio_site.errors import ServiceError


def _next_page(request: HttpRequest) -> str:
    """Where to go after signing up: a `next` on this site (an invitation link), else home."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if wanted and url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return wanted
    return reverse("home")


def register(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_next_page(request))
    form = RegisterForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user, _token = services.register_user(
                username=data["username"], password=data["password1"], email=data["email"],
                address=limits.address_of(request))
        except services.RegistrationError as exc:
            form.add_service_errors(exc.errors)
        except limits.REFUSALS as exc:
            form.add_error(None, exc.detail)
            return _too_many(render(request, "registration/register.html", {"form": form}), exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(_next_page(request))
    return render(request, "registration/register.html",
                  {"form": form, "next": request.POST.get("next") or request.GET.get("next", "")})


class LoginView(auth_views.LoginView):
    """Django's log-in page, with attempts per address limited before any password is
    hashed (`services.LOGIN_RATE`); the lock-out per account is django-axes'."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            services.check_login_rate(limits.address_of(request))
        except limits.REFUSALS as exc:
            # Unbound: validating the posted form would check the password after all.
            form = self.get_form_class()(request, initial={
                "username": request.POST.get("username", "")})
            return _too_many(self.render_to_response(
                self.get_context_data(form=form, refusal=exc.detail)), exc)
        return super().post(request, *args, **kwargs)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's page; then every other session and every API token ends (and their
    sockets close), this browser's session staying signed in. Wrong old passwords are
    counted per account (`GuardedPasswordChangeForm`)."""

    form_class = GuardedPasswordChangeForm

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)  # saves, and gives this session a new key
        credentials.password_changed(user=form.user,
                                     keep_session=self.request.session.session_key)
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's page, mailing only verified addresses (accounts/addresses.py) and limited
    per address: a reset request mails someone."""

    form_class = addresses.VerifiedPasswordResetForm

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            addresses.check_reset_rate(limits.address_of(request))
        except limits.REFUSALS as exc:
            form = self.get_form_class()(initial={"email": request.POST.get("email", "")})
            return _too_many(self.render_to_response(
                self.get_context_data(form=form, refusal=exc.detail)), exc)
        return super().post(request, *args, **kwargs)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's page; a new password set from the mailed link ends every session and
    API token of the account, as a change does."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        credentials.password_changed(user=form.user)
        return response


@login_required
def email(request: HttpRequest) -> HttpResponse:
    """The account's address: set, change or remove it (with the password); send its
    link again."""
    error = None
    if request.method == "POST":
        wanted = request.user.email if "resend" in request.POST else request.POST.get("email", "")
        try:
            addresses.change_email(user=request.user, email=wanted,
                                   password=request.POST.get("password"))
        except limits.RateLimited as exc:
            return _too_many(render(request, "accounts/email.html", {"error": exc.detail}), exc)
        except ServiceError as exc:
            error = exc.detail
        else:
            if request.user.email and not request.user.email_verified:
                messages.success(request, _("We sent a link to %(email)s: open it to confirm "
                                            "the address.") % {"email": request.user.email})
            elif not request.user.email:
                messages.success(request, _("Your account has no e-mail address now."))
            return redirect("email")
    return render(request, "accounts/email.html", {"error": error},
                  status=400 if error else 200)


def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to an address: it proves the address (no log-in needed)."""
    try:
        user = addresses.verify(token)
    except ServiceError as exc:
        # A page that says so, as Django's reset page does for a spent link.
        return render(request, "accounts/email_verified.html", {"error": exc.detail})
    return render(request, "accounts/email_verified.html", {"verified": user})


def undo_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to an address changed away: it shows what it would put back, and
    a button that does (a POST: a mail scanner that opens links undoes nothing)."""
    try:
        if request.method == "POST":
            user = addresses.undo_change(token)
            return render(request, "accounts/email_undo.html", {"restored": user})
        user, old = addresses.undo_claim(token)
    except ServiceError as exc:  # a page that says so, as the verification link's does
        status = 400 if request.method == "POST" else 200
        return render(request, "accounts/email_undo.html", {"error": exc.detail}, status=status)
    return render(request, "accounts/email_undo.html", {"account": user, "old": old})


@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    """List the API tokens, make a named one (its key shown this once), revoke one."""
    new_key = error = None
    if request.method == "POST":
        try:
            if "revoke" in request.POST:
                credentials.revoke_token(user=request.user, token_id=request.POST["revoke"])
                messages.success(request, _("The token is revoked; its sockets are closed."))
                return redirect("tokens")
            _info, new_key = credentials.create_token(user=request.user,
                                                  name=request.POST.get("name", ""))
        except ServiceError as exc:
            error = exc.detail
    tokens = [{**t, "created_at": datetime.fromisoformat(t["created"])}
              for t in credentials.list_tokens(request.user)]
    return render(request, "accounts/tokens.html", {
        "tokens": tokens, "new_key": new_key, "error": error,
        "name_max": credentials.NAME_MAX,
    }, status=400 if error else 200)


def _too_many(response: HttpResponse, exc: limits.RateLimited | limits.Uncounted
              ) -> HttpResponse:
    """The page again, showing the refusal on its form: 429 with Retry-After (503 when
    the limit could not be counted)."""
    response.status_code = exc.status
    response["Retry-After"] = str(exc.retry_after)
    return response
