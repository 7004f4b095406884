"""Notifications made from the outbox rows games writes (games/outbox.py): "your turn"
and "game over" in turn-based games, invitations and rematch offers, and a table an
organiser seated (a tournament's round: the app above writes that row).

Each handler runs in the worker, in the transaction that marks its row done, so the
notifications it writes commit with that mark or not at all (a crash: the row is taken
again). Only turn-based games write turn rows: in a live game the player is at the
board, and the game's own socket (and `/ws/me/`'s `your_turn` hint) already says so.
A handler decides from what is true when it runs, not when the row was written: a turn
already played is not announced, an invitation already taken back not sent.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils import timezone

from accounts.models import User
from games import invitations, outbox
from games.models import Game, Invitation, Outbox, Status
from notifications import services
from notifications.models import Kind, Mail, Notification


def your_turn(row: Outbox) -> None:
    """The seat to move is told; the others' "your turn" in this game is read. Only if
    the game still stands where the row was written: otherwise a later row says what
    is true now (the worker was away, or this row was put off after a failure)."""
    payload = row.payload
    now = Game.objects.filter(pk=row.game_id).values_list("ply", "status").first()
    if now is None or now != (payload["ply"], Status.ACTIVE):
        return
    to_move = payload.get("to_move")
    _settle_turns(row.game_id, [uid for uid in payload["seated"] if uid != to_move])
    user = User.objects.filter(pk=to_move).first() if to_move is not None else None
    if user is not None:
        services.notify(user, Kind.YOUR_TURN, game_id=row.game_id,
                        data={"kind": payload["kind"], "ply": payload["ply"]})


def game_over(row: Outbox) -> None:
    payload = row.payload
    _settle_turns(row.game_id, payload["seated"])
    for user in User.objects.filter(pk__in=payload["seated"]).order_by("pk"):
        services.notify(user, Kind.GAME_OVER, game_id=row.game_id,
                        data={"kind": payload["kind"]})


def _settle_turns(game_id: int | None, user_ids: list[int]) -> None:
    """A "your turn" that is no longer true is read: its player moved, or the game ended.
    Their badges hear the new count."""
    if not user_ids:
        return
    rows = Notification.objects.filter(user_id__in=user_ids, game_id=game_id,
                                       kind=Kind.YOUR_TURN, read_at__isnull=True)
    settled = list(rows.values_list("user_id", flat=True))
    if settled:
        rows.update(read_at=timezone.now())
        for user_id in settled:
            services.push_unread(user_id)


def invited(row: Outbox) -> None:
    """Tell the invited user, unless it no longer asks anything (taken back, answered,
    the game started or over)."""
    pk = row.payload["invitation"]
    if not invitations.still_valid(pk):
        return
    invitation = (Invitation.objects.select_related("game", "invited", "invited_by")
                  .get(pk=pk))
    services.notify(invitation.invited, Kind.INVITATION, game_id=invitation.game_id,
                    data={"kind": invitation.game.kind, "by": invitation.invited_by.username,
                          "invitation": invitation.pk})


def invitation_revoked(row: Outbox) -> None:
    """The invited user's notice of it is settled (read; its e-mail, if not sent yet, is
    not sent)."""
    pk, invited_id = row.payload["invitation"], row.payload["invited"]
    rows = Notification.objects.filter(user_id=invited_id, kind=Kind.INVITATION,
                                       data__invitation=pk)
    rows.filter(mail=Mail.PENDING).update(mail=Mail.SKIPPED)
    if rows.filter(read_at__isnull=True).update(read_at=timezone.now()):
        services.push_unread(invited_id)


def rematch_offered(row: Outbox) -> None:
    """Every other person at the table is told, as for an invitation (its badge, list
    and e-mail choice), so one who left the page still learns of it; the notice opens
    the finished game, where the offer is answered."""
    payload = row.payload
    for user in User.objects.filter(pk__in=payload["user_ids"]).order_by("pk"):
        services.notify(user, Kind.INVITATION, game_id=row.game_id,
                        data={"kind": payload["kind"], "by": payload["by"], "rematch": True})


def table_ready(row: Outbox) -> None:
    """An organiser (a tournament's round) seated a table: each person at it is told,
    with the words the row carries, unless its game is already over."""
    if not Game.objects.filter(pk=row.game_id, status=Status.ACTIVE).exists():
        return
    payload = row.payload
    data = {key: payload[key] for key in ("kind", "tournament", "system", "round")
            if key in payload}
    for user in User.objects.filter(pk__in=payload["user_ids"]).order_by("pk"):
        services.notify(user, Kind.TABLE_READY, game_id=row.game_id, data=data)


# The outbox kinds notifications carries out; notifications/kinds.py says which
# notification kind each one feeds (`fed_by`), and apps.py registers them from there.
BY_OUTBOX_KIND: dict[str, Callable[[Outbox], None]] = {
    outbox.TURN: your_turn,
    outbox.GAME_OVER: game_over,
    outbox.INVITED: invited,
    outbox.INVITATION_REVOKED: invitation_revoked,
    outbox.REMATCH_OFFERED: rematch_offered,
    outbox.TABLE_READY: table_ready,
}
