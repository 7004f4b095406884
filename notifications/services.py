"""Telling people things: create a notification, read them, choose what comes by e-mail.

`notify` is the one way a notification is made, whoever makes it (the game listener, an
invitation, moderation). The row is the truth; after commit the user's sockets on
`/ws/me/` get it (the live badge), and the worker e-mails it if they asked for that kind
(notifications/mail.py), so a slow mail server never holds up a move.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import announce
from games.errors import InvalidRequest
from notifications.kinds import MAILED
from notifications.models import EmailChoice, Kind, Mail, Notification
from notifications.selectors import notification_json, unread_count


def email_choice(user_id: int) -> EmailChoice:
    """The user's e-mail choices (all off until they opt in; the row is made lazily)."""
    return EmailChoice.objects.filter(pk=user_id).first() or EmailChoice(user_id=user_id)


def _mail_state(user: User, kind: str) -> Mail:
    wanted = user.email and user.email_verified and email_choice(user.pk).wants(kind)
    return Mail.PENDING if wanted else Mail.NONE


def notify(user: User, kind: Kind, *, game_id: int | None = None,
           data: dict[str, Any] | None = None, now: datetime | None = None
           ) -> Notification | None:
    """Record that `user` is told `kind` (about `game_id`) and push it to their sockets
    after commit. None for bot accounts, which nobody reads. A "your turn" in a game
    that already has one unread refreshes that one."""
    if user.bot_level:
        return None
    now = now or timezone.now()
    fields = {"data": data or {}, "created_at": now, "mail": _mail_state(user, kind),
              "mail_claimed_at": None}
    with transaction.atomic():
        note = None
        if kind == Kind.YOUR_TURN:
            note = _refresh_turn(user.pk, game_id, fields)
        if note is None:
            try:
                with transaction.atomic():
                    note = Notification.objects.create(user=user, kind=kind, game_id=game_id,
                                                       **fields)
            except IntegrityError:  # a racing "your turn" made the row first
                note = _refresh_turn(user.pk, game_id, fields)
                if note is None:
                    raise
        announce.send_on_commit(announce.ToUsers([note.user_id], partial(_notice, note)))
    return note


def _refresh_turn(user_id: int, game_id: int | None, fields: dict[str, Any]
                  ) -> Notification | None:
    rows = Notification.objects.filter(user_id=user_id, game_id=game_id, kind=Kind.YOUR_TURN,
                                       read_at__isnull=True)
    if not rows.update(**fields):
        return None
    return rows.first()


def _notice(note: Notification) -> dict[str, Any]:
    """The notice of ``note``, built after its commit (the unread count reads it)."""
    return {"event": "notification", "game_id": note.game_id,
            "notification": notification_json(note), "unread": unread_count(note.user_id)}


def mark_read(user: User, ids: Iterable[int] | None, *, now: datetime | None = None) -> int:
    """Mark the user's notifications `ids` (all, if None) read; returns the unread left.
    Ids that are not the user's are ignored, as if they were already read."""
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    rows.update(read_at=now or timezone.now())
    left = unread_count(user.pk)
    push_unread(user.pk, left)
    return left


def push_unread(user_id: int, unread: int | None = None) -> None:
    """Tell the user's sockets how many are unread now (some were read), after commit."""
    announce.send_on_commit(announce.ToUsers([user_id], lambda: {
        "event": "notifications_read", "game_id": None,
        "unread": unread_count(user_id) if unread is None else unread}))


def set_email_choices(user: User, choices: dict[str, bool]) -> EmailChoice:
    """Opt in or out of e-mail per kind; unknown kinds are a 400 with a code."""
    unknown = sorted(set(choices) - set(MAILED))
    if unknown:
        raise InvalidRequest(_("Unknown notification kind: %(kind)s.")
                             % {"kind": unknown[0]}, code="unknown_kind")
    with transaction.atomic():
        choice, _created = EmailChoice.objects.select_for_update().get_or_create(pk=user.pk)
        for kind, on in choices.items():
            setattr(choice, kind, bool(on))
        choice.save()
    return choice


def unsubscribe(user: User, kind: str) -> EmailChoice:
    """Turn off e-mail of `kind` for `user` (from an unsubscribe link: no login)."""
    return set_email_choices(user, {kind: False})
