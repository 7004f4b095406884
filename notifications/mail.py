"""E-mailing notifications, from the worker: claim, send, record; never from a move.

A notification made with `mail=pending` (its user has a verified address and opted in to
its kind) is claimed by one worker (`FOR UPDATE SKIP LOCKED`, so several workers share the
queue), sent outside any transaction (a slow mail server holds no lock), and marked sent,
skipped or failed. A claim older than RECLAIM (the worker died mid-send) is claimed again.

Exactly once is not to be had from SMTP (a server can take a message and the worker die
before it records so), so each e-mail is made recognisable instead: its Message-ID is
the notification's own (its id and the time it was made or refreshed), the same on every
attempt, so a message sent again after a crash is the same message to the mail servers
and clients that drop duplicates by Message-ID. The notification itself is made once:
in the transaction that marks its outbox row done (notifications/handlers.py).

"Your turn" is e-mailed at most once a day per game (`TurnMail`, a conditional update
under a unique constraint). Every e-mail carries an unsubscribe link that works without
logging in (RFC 8058 one-click as well).
"""

from __future__ import annotations

import logging
import smtplib
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from notifications import kinds
from notifications.models import Mail, Notification, TurnMail
from notifications.services import email_choice

log = logging.getLogger(__name__)

BATCH = 50
RECLAIM = timedelta(minutes=10)
TURN_MAIL_GAP = timedelta(days=1)
_SALT = "notifications.unsubscribe"


def unsubscribe_token(user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    """(user id, kind) from a link's token; None if it was not ours or is damaged."""
    try:
        value = signing.loads(token, salt=_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or value.get("k") not in kinds.MAILED \
            or not isinstance(value.get("u"), int):
        return None
    return value["u"], value["k"]


def unsubscribe_url(user_id: int, kind: str) -> str:
    path = reverse("notifications-unsubscribe", args=[unsubscribe_token(user_id, kind)])
    return settings.SITE_URL + path


def send_pending(now: datetime | None = None) -> int:
    """The worker job: send what is pending; returns how many e-mails went out."""
    now = now or timezone.now()
    sent = 0
    for note in _claim(now):
        state = _deliver(note, now)
        Notification.objects.filter(pk=note.pk, mail=Mail.SENDING).update(mail=state)
        sent += state == Mail.SENT
    return sent


def _claim(now: datetime) -> list[Notification]:
    due = Q(mail=Mail.PENDING) | Q(mail=Mail.SENDING, mail_claimed_at__lt=now - RECLAIM)
    with transaction.atomic():
        ids = list(Notification.objects.select_for_update(skip_locked=True).filter(due)
                   .order_by("created_at").values_list("pk", flat=True)[:BATCH])
        Notification.objects.filter(pk__in=ids).update(mail=Mail.SENDING, mail_claimed_at=now)
    return list(Notification.objects.filter(pk__in=ids).select_related("user")
                .order_by("created_at"))


def _deliver(note: Notification, now: datetime) -> Mail:
    user = note.user
    if not (user.is_active and user.email and user.email_verified
            and email_choice(user.pk).wants(note.kind)):
        return Mail.SKIPPED  # the address or the choice changed since
    kind = kinds.get(note.kind)
    if kind.still_true is not None and not kind.still_true(note):
        return Mail.SKIPPED  # no longer true: moved since, taken back, answered, over
    if kind.once_a_day_per_game and not _turn_mail_allowed(note, now):
        return Mail.SKIPPED
    link = settings.SITE_URL + (reverse("game", args=[note.game_id]) if note.game_id
                                else reverse("notifications"))
    off = unsubscribe_url(user.pk, note.kind)
    with translation.override(user.language or settings.LANGUAGE_CODE):
        context = {"user": user, "text": kinds.sentence(note, note.kind),
                   "kind": kinds.label(note.kind),
                   "link": link, "unsubscribe": off,
                   "settings_url": settings.SITE_URL + reverse("notifications")}
        subject = "".join(render_to_string("email/notification_subject.txt",
                                           context).splitlines())
        body = render_to_string("email/notification_body.txt", context)
    message = EmailMessage(subject, body, None, [user.email], headers={
        "Message-ID": message_id(note),
        "List-Unsubscribe": f"<{off}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
    try:
        message.send()
    except (OSError, smtplib.SMTPException) as exc:
        log.warning("notification %s: e-mail not sent: %r", note.pk, exc)
        return Mail.FAILED
    return Mail.SENT


def message_id(note: Notification) -> str:
    """The e-mail's Message-ID: the same for every attempt at one notification (and a
    new one for a "your turn" refreshed later, which is a new message)."""
    made = int(note.created_at.timestamp() * 1_000_000)
    return f"<notification-{note.pk}-{made}@{urlsplit(settings.SITE_URL).hostname or 'localhost'}>"


def _turn_mail_allowed(note: Notification, now: datetime) -> bool:
    """Take today's one "your turn" e-mail for this user and game, if it is free."""
    with transaction.atomic():
        if TurnMail.objects.filter(user_id=note.user_id, game_id=note.game_id,
                                   sent_at__lte=now - TURN_MAIL_GAP).update(sent_at=now):
            return True
        try:
            with transaction.atomic():
                TurnMail.objects.create(user_id=note.user_id, game_id=note.game_id, sent_at=now)
        except IntegrityError:
            return False  # one went out less than a day ago
    return True
