"""Notifications made from what games announce: "your turn", "game over", invitations
and rematch offers.

Only for turn-based games: in a live game the player is at the board, and the game's own
socket (and `/ws/me/`'s `your_turn` hint) already says so. Registered as a
`games.live.broadcast` listener, so it runs after the commit of every game write; a
failure is logged there and never undoes the move.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from accounts.models import User
from games import invitations
from games.live.broadcast import Committed
from games.models import Invitation
from games.round import turn_based
from notifications import services
from notifications.models import Kind, Mail, Notification


def on_committed(change: Committed) -> None:
    game = change.game
    if not turn_based(game.get("time_control")):
        return
    seated = [uid for uid in change.seat_users if uid is not None]
    if change.change == "finished":
        _settle_turns(change.game_id, seated)
        for user in User.objects.filter(pk__in=seated):
            services.notify(user, Kind.GAME_OVER, game_id=change.game_id,
                            data={"kind": game["kind"]})
        return
    if game.get("status") != "active" or not (change.events or change.change == "started"):
        return
    turn = (game.get("state") or {}).get("turn")
    in_range = isinstance(turn, int) and 0 <= turn < len(change.seat_users)
    to_move = change.seat_users[turn] if in_range else None
    _settle_turns(change.game_id, [uid for uid in seated if uid != to_move])
    if to_move is not None:
        user = User.objects.filter(pk=to_move).first()
        if user is not None:
            services.notify(user, Kind.YOUR_TURN, game_id=change.game_id,
                            data={"kind": game["kind"], "ply": game.get("ply")})


def _settle_turns(game_id: int, user_ids: list[int]) -> None:
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


def on_invited(sender: Any, *, invitation: Invitation, **kwargs: Any) -> None:
    """`games.signals.invited`, after the invitation's commit: tell the invited user,
    unless it no longer asks anything (taken back, answered, the game started or over)."""
    if not invitations.still_valid(invitation.pk):
        return
    services.notify(invitation.invited, Kind.INVITATION, game_id=invitation.game_id,
                    data={"kind": invitation.game.kind, "by": invitation.invited_by.username,
                          "invitation": invitation.pk})


def on_invitation_revoked(sender: Any, *, invitation: Invitation, **kwargs: Any) -> None:
    """`games.signals.invitation_revoked`, after its commit: the invited user's notice of
    it is settled (read; its e-mail, if not sent yet, is not sent)."""
    rows = Notification.objects.filter(user_id=invitation.invited_id, kind=Kind.INVITATION,
                                       data__invitation=invitation.pk)
    rows.filter(mail=Mail.PENDING).update(mail=Mail.SKIPPED)
    if rows.filter(read_at__isnull=True).update(read_at=timezone.now()):
        services.push_unread(invitation.invited_id)


def on_rematch_offered(sender: Any, *, game: Any, offered_by: str, user_ids: list[int],
                       **kwargs: Any) -> None:
    """`games.signals.rematch_offered`, after the offer's commit: every other person at
    the table is told, as for an invitation (its badge, list and e-mail choice), so one
    who left the page still learns of it; the notice opens the finished game, where the
    offer is answered."""
    for user in User.objects.filter(pk__in=user_ids):
        services.notify(user, Kind.INVITATION, game_id=game.pk,
                        data={"kind": game.kind, "by": offered_by, "rematch": True})
