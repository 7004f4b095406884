"""The one registry of notification kinds: for each, its value and label, its sentence,
whether and when it is e-mailed, the preference that opts in to its e-mail, and the
outbox kinds (games/outbox.py) whose handlers make it (notifications/handlers.py).

Everything else reads it: the model's choices (`models.Kind`), the API's enum, the
e-mail choices of the page and the API, the mail worker, and the AppConfig that
registers the handlers. A new kind is one entry here (and, if it mails, its
`EmailChoice` field: tests/notifications check that they agree).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import invitations, outbox, rematch
from games.models import Game, Status
from games.texts import kind_title


class Note(Protocol):
    """What a kind reads of a notification (notifications.models.Notification)."""

    user_id: int
    game_id: int | None
    data: dict[str, Any]
    read_at: Any


@dataclass(frozen=True)
class NotificationKind:
    value: str
    label: Promise
    sentence: Callable[[Note], str]
    # E-mailed when its reader opted in (`EmailChoice.<preference>`), and then only while
    # `still_true` (if given) holds when the worker sends it.
    mails: bool = True
    still_true: Callable[[Note], bool] | None = None
    once_a_day_per_game: bool = False  # at most one e-mail a day per user and game
    fed_by: tuple[str, ...] = ()  # outbox kinds whose handlers make notifications of it

    @property
    def preference(self) -> str:
        """The `EmailChoice` field that opts in to its e-mail."""
        return self.value


def _game(note: Note) -> dict[str, Any]:
    data = note.data or {}
    return {"id": note.game_id, "kind": kind_title(data["kind"]) if data.get("kind") else ""}


def _invitation_sentence(note: Note) -> str:
    by = {**_game(note), "by": (note.data or {}).get("by", "?")}
    if (note.data or {}).get("rematch"):
        return _("%(by)s offers a rematch of game #%(id)s (%(kind)s).") % by
    return _("%(by)s invites you to game #%(id)s (%(kind)s).") % by


def _still_asks(note: Note) -> bool:
    """An invitation's notice, or a rematch offer's (an invitation to play again), still
    asks its reader something: not taken back, answered, started or over."""
    data = note.data or {}
    if data.get("rematch"):
        return rematch.still_asks(note.game_id, note.user_id)
    return invitations.still_valid(data.get("invitation"))


def _table_ready_sentence(note: Note) -> str:
    data = note.data or {}
    return _("Your table is ready: round %(round)s of tournament #%(tournament)s "
             "(%(kind)s), game #%(id)s.") % {**_game(note), "round": data.get("round", "?"),
                                             "tournament": data.get("tournament", "?")}


def _table_still_plays(note: Note) -> bool:
    """A table's e-mail is worth sending while its game is still being played."""
    return Game.objects.filter(pk=note.game_id, status=Status.ACTIVE).exists()


def _report_sentence(note: Note) -> str:
    if (note.data or {}).get("outcome") == "resolved":
        return _("Your report was handled: a moderator took action. Thank you.")
    return _("Your report was reviewed: no action was needed. Thank you.")


REGISTRY: tuple[NotificationKind, ...] = (
    NotificationKind(
        "your_turn", gettext_lazy("your turn"),
        lambda note: _("Your turn in game #%(id)s (%(kind)s).") % _game(note),
        still_true=lambda note: note.read_at is None,  # not moved since
        once_a_day_per_game=True, fed_by=(outbox.TURN,)),
    NotificationKind(
        "game_over", gettext_lazy("game over"),
        lambda note: _("Game #%(id)s (%(kind)s) is over.") % _game(note),
        fed_by=(outbox.GAME_OVER,)),
    NotificationKind(
        "invitation", gettext_lazy("invitation"), _invitation_sentence,
        still_true=_still_asks,
        fed_by=(outbox.INVITED, outbox.INVITATION_REVOKED, outbox.REMATCH_OFFERED)),
    NotificationKind(
        "table_ready", gettext_lazy("your table is ready"), _table_ready_sentence,
        still_true=_table_still_plays, fed_by=(outbox.TABLE_READY,)),
    # Told by moderation itself, in the transaction that closes the report.
    NotificationKind("report_outcome", gettext_lazy("report outcome"), _report_sentence),
)

BY_VALUE: dict[str, NotificationKind] = {kind.value: kind for kind in REGISTRY}
MAILED: tuple[str, ...] = tuple(kind.value for kind in REGISTRY if kind.mails)


def get(value: str) -> NotificationKind:
    return BY_VALUE[value]


def sentence(note: Note, kind: str) -> str:
    """The notification in words, in the current language (the list, e-mail, the API)."""
    return BY_VALUE[kind].sentence(note)


def label(kind: str) -> str:
    return str(BY_VALUE[kind].label)
