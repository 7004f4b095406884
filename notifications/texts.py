"""A notification in words, in the current language: the list page, e-mail, the API."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.texts import kind_title
from notifications.models import Kind, Notification


def sentence(note: Notification) -> str:
    data = note.data or {}
    game = {"id": note.game_id, "kind": kind_title(data["kind"]) if data.get("kind") else ""}
    if note.kind == Kind.YOUR_TURN:
        return _("Your turn in game #%(id)s (%(kind)s).") % game
    if note.kind == Kind.GAME_OVER:
        return _("Game #%(id)s (%(kind)s) is over.") % game
    if note.kind == Kind.INVITATION and data.get("rematch"):
        return _("%(by)s offers a rematch of game #%(id)s (%(kind)s).") % {
            **game, "by": data.get("by", "?")}
    if note.kind == Kind.INVITATION:
        return _("%(by)s invites you to game #%(id)s (%(kind)s).") % {
            **game, "by": data.get("by", "?")}
    if data.get("outcome") == "resolved":
        return _("Your report was handled: a moderator took action. Thank you.")
    return _("Your report was reviewed: no action was needed. Thank you.")


def kind_label(kind: str) -> str:
    return str(Kind(kind).label)
