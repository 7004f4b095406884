"""Notification pages: the list with the e-mail choices, opening one, unsubscribing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from notifications import mail, selectors, services
from notifications.kinds import MAILED, label
from notifications.models import Notification


@login_required
@require_http_methods(["GET", "POST"])
def notifications(request: HttpRequest) -> HttpResponse:
    """The list (unread first) and, below it, which kinds come by e-mail."""
    if request.method == "POST":
        if "read_all" in request.POST:
            services.mark_read(request.user, None)  # type: ignore[arg-type]
        else:
            services.set_email_choices(request.user, {  # type: ignore[arg-type]
                kind: f"email_{kind}" in request.POST for kind in MAILED})
            messages.success(request, _("Your e-mail choices are saved."))
        return redirect("notifications")
    listing = selectors.listing(request.user.pk, limit=100)
    for note in listing["results"]:
        note["when"] = parse_datetime(note["created_at"])
    choice = services.email_choice(request.user.pk)
    return render(request, "notifications/list.html", {
        "listing": listing,
        "choices": [(kind, label(kind), choice.wants(kind)) for kind in MAILED],
    })


@login_required
@require_POST
def open_notification(request: HttpRequest, note_id: int) -> HttpResponse:
    """Mark one read and go where it points (its game, else back to the list)."""
    note = get_object_or_404(Notification, pk=note_id, user=request.user)
    services.mark_read(request.user, [note.pk])  # type: ignore[arg-type]
    return redirect("game", note.game_id) if note.game_id else redirect("notifications")


@csrf_exempt  # the signed token is the authority; mail clients POST it (RFC 8058)
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """Stop one kind of e-mail from a link in it, logged in or not. GET asks, POST does
    (link scanners follow GETs; a one-click client POSTs)."""
    found = mail.read_unsubscribe_token(token)
    user = User.objects.filter(pk=found[0]).first() if found else None
    if found is None or user is None:
        # A page for people, like the address check's: it says what went wrong.
        return render(request, "notifications/unsubscribe.html", {"invalid": True})
    kind = found[1]
    done = request.method == "POST"
    if done:
        services.unsubscribe(user, kind)
    return render(request, "notifications/unsubscribe.html", {
        "done": done, "kind": label(kind), "username": user.username})
