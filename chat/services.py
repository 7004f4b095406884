"""Every write to game chat: post, delete (moderators), mute and unmute (moderators).

Moderators stay off staff: only a superuser mutes, unmutes or deletes the messages of a
staff account (`moderation.services.guard`, refusal `staff_protected`, logged).

Each is one transaction; live messages go out through the game's fan-out only after it
commits (`games.announce.send_on_commit`), like game events. Moderator actions are
written to the moderation log (`moderation.services.record`) in the same transaction.
`history` (a read) lives in `chat.selectors` and is re-exported here.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import timedelta
from typing import Any

import regex
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from chat import rooms
from chat.errors import (
    Forbidden,
    InvalidMessage,
    Muted,
    NotAuthenticated,
    NotFound,
    NotMuted,
    RateLimited,
    TooLong,
)
from chat.models import MAX_LENGTH, ChatMessage, Mute, active_mutes
from chat.selectors import history, message_json
from games import announce
from games.models import Game, Seat
from moderation import services as moderation
from moderation.errors import ReasonRequired

__all__ = ["clean_text", "delete_message", "history", "mute_user", "muted_until",
           "post_message", "unmute_user"]

# Per user, over every game: (messages, seconds).
RATE_LIMITS = ((5, 10), (30, 600))
MAX_MUTE_MINUTES = 366 * 24 * 60
MAX_REASON = 500

# Bidirectional embeddings, overrides and isolates: they let a message reorder the text
# around it on the page (and spoof what others appear to say).
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_SPACES = re.compile(r"\s+")
# A character that shows something: not a space, not a control, format or unassigned
# character, not a mark on its own, not default-ignorable (zero-width spaces, joiners,
# variation selectors, tag characters, Hangul fillers), not the Braille blank.
_VISIBLE = regex.compile(r"[^\p{White_Space}\p{Z}\p{C}\p{M}\p{Default_Ignorable_Code_Point}"
                         r"\u2800]")
# Spaces and blank fillers at either end of a message are trimmed (not every ignorable
# character: a variation selector or a tag character may end an emoji).
_BLANK = r"[\p{White_Space}\u200b\u2060\ufeff\u115f\u1160\u3164\uffa0\u2800]"
_BLANK_ENDS = regex.compile(f"^{_BLANK}+|{_BLANK}+$")
# Marks stacked on one character (ignorable characters between them do not split a
# stack): up to MAX_MARKS is every script's normal use (NFC composes accented letters;
# a keycap emoji has two); more is "Zalgo" text drawn over the lines around it.
MAX_MARKS = 4
_STACKED = regex.compile(r"(?:\p{M}\p{Default_Ignorable_Code_Point}*){" + str(MAX_MARKS + 1) + "}")


def clean_text(text: str) -> str:
    """The text as stored: control characters (newlines too) become spaces, bidi controls
    and lone surrogates go, whitespace runs collapse to one space, ends trimmed of spaces
    and invisible characters."""
    text = "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in text
                   if unicodedata.category(ch) != "Cs")
    text = unicodedata.normalize("NFC", _BIDI.sub("", text))
    return _BLANK_ENDS.sub("", _SPACES.sub(" ", text))


def check_visible(text: str) -> None:
    """Refuse cleaned text that shows nothing (only invisible characters: a blank message
    others cannot see being sent) or that stacks more than MAX_MARKS marks on one
    character; both `invalid`."""
    if not _VISIBLE.search(text):
        raise InvalidMessage(_("The message has nothing visible in it."))
    if _STACKED.search(text):
        raise InvalidMessage(_("At most %(most)s accents or marks on one character.")
                             % {"most": MAX_MARKS})


def muted_until(user: Any, now: Any = None) -> tuple[bool, Any]:
    """(muted now, until when: None for indefinitely); the latest-ending mute wins."""
    now = now or timezone.now()
    mutes = list(Mute.objects.filter(active_mutes(now), user_id=user.pk)
                 .values_list("until", flat=True))
    if not mutes:
        return False, None
    return True, None if None in mutes else max(mutes)


def _announce(game_id: int, room: str, frame: dict[str, Any]) -> None:
    """After commit, one fan-out message, which each socket passes on only if its viewer
    may read `room`."""
    announce.send_on_commit(announce.ToGame(game_id, {"type": "game.chat", "room": room,
                                                      "frame": frame}))


def post_message(*, game_id: int, user: Any, text: Any) -> ChatMessage:
    """Write `text` to the caller's room of the game (see `chat.rooms`)."""
    if user is None or not user.is_authenticated:
        raise NotAuthenticated(_("Log in to chat."))
    if not isinstance(text, str):
        raise InvalidMessage(_("`text` must be a string."))
    clean = clean_text(text)
    if not clean:
        raise InvalidMessage(_("The message is empty."))
    check_visible(clean)
    if len(clean) > MAX_LENGTH:
        raise TooLong(_("Messages are limited to %(most)s characters.") % {"most": MAX_LENGTH})
    with transaction.atomic():
        # Why lock the author's row: one user's posts queue here, so two sent at once
        # cannot both pass the rate count below. Other users and the game are untouched.
        list(get_user_model().objects.select_for_update().filter(pk=user.pk)
             .values_list("pk", flat=True))
        now = timezone.now()
        muted, until = muted_until(user, now)
        if muted:
            raise Muted(_("You are muted until a moderator lifts it.") if until is None else
                        _("You are muted until %(until)s (UTC).") % {
                            "until": date_format(until, "DATETIME_FORMAT")},
                        until=until)
        _check_rate(user, now)
        game = Game.objects.filter(pk=game_id).values("status", "state__in_game").first()
        if game is None:
            raise NotFound(_("No game %(id)s.") % {"id": game_id})
        seat = (Seat.objects.filter(game_id=game_id, user_id=user.pk)
                .values_list("seat", flat=True).first())
        room = rooms.writing_room(game["status"], seat, game["state__in_game"])
        message = ChatMessage.objects.create(game_id=game_id, author=user, room=room,
                                             text=clean)
        frame = {"type": "chat", "message": message_json(message)}
        _announce(game_id, room, frame)
    return message


def _check_rate(user: Any, now: Any) -> None:
    since = {seconds: now - timedelta(seconds=seconds) for _limit, seconds in RATE_LIMITS}
    recent = list(ChatMessage.objects.filter(author_id=user.pk,
                                             created_at__gte=min(since.values()))
                  .values_list("created_at", flat=True))
    for limit, seconds in RATE_LIMITS:
        if sum(1 for at in recent if at >= since[seconds]) >= limit:
            raise RateLimited(_("At most %(most)s messages every %(seconds)s seconds; "
                                "wait a moment.") % {"most": limit, "seconds": seconds})


def _require(actor: Any, perm: str) -> None:
    if actor is None or not actor.is_authenticated:
        raise NotAuthenticated(_("Log in first."))
    if not actor.has_perm(perm):
        raise Forbidden(_("You may not do that."))


def _reason(reason: Any) -> str:
    """A moderator action's reason, cleaned: required (the moderation log needs one)."""
    if not isinstance(reason, str):
        raise InvalidMessage(_("`reason` must be a string."))
    reason = clean_text(reason)
    if not reason or not _VISIBLE.search(reason):
        raise ReasonRequired(_("A moderator action needs a reason."))
    if len(reason) > MAX_REASON:
        raise TooLong(_("A reason is limited to %(most)s characters.") % {"most": MAX_REASON})
    return reason


def delete_message(*, actor: Any, message_id: int, reason: str) -> ChatMessage:
    """Hide a message from everyone but moderators (the row stays); logged. Deleting a
    deleted message changes nothing and logs nothing."""
    _require(actor, "moderation.delete_message")
    reason = _reason(reason)
    found = ChatMessage.objects.select_related("author").filter(pk=message_id).first()
    if found is None:
        raise NotFound(_("No chat message %(id)s.") % {"id": message_id})
    moderation.guard(actor=actor, action="delete_message", target=found, reason=reason,
                     users=[found.author])
    with transaction.atomic():
        message = (ChatMessage.objects.select_for_update(of=("self",))
                   .select_related("author").filter(pk=message_id).first())
        if message is None:
            raise NotFound(_("No chat message %(id)s.") % {"id": message_id})
        if message.deleted:
            return message
        message.deleted = True
        message.deleted_by = actor
        message.deleted_at = timezone.now()
        message.save(update_fields=["deleted", "deleted_by", "deleted_at"])
        moderation.record(actor=actor, action="delete_message", target=message, reason=reason)
        _announce(message.game_id, message.room, {"type": "chat_deleted", "id": message.pk})
    return message


def mute_user(*, actor: Any, user: Any, reason: str, minutes: int | None) -> Mute:
    """Stop `user` writing in any chat for `minutes` (None: until unmuted); logged."""
    _require(actor, "moderation.mute_user")
    reason = _reason(reason)
    if minutes is not None and (type(minutes) is not int
                                or not 1 <= minutes <= MAX_MUTE_MINUTES):
        raise InvalidMessage(_("`minutes` must be 1 to %(most)s, or null.")
                             % {"most": MAX_MUTE_MINUTES})
    moderation.guard(actor=actor, action="mute_user", target=user, reason=reason,
                     users=[user])
    with transaction.atomic():
        until = None if minutes is None else timezone.now() + timedelta(minutes=minutes)
        mute = Mute.objects.create(user=user, until=until, by=actor, reason=reason)
        moderation.record(actor=actor, action="mute_user", target=user, reason=reason)
    return mute


def unmute_user(*, actor: Any, user: Any, reason: str) -> int:
    """End every mute of `user` in force now (they stay on record, ending now); logged.
    Returns how many ended; `not_muted` if none was in force."""
    _require(actor, "moderation.mute_user")
    reason = _reason(reason)
    moderation.guard(actor=actor, action="unmute_user", target=user, reason=reason,
                     users=[user])
    with transaction.atomic():
        now = timezone.now()
        ended = Mute.objects.filter(active_mutes(now), user_id=user.pk).update(until=now)
        if not ended:
            raise NotMuted(_("%(name)s is not muted.") % {"name": user.username})
        moderation.record(actor=actor, action="unmute_user", target=user, reason=reason)
    return ended
